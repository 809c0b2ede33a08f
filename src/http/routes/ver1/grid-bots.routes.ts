/** /ver1/grid_bots: create, list, show, edit, enable, disable, note and delete grid bots, and their logs. */
import type { GridBotsService } from '../../../services/grid-bots.service.ts';
import {
  presentGridBot,
  presentGridEvent,
  presentGridOrder,
  presentGridProfit,
  presentRequiredBalances,
} from '../../presenters/grid-bot.presenter.ts';
import { defineRoute } from '../../route.ts';
import { optionalInstant } from '../../schemas/instant.ts';
import {
  CreateGridBot,
  GridBotEvents,
  GridBotId,
  GridBotMarketOrders,
  GridBotNote,
  GridBotProfits,
  ListGridBots,
  UpdateGridBot,
} from '../../schemas/grid-bot.ts';

const tags = ['grid_bots'];

export const gridBotRoutes = (gridBots: GridBotsService) => [
  defineRoute({
    method: 'POST',
    url: '/ver1/grid_bots/manual',
    summary: 'Create a grid bot and start it at the current price',
    tags,
    input: CreateGridBot,
    successStatus: 201,
    handler: async ({ input, caller }) => presentGridBot(await gridBots.create(caller.userId, input)),
  }),
  defineRoute({
    method: 'GET',
    url: '/ver1/grid_bots',
    summary: "The caller's grid bots on accounts of the current mode (paper or real)",
    tags,
    input: ListGridBots,
    handler: async ({ input, caller }) => {
      const accountIds = [...(input.account_ids ?? []), ...(input.account_id?.split(',').map(Number) ?? [])];
      const bots = await gridBots.list(caller.userId, {
        mode: await caller.mode(),
        ...(accountIds.length > 0 ? { accountIds } : {}),
        ...(input.state === undefined ? {} : { state: input.state }),
        ...(input.sort_by === undefined ? {} : { sortBy: input.sort_by }),
        ...(input.sort_direction === undefined ? {} : { sortDirection: input.sort_direction.toLowerCase() as 'asc' | 'desc' }),
        limit: input.limit,
        offset: input.offset,
        ...optionalInstant('from', input.from),
        ...(input.base === undefined ? {} : { base: input.base }),
        ...(input.quote === undefined ? {} : { quote: input.quote }),
      });
      return bots.map(presentGridBot);
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/ver1/grid_bots/:id',
    summary: 'One grid bot',
    tags,
    input: GridBotId,
    handler: async ({ input, caller }) => presentGridBot(await gridBots.get(caller.userId, input.id)),
  }),
  defineRoute({
    method: 'PATCH',
    url: '/ver1/grid_bots/:id/manual',
    summary: 'Edit a grid bot; a running grid is cancelled and placed again, its profit history kept',
    tags,
    input: UpdateGridBot,
    handler: async ({ input, caller }) => {
      const { id, ...params } = input;
      return presentGridBot(await gridBots.update(caller.userId, id, params));
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/ver1/grid_bots/:id/enable',
    summary: 'Start a disabled grid bot again from the current price',
    tags,
    input: GridBotId,
    successStatus: 201,
    handler: async ({ input, caller }) => presentGridBot(await gridBots.enable(caller.userId, input.id)),
  }),
  defineRoute({
    method: 'POST',
    url: '/ver1/grid_bots/:id/disable',
    summary: "Stop a grid bot: its open orders are cancelled and its lines unmarked",
    tags,
    input: GridBotId,
    successStatus: 201,
    handler: async ({ input, caller }) => presentGridBot(await gridBots.disable(caller.userId, input.id)),
  }),
  defineRoute({
    method: 'POST',
    url: '/ver1/grid_bots/:id/note',
    summary: 'Set the note of a grid bot',
    tags,
    input: GridBotNote,
    successStatus: 201,
    handler: async ({ input, caller }) => presentGridBot(await gridBots.setNote(caller.userId, input.id, input.note)),
  }),
  defineRoute({
    method: 'DELETE',
    url: '/ver1/grid_bots/:id',
    summary: 'Stop a grid bot and delete it with its history; answers the bot as it ended',
    tags,
    input: GridBotId,
    handler: async ({ input, caller }) => presentGridBot(await gridBots.remove(caller.userId, input.id)),
  }),
  defineRoute({
    method: 'GET',
    url: '/ver1/grid_bots/:id/required_balances',
    summary: 'What the grid needs in base and quote, what the account lacks and whether a balancing order can cover it',
    tags,
    input: GridBotId,
    handler: async ({ input, caller }) => presentRequiredBalances(await gridBots.requiredBalances(caller.userId, input.id)),
  }),
  defineRoute({
    method: 'GET',
    url: '/ver1/grid_bots/:id/events',
    summary: "The bot's event log, oldest first",
    tags,
    input: GridBotEvents,
    handler: async ({ input, caller }) =>
      (await gridBots.events(caller.userId, input.id, { page: input.page, perPage: input.per_page })).map(presentGridEvent),
  }),
  defineRoute({
    method: 'GET',
    url: '/ver1/grid_bots/:id/market_orders',
    summary: "The bot's grid line orders and balancing orders, newest first",
    tags,
    input: GridBotMarketOrders,
    handler: async ({ input, caller }) => {
      const orders = await gridBots.marketOrders(caller.userId, input.id, { limit: input.limit, offset: input.offset });
      return {
        grid_lines_orders: orders.gridLines.map(presentGridOrder),
        balancing_orders: orders.balancing.map(presentGridOrder),
      };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/ver1/grid_bots/:id/profits',
    summary: 'One row per completed buy and sell pair, newest first',
    tags,
    input: GridBotProfits,
    handler: async ({ input, caller }) => {
      const range = { ...optionalInstant('from', input.from), ...optionalInstant('to', input.to) };
      return (await gridBots.profits(caller.userId, input.id, range)).map(presentGridProfit);
    },
  }),
];
