/** DCA bots (api-reference §13) and their profit statistics. */
import Type from 'typebox';
import type { BotStatsService } from '../../../services/bot-stats.service.ts';
import type { Bot, DcaBotsService } from '../../../services/dca-bots.service.ts';
import type { DealsService } from '../../../services/deals.service.ts';
import type { SignalsService } from '../../../signals/signals.service.ts';
import { presentBot, STRATEGY_LIST } from '../../presenters/bot.presenter.ts';
import { presentDeal } from '../../presenters/deal.presenter.ts';
import { defineRoute } from '../../route.ts';
import { Id, Offset, oneOf } from '../../schemas/common.ts';
import { Instant, instant, optionalInstant } from '../../schemas/instant.ts';
import { BotId, CreateBotInput, DecimalText, jsonLists, toParams, UpdateBotInput } from '../../schemas/dca-bot.ts';

export interface BotRouteDeps {
  bots: DcaBotsService;
  deals: DealsService;
  botStats: BotStatsService;
  signals: Pick<SignalsService, 'emailTokens'>;
}

export const botRoutes = (deps: BotRouteDeps) => {
  const present = async (bot: Bot, userId: number, options: { withDeals?: boolean; events?: boolean } = {}) => {
    const [account, active, views, events, tokens] = await Promise.all([
      deps.bots.accountOf(userId, bot).catch(() => undefined),
      deps.botStats.activeFigures([bot]),
      options.withDeals ? deps.deals.activeViews(bot) : Promise.resolve(undefined),
      options.events ? deps.bots.events(bot.id) : Promise.resolve(undefined),
      deps.signals.emailTokens([bot.id]),
    ]);
    const accountName = account?.name ?? '';
    return presentBot({
      bot,
      accountName,
      emailToken: tokens.get(bot.id)!,
      activeDealsUsdProfit: active.usdProfit,
      ...(views === undefined ? {} : { activeDeals: views.map((view) => presentDeal(view, accountName)) }),
      ...(events === undefined ? {} : { events }),
    });
  };
  const botAction = (url: string, summary: string, run: (userId: number, botId: number) => Promise<Bot>, successStatus = 201) =>
    defineRoute({
      method: 'POST',
      url,
      summary,
      tags: ['dca bots'],
      input: BotId,
      successStatus,
      handler: async ({ input, caller }) => present(await run(caller.userId, input.bot_id), caller.userId, { withDeals: true }),
    });
  const StatsFilter = { account_id: Type.Optional(Id), bot_id: Type.Optional(Id) };
  const filterOf = (input: { account_id?: number; bot_id?: number }) => ({
    ...(input.account_id === undefined ? {} : { accountId: input.account_id }),
    ...(input.bot_id === undefined ? {} : { botId: input.bot_id }),
  });
  return [
    defineRoute({
      method: 'GET',
      url: '/ver1/bots/strategy_list',
      summary: 'Deal start conditions a bot can use',
      tags: ['dca bots'],
      input: Type.Object({ account_id: Type.Optional(Id), type: Type.Optional(Type.String()), strategy: Type.Optional(Type.String()) }),
      handler: () => STRATEGY_LIST,
    }),
    defineRoute({
      method: 'GET',
      url: '/ver1/bots/pairs_black_list',
      summary: "Pairs the user's multi-pair bots open no deals on",
      tags: ['dca bots'],
      handler: async ({ caller }) => ({ pairs: await deps.bots.blacklist(caller.userId) }),
    }),
    defineRoute({
      method: 'POST',
      url: '/ver1/bots/update_pairs_black_list',
      summary: 'Replace the pairs blacklist',
      tags: ['dca bots'],
      input: Type.Object({ pairs: Type.Union([Type.Array(Type.String({ pattern: '^[A-Za-z0-9]{1,20}_[A-Za-z0-9]{1,20}$' }), { maxItems: 1000 }), Type.String({ maxLength: 20000 })]) }),
      successStatus: 201,
      handler: async ({ input, caller }) => {
        const { pairs } = jsonLists(input, ['pairs']) as { pairs: string[] };
        return { pairs: await deps.bots.updateBlacklist(caller.userId, pairs.map((pair) => pair.toUpperCase())) };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/ver1/bots/create_bot',
      summary: 'Create a DCA bot (single pair or multi-pair); it starts disabled',
      tags: ['dca bots'],
      input: CreateBotInput,
      successStatus: 201,
      handler: async ({ input, caller }) => {
        const { account_id: accountId, ...params } = input as { account_id: number } & Record<string, unknown>;
        return present(await deps.bots.create(caller.userId, accountId, toParams(params)), caller.userId);
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/ver1/bots',
      summary: "The user's DCA bots",
      tags: ['dca bots'],
      input: Type.Object({
        account_id: Type.Optional(Id),
        strategy: Type.Optional(oneOf(['long', 'short'])),
        scope: Type.Optional(oneOf(['enabled', 'disabled', 'enable', 'disable'])),
        sort_by: Type.Optional(oneOf(['created_at', 'updated_at', 'profit'])),
        order_direction: Type.Optional(oneOf(['asc', 'desc', 'ASC', 'DESC'])),
        sort_direction: Type.Optional(oneOf(['asc', 'desc', 'ASC', 'DESC'])),
        limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
        offset: Offset,
        from: Type.Optional(Instant),
        quote: Type.Optional(Type.String({ maxLength: 20 })),
        form_type: Type.Optional(Type.String()),
      }),
      handler: async ({ input, caller }) => {
        const direction = (input.order_direction ?? input.sort_direction ?? 'desc').toLowerCase() as 'asc' | 'desc';
        const bots = await deps.bots.list(caller.userId, await caller.mode(), {
          ...(input.account_id === undefined ? {} : { accountId: input.account_id }),
          ...(input.strategy === undefined ? {} : { strategy: input.strategy }),
          ...(input.scope === undefined ? {} : { scope: input.scope }),
          ...optionalInstant('from', input.from),
          ...(input.quote === undefined ? {} : { quote: input.quote.toUpperCase() }),
          sortBy: input.sort_by ?? 'created_at',
          direction,
          limit: input.limit,
          offset: input.offset,
        });
        return Promise.all(bots.map((bot) => present(bot, caller.userId)));
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/ver1/bots/stats',
      summary: 'Profit of closed deals (overall and today) and of active deals',
      tags: ['dca bots'],
      input: Type.Object(StatsFilter),
      handler: async ({ input, caller }) => {
        if (input.bot_id !== undefined) await deps.bots.get(caller.userId, input.bot_id);
        return deps.botStats.stats(caller.userId, await caller.mode(), filterOf(input));
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/ver1/bots/stats_by_date',
      summary: 'Profit of the deals closed on one UTC day',
      tags: ['dca bots'],
      input: Type.Object({ ...StatsFilter, date: Instant }),
      handler: async ({ input, caller }) => deps.botStats.statsByDate(caller.userId, await caller.mode(), instant(input.date), filterOf(input)),
    }),
    defineRoute({
      method: 'GET',
      url: '/ver1/bots/:bot_id/profit_by_day',
      summary: "A bot's profit per UTC day",
      tags: ['dca bots'],
      input: Type.Object({ bot_id: Id, days: Type.Integer({ minimum: 1, maximum: 3650, default: 30 }) }),
      handler: async ({ input, caller }) => deps.botStats.profitByDay(await deps.bots.get(caller.userId, input.bot_id), input.days),
    }),
    defineRoute({
      method: 'GET',
      url: '/ver1/bots/:bot_id/deals_stats',
      summary: "A bot's deal counts and profits",
      tags: ['dca bots'],
      input: BotId,
      handler: async ({ input, caller }) => deps.botStats.dealsStats(await deps.bots.get(caller.userId, input.bot_id)),
    }),
    defineRoute({
      method: 'POST',
      url: '/ver1/bots/:bot_id/copy_and_create',
      summary: 'Copy a bot, given its url_secret',
      tags: ['dca bots'],
      input: Type.Object({ bot_id: Id, name: Type.String({ minLength: 1, maxLength: 200 }), secret: Type.String({ minLength: 1, maxLength: 200 }), amount: Type.Optional(DecimalText) }),
      successStatus: 201,
      handler: async ({ input, caller }) =>
        deps.bots.copy(caller.userId, input.bot_id, { name: input.name, secret: input.secret, ...(input.amount === undefined ? {} : { amount: input.amount }) }),
    }),
    defineRoute({
      method: 'PATCH',
      url: '/ver1/bots/:bot_id/update',
      summary: "Change a bot's settings; running deals keep theirs",
      tags: ['dca bots'],
      input: UpdateBotInput,
      handler: async ({ input, caller }) => {
        const { bot_id: botId, ...params } = input as { bot_id: number } & Record<string, unknown>;
        return present(await deps.bots.update(caller.userId, botId, toParams(params)), caller.userId);
      },
    }),
    botAction('/ver1/bots/:bot_id/disable', 'Stop opening new deals', (userId, botId) => deps.bots.setEnabled(userId, botId, false)),
    botAction('/ver1/bots/:bot_id/enable', 'Start opening deals', (userId, botId) => deps.bots.setEnabled(userId, botId, true)),
    botAction('/ver1/bots/:bot_id/panic_sell_all_deals', 'Close every active deal at market', (userId, botId) =>
      deps.bots.closeAll(userId, botId, 'panic_sell_all'),
    ),
    botAction('/ver1/bots/:bot_id/cancel_all_deals', 'Cancel every active deal (coins stay)', (userId, botId) =>
      deps.bots.closeAll(userId, botId, 'cancel_all'), 200,
    ),
    defineRoute({
      method: 'POST',
      url: '/ver1/bots/:bot_id/start_new_deal',
      summary: 'Open a deal now',
      tags: ['dca bots'],
      input: Type.Object({
        bot_id: Id,
        pair: Type.Optional(Type.String({ minLength: 1, maxLength: 41 })),
        skip_signal_checks: Type.Boolean({ default: false }),
        skip_open_deals_checks: Type.Boolean({ default: false }),
        only_for_enabled: Type.Boolean({ default: true }),
      }),
      successStatus: 201,
      handler: async ({ input, caller }) => {
        const deal = await deps.bots.startNewDeal(caller.userId, input.bot_id, {
          ...(input.pair === undefined ? {} : { pair: input.pair.toUpperCase() }),
          skipSignalChecks: input.skip_signal_checks,
          skipOpenDealsChecks: input.skip_open_deals_checks,
          onlyForEnabled: input.only_for_enabled,
        });
        const view = await deps.deals.get(caller.userId, deal.id);
        const account = await deps.bots.accountOf(caller.userId, await deps.bots.get(caller.userId, input.bot_id));
        return presentDeal(view, account.name);
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/ver1/bots/:bot_id/delete',
      summary: 'Delete a bot without active deals',
      tags: ['dca bots'],
      input: BotId,
      successStatus: 201,
      handler: async ({ input, caller }) => {
        await deps.bots.remove(caller.userId, input.bot_id);
        return true;
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/ver1/bots/:bot_id/show',
      summary: 'One bot with its active deals (and its log with include_events)',
      tags: ['dca bots'],
      input: Type.Object({ bot_id: Id, include_events: Type.Boolean({ default: false }) }),
      handler: async ({ input, caller }) =>
        present(await deps.bots.get(caller.userId, input.bot_id), caller.userId, { withDeals: true, events: input.include_events }),
    }),
  ];
};
