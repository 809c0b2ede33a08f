/** DCA deals (api-reference §14). */
import Type from 'typebox';
import { type BotParams, dealSettingsFrom, paramsOf } from '../../../domain/dca-bot/bot-params.ts';
import type { DealAction } from '../../../domain/dca-bot/deal-actions.ts';
import type { DealSettings } from '../../../domain/dca-bot/dca-settings.ts';
import { type ConversionDeps, convertDealToSmartTrade } from '../../../services/deal-conversion.ts';
import type { DealView } from '../../../services/deals.service.ts';
import { PAPER_MARKET_CODE } from '../../../services/markets.service.ts';
import { dec, ZERO } from '../../../shared/decimal.ts';
import { errors, FieldErrorCollector } from '../../../shared/errors.ts';
import { presentAddFundsData, presentDeal, presentMarketOrder } from '../../presenters/deal.presenter.ts';
import { presentSmartTrade } from '../../presenters/smart-trade.presenter.ts';
import { defineRoute } from '../../route.ts';
import { Id, Offset, oneOf } from '../../schemas/common.ts';
import { Instant, optionalInstant } from '../../schemas/instant.ts';
import { DEAL_SETTING_FIELDS, DecimalText, jsonLists } from '../../schemas/dca-bot.ts';

export type DealRouteDeps = ConversionDeps;

const DealId = Type.Object({ deal_id: Id });

/** The deal's settings with the fields sent applied, checked as a bot's would be. */
function editedSettings(view: DealView, input: Record<string, unknown>): Partial<DealSettings> {
  const sent = Object.fromEntries(Object.entries(jsonLists(input, ['take_profit_steps', 'custom_safety_steps'])).filter(([, v]) => v !== undefined));
  const current = paramsOf({
    name: '', pairs: [view.deal.pair], maxActiveDeals: 1, allowedDealsOnSamePair: null, cooldown: 0, disableAfterDealsCount: null,
    minPrice: null, maxPrice: null, strategyList: [], deal: view.deal.settings, extra: {},
  });
  const invalid = new FieldErrorCollector();
  const settings = dealSettingsFrom({ ...current, ...sent } as BotParams, invalid);
  invalid.throwIfAny();
  const { feeRate: _fee, strategy: _strategy, startOrderType: _start, ...editable } = settings!;
  return editable;
}

