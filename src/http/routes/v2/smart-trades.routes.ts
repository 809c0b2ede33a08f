/** /v2/smart_trades: create, list, show, edit, cancel and act on SmartTrades, and their sub-trades. */
import type { SmartTradesService } from '../../../services/smart-trades.service.ts';
import { errors } from '../../../shared/errors.ts';
import { presentSubTrades } from '../../presenters/smart-trade-parts.presenter.ts';
import { presentSmartTrade } from '../../presenters/smart-trade.presenter.ts';
import { defineRoute } from '../../route.ts';
import { optionalInstant } from '../../schemas/instant.ts';
import {
  CreateSmartTrade,
  EditSmartTrade,
  ListSmartTrades,
  SmartTradeFunds,
  SmartTradeId,
  SmartTradeNote,
  SubTradeId,
} from '../../schemas/smart-trade.ts';

const tags = ['smart_trades'];

export const smartTradeRoutes = (smartTrades: SmartTradesService) => {
  const action = (url: string, summary: string, run: (userId: number, id: number) => Promise<Parameters<typeof presentSmartTrade>[0]>) =>
    defineRoute({
      method: 'POST',
      url: `/v2/smart_trades/:id/${url}`,
      summary,
      tags,
      input: SmartTradeId,
      successStatus: 201,
      handler: async ({ input, caller }) => presentSmartTrade(await run(caller.userId, input.id)),
    });
  return [
    defineRoute({
      method: 'POST',
      url: '/v2/smart_trades',
      summary: 'Create a SmartTrade (smart trade, smart cover, smart sell/buy on own coins, or a simple buy/sell)',
      tags,
      input: CreateSmartTrade,
      successStatus: 201,
      handler: async ({ input, caller }) => presentSmartTrade(await smartTrades.create(caller.userId, input)),
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/smart_trades',
      summary: "The caller's SmartTrades on accounts of the current mode, filtered, sorted and paged",
      tags,
      input: ListSmartTrades,
      handler: async ({ input, caller }) => {
        const { from, to, order_direction: direction, ...rest } = input;
        const views = await smartTrades.list(caller.userId, await caller.mode(), {
          ...rest,
          order_direction: direction.toLowerCase() as 'asc' | 'desc',
          ...optionalInstant('from', from),
          ...optionalInstant('to', to),
        });
        return views.map(presentSmartTrade);
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/smart_trades/:id',
      summary: 'One SmartTrade',
      tags,
      input: SmartTradeId,
      handler: async ({ input, caller }) => presentSmartTrade(await smartTrades.show(caller.userId, input.id)),
    }),
    defineRoute({
      method: 'PATCH',
      url: '/v2/smart_trades/:id',
      summary: 'Edit the entry, take profit and stop loss (waiting_position and waiting_targets only)',
      tags,
      input: EditSmartTrade,
      handler: async ({ input, caller }) => {
        const { id, leverage, ...edit } = input;
        if (leverage?.enabled) throw errors.recordInvalid({ 'leverage[enabled]': ['is not available on spot markets'] });
        return presentSmartTrade(await smartTrades.edit(caller.userId, id, edit));
      },
    }),
    defineRoute({
      method: 'DELETE',
      url: '/v2/smart_trades/:id',
      summary: 'Cancel: open orders are cancelled (status cancellation_pending, then cancelled); bought coins stay',
      tags,
      input: SmartTradeId,
      handler: async ({ input, caller }) => presentSmartTrade(await smartTrades.cancel(caller.userId, input.id)),
    }),
    action('close_by_market', 'Close the position at market (status panic_sell_pending, then panic_sold)', (user, id) =>
      smartTrades.closeByMarket(user, id),
    ),
    defineRoute({
      method: 'POST',
      url: '/v2/smart_trades/:id/add_funds',
      summary: 'Add to the position at market or at a limit price; the entry is averaged',
      tags,
      input: SmartTradeFunds,
      successStatus: 201,
      handler: async ({ input, caller }) => {
        const { id, ...funds } = input;
        return presentSmartTrade(await smartTrades.addFunds(caller.userId, id, funds));
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/smart_trades/:id/reduce_funds_info',
      summary: 'The most the position can be reduced by now (waiting_targets only)',
      tags,
      input: SmartTradeId,
      handler: async ({ input, caller }) => ({ max_reduce_funds_amount: await smartTrades.reduceFundsInfo(caller.userId, input.id) }),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/smart_trades/:id/reduce_funds',
      summary: 'Close part of the position (waiting_targets only); the take-profit steps share the rest',
      tags,
      input: SmartTradeFunds,
      successStatus: 201,
      handler: async ({ input, caller }) => {
        const { id, ...funds } = input;
        return presentSmartTrade(await smartTrades.reduceFunds(caller.userId, id, funds));
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/smart_trades/:id/set_note',
      summary: 'Set the note (1 to 300 characters)',
      tags,
      input: SmartTradeNote,
      successStatus: 201,
      handler: async ({ input, caller }) => presentSmartTrade(await smartTrades.setNote(caller.userId, input.id, input.note)),
    }),
    action('force_start', 'Enter at market now while the entry waits (trigger, limit or trailing)', (user, id) => smartTrades.forceStart(user, id)),
    action('force_process', 'Process the trade at the current price now, retrying failed take-profit steps', (user, id) =>
      smartTrades.forceProcess(user, id),
    ),
    defineRoute({
      method: 'GET',
      url: '/v2/smart_trades/:id/trades',
      summary: 'The parts of a SmartTrade: position, take-profit steps, stop loss, funds and market close',
      tags,
      input: SmartTradeId,
      handler: async ({ input, caller }) => {
        const { view } = await smartTrades.subTrades(caller.userId, input.id);
        return presentSubTrades(view.state, view.createdAt);
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/smart_trades/:id/trades/:trade_id/close_by_market',
      summary: 'Execute one part at market now',
      tags,
      input: SubTradeId,
      successStatus: 201,
      handler: async ({ input, caller }) => presentSmartTrade(await smartTrades.closeSubTrade(caller.userId, input.id, input.trade_id)),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/v2/smart_trades/:id/trades/:trade_id',
      summary: 'Cancel one part (a take-profit step keeps its coins on the account)',
      tags,
      input: SubTradeId,
      handler: async ({ input, caller }) => presentSmartTrade(await smartTrades.cancelSubTrade(caller.userId, input.id, input.trade_id)),
    }),
  ];
};