export const dealRoutes = (deps: DealRouteDeps) => {
  const accountName = async (userId: number, accountId: number) => (await deps.accounts.get(userId, accountId).catch(() => undefined))?.name ?? '';
  const show = async (view: DealView, userId: number, events = false) =>
    presentDeal(view, await accountName(userId, view.accountId), events ? await deps.deals.events(view.deal.id) : undefined);
  const action = (url: string, summary: string, input: ReturnType<typeof Type.Object>, toAction: (input: never, view: DealView) => DealAction | Promise<DealAction>, method: 'POST' | 'PATCH' = 'POST') =>
    defineRoute({
      method,
      url,
      summary,
      tags: ['deals'],
      input,
      successStatus: method === 'POST' ? 201 : 200,
      handler: async ({ input: raw, caller }) => {
        const params = raw as { deal_id: number };
        const view = await deps.deals.get(caller.userId, params.deal_id);
        const after = await deps.deals.act(caller.userId, params.deal_id, await toAction(raw as never, view));
        return show(after, caller.userId);
      },
    });
  return [
    defineRoute({
      method: 'GET',
      url: '/ver1/deals',
      summary: "The user's deals",
      tags: ['deals'],
      input: Type.Object({
        bot_id: Type.Optional(Id),
        account_id: Type.Optional(Id),
        limit: Type.Integer({ minimum: 1, maximum: 1000, default: 50 }),
        offset: Offset,
        from: Type.Optional(Instant),
        to: Type.Optional(Instant),
        scope: Type.Optional(Type.String({ maxLength: 20 })),
        order: oneOf(['created_at', 'updated_at', 'closed_at', 'profit', 'profit_percentage'], { default: 'created_at' }),
        order_direction: oneOf(['asc', 'desc', 'ASC', 'DESC'], { default: 'desc' }),
        base: Type.Optional(Type.String({ maxLength: 20 })),
        quote: Type.Optional(Type.String({ maxLength: 20 })),
        note: Type.Optional(Type.String({ maxLength: 300 })),
      }),
      handler: async ({ input, caller }) => {
        const views = await deps.deals.list(await caller.mode(), {
          userId: caller.userId,
          order: input.order,
          direction: input.order_direction.toLowerCase() as 'asc' | 'desc',
          limit: input.limit,
          offset: input.offset,
          ...(input.bot_id === undefined ? {} : { botId: input.bot_id }),
          ...(input.account_id === undefined ? {} : { accountId: input.account_id }),
          ...optionalInstant('from', input.from),
          ...optionalInstant('to', input.to),
          ...(input.scope === undefined ? {} : { scope: input.scope }),
          ...(input.base === undefined ? {} : { base: input.base.toUpperCase() }),
          ...(input.quote === undefined ? {} : { quote: input.quote.toUpperCase() }),
          ...(input.note === undefined ? {} : { note: input.note }),
        });
        const names = new Map<number, string>();
        for (const view of views) if (!names.has(view.accountId)) names.set(view.accountId, await accountName(caller.userId, view.accountId));
        return views.map((view) => presentDeal(view, names.get(view.accountId) ?? ''));
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/ver1/deals/:deal_id/show',
      summary: 'One deal with its log',
      tags: ['deals'],
      input: DealId,
      handler: async ({ input, caller }) => show(await deps.deals.get(caller.userId, input.deal_id), caller.userId, true),
    }),
    defineRoute({
      method: 'GET',
      url: '/ver1/deals/:deal_id/market_orders',
      summary: "The deal's orders",
      tags: ['deals'],
      input: DealId,
      handler: async ({ input, caller }) => {
        const view = await deps.deals.get(caller.userId, input.deal_id);
        return [...view.orders].reverse().map((order) => presentMarketOrder(order, view.deal));
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/ver1/deals/:deal_id/data_for_adding_funds',
      summary: 'Prices, limits and funds for add_funds',
      tags: ['deals'],
      input: DealId,
      handler: async ({ input, caller }) => {
        const view = await deps.deals.get(caller.userId, input.deal_id);
        const account = await deps.accounts.get(caller.userId, view.accountId);
        const market = await deps.markets.market(account.marketCode, view.deal.pair);
        const reading = await deps.accounts.readBalances(account);
        const currency = view.deal.settings.strategy === 'long' ? view.deal.quote : view.deal.base;
        const available = reading.ok ? (reading.balances.find((b) => b.currency === currency)?.free ?? ZERO) : ZERO;
        return presentAddFundsData(view, market.rules, available, account.marketCode === PAPER_MARKET_CODE);
      },
    }),
    action(
      '/ver1/deals/:deal_id/update_deal',
      "Edit a deal's take profit, stop loss and safety orders",
      Type.Object({ deal_id: Id, ...DEAL_SETTING_FIELDS, close_timeout: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 2592000 }), Type.Null()])), note: Type.Optional(Type.String({ maxLength: 300 })) }),
      (input: Record<string, unknown> & { deal_id: number; note?: string; close_timeout?: number | null }, view) => {
        const { deal_id: _id, note, close_timeout: closeTimeout, ...fields } = input;
        const changes = editedSettings(view, fields);
        if (closeTimeout !== undefined) {
          if (closeTimeout !== null && closeTimeout > 0 && closeTimeout < 60) throw errors.recordInvalid({ close_timeout: ['must be greater than or equal to 60'] });
          changes.closeDealsTimeout = closeTimeout === null || closeTimeout === 0 ? null : closeTimeout;
        }
        return { type: 'update_deal', changes, ...(note === undefined ? {} : { note }) };
      },
      'PATCH',
    ),
    action(
      '/ver1/deals/:deal_id/update_tp',
      'Change the take profit percent (deprecated by the reference; update_deal does more)',
      Type.Object({ deal_id: Id, new_take_profit_percentage: DecimalText }),
      (input: { new_take_profit_percentage: string }, view) => ({
        type: 'update_deal',
        changes: editedSettings(view, { take_profit: input.new_take_profit_percentage, take_profit_steps: [] }),
      }),
    ),
    action('/ver1/deals/:deal_id/panic_sell', 'Close the deal at market', DealId, () => ({ type: 'panic_sell' })),
    defineRoute({
      method: 'POST',
      url: '/ver1/deals/:deal_id/convert_to_smart_trade',
      summary: "Go on with the deal's position as a SmartTrade with its take profit and stop loss; the deal ends",
      tags: ['deals'],
      input: Type.Object({ deal_id: Id, stop_bot: Type.Optional(Type.Boolean()) }),
      successStatus: 201,
      handler: async ({ input, caller }) => presentSmartTrade(await convertDealToSmartTrade(deps, caller.userId, input.deal_id, input.stop_bot === true)),
    }),
    action('/ver1/deals/:deal_id/cancel', 'Cancel the deal; bought coins stay', DealId, () => ({ type: 'cancel' })),
    action(
      '/ver1/deals/:deal_id/panic_sell_step',
      'Close one take-profit step at market',
      Type.Object({ deal_id: Id, trade_id: Id }),
      async (input: { trade_id: number }, view) => {
        const order = await deps.deals.order(view, input.trade_id);
        const step = order && (order.role === 'take_profit' ? view.deal.orders.find((o) => o.key === order.key)?.index : undefined);
        if (step === undefined) throw errors.recordInvalid({ trade_id: ['is not a working take profit step of this deal'] });
        return { type: 'panic_sell_step', stepIndex: step };
      },
    ),
    action(
      '/ver1/deals/:deal_id/update_max_safety_orders',
      'Change how many safety orders the deal may place',
      Type.Object({ deal_id: Id, max_safety_orders: Type.Integer({ minimum: 0, maximum: 200 }) }),
      (input: { max_safety_orders: number }) => ({ type: 'update_max_safety_orders', maxSafetyOrders: input.max_safety_orders }),
    ),
    defineRoute({
      method: 'POST',
      url: '/ver1/deals/:deal_id/add_funds',
      summary: 'Add to the position with a manual safety order',
      tags: ['deals'],
      input: Type.Object({
        deal_id: Id,
        quantity: DecimalText,
        is_market: Type.Boolean(),
        rate: Type.Optional(DecimalText),
        response_type: oneOf(['empty', 'deal', 'market_order'], { default: 'empty' }),
      }),
      successStatus: 201,
      handler: async ({ input, caller }) => {
        if (!input.is_market && input.rate === undefined) throw errors.recordInvalid({ rate: ['is missing'] });
        if (dec(input.quantity).lte(0)) throw errors.recordInvalid({ quantity: ['must be greater than 0'] });
        const before = await deps.deals.get(caller.userId, input.deal_id);
        const after = await deps.deals.act(caller.userId, input.deal_id, {
          type: 'add_funds',
          amount: input.quantity,
          price: input.is_market ? null : input.rate!,
        });
        if (input.response_type === 'deal') return show(after, caller.userId);
        if (input.response_type === 'market_order') {
          const known = new Set(before.orders.map((order) => order.id));
          const placed = (await deps.deals.ordersOf(after)).find((order) => !known.has(order.id) && order.role === 'manual_safety');
          return placed ? presentMarketOrder(placed, after.deal) : null;
        }
        return null;
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/ver1/deals/:deal_id/cancel_order',
      summary: 'Cancel a manual safety order',
      tags: ['deals'],
      input: Type.Object({ deal_id: Id, order_id: Id }),
      successStatus: 201,
      handler: async ({ input, caller }) => {
        const view = await deps.deals.get(caller.userId, input.deal_id);
        const order = await deps.deals.order(view, input.order_id);
        if (!order) throw errors.cantBeCancelled();
        const after = await deps.deals.act(caller.userId, input.deal_id, { type: 'cancel_order', key: order.key });
        return [...(await deps.deals.ordersOf(after))].reverse().map((o) => presentMarketOrder(o, after.deal));
      },
    }),
  ];
};
