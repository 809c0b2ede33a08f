/**
 * Trades ver1 ("simple trading"): one order on a user's account, held back by an optional price
 * condition, trailing and timeout, run by the engine. Trades are addressed by a UUID kept in their
 * state; lists split active trades from the history of ended ones.
 */
import { randomUUID } from 'node:crypto';
import { TransitionError } from '../domain/automation.ts';
import { parsePair } from '../domain/market/pair.ts';
import { newTrade } from '../domain/trade/trade.ts';
import { TRADE_ENDED, tradeAllows } from '../domain/trade/trade.transitions.ts';
import type { Comparison, TimeInForce, TradeConfig, TradeState } from '../domain/trade/trade.types.ts';
import type { Engine } from '../engine/engine.ts';
import type { Automation } from '../engine/automation-kind.ts';
import { tradeKind } from '../engine/kinds/trade.kind.ts';
import { type Decimal, dec, isMultipleOf } from '../shared/decimal.ts';
import { errors, FieldErrorCollector } from '../shared/errors.ts';
import type { TradingRules } from '../domain/market/trading-rules.ts';
import type { AccountsService } from './accounts.service.ts';
import type { MarketsService } from './markets.service.ts';
import { MarketViews, type MarketView } from './trade-markets.ts';
import type { UserMode } from './repositories.ts';

export interface CreateTradeInput {
  account_id: number;
  pair: string;
  order: { type: 'market' | 'limit'; side: 'buy' | 'sell'; strategy?: TimeInForce | null; position_side?: 'both' | 'long' | 'short'; reduce_only?: boolean };
  units: { value: string };
  price?: { value?: string };
  conditional?: { enabled?: boolean; value?: Comparison; price?: { value?: string; type?: 'bid' | 'ask' | 'last' } };
  trailing?: { enabled?: boolean; value?: string; percent?: string };
  timeout?: { enabled?: boolean; value?: number };
  leverage?: { type?: string };
}

export interface TradeListQuery {
  account_id?: number;
  pair?: string;
  order_by: 'pair' | 'created_at' | 'closed_at';
  order_direction: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export interface TradeView extends MarketView {
  id: number;
  accountId: number;
  createdAt: Date;
  state: TradeState;
}

export class TradesService {
  private readonly views: MarketViews;

  constructor(
    private readonly engine: Engine,
    private readonly accounts: AccountsService,
    markets: MarketsService,
  ) {
    this.views = new MarketViews(accounts, markets);
  }

  async create(userId: number, input: CreateTradeInput): Promise<TradeView> {
    const { account, market, quote } = await this.views.tradeMarket(userId, input.account_id, input.pair);
    const config = readTrade(input, market.pair, market.base, market.quote, market.rules, quote);
    const state = newTrade(randomUUID(), config, market.rules.priceStep);
    const created = await this.engine.create(tradeKind, { userId, accountId: account.id, state }, { type: 'start' });
    return this.view(created);
  }

  async list(userId: number, mode: UserMode, ended: boolean, query: TradeListQuery): Promise<TradeView[]> {
    const pair = query.pair === undefined ? undefined : parsePair(query.pair)?.code;
    const accounts = await this.accounts.idsOf(userId, mode);
    const found = (await this.engine.list(tradeKind, { userId })).filter(
      ({ accountId, state }) =>
        accounts.has(accountId) &&
        TRADE_ENDED.has(state.status) === ended &&
        (query.account_id === undefined || accountId === query.account_id) &&
        (query.pair === undefined || state.config.pair === pair),
    );
    const key = (automation: Automation<TradeState>): number | string =>
      query.order_by === 'pair'
        ? automation.state.config.pair
        : query.order_by === 'closed_at'
          ? (automation.state.closedAt?.getTime() ?? Number.MAX_SAFE_INTEGER)
          : automation.createdAt.getTime();
    const direction = query.order_direction === 'desc' ? -1 : 1;
    found.sort((a, b) => direction * (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id - b.id));
    return this.views.many(found.slice(query.offset, query.offset + query.limit), (automation, market) => viewOf(automation, market));
  }

  async show(userId: number, uuid: string): Promise<TradeView> {
    return this.view(await this.find(userId, uuid));
  }

  /** Cancels an open trade; answers once the exchange confirmed the order's cancellation. */
  async cancel(userId: number, uuid: string): Promise<TradeView> {
    const automation = await this.find(userId, uuid);
    if (!tradeAllows(automation.state.status, 'cancel')) throw errors.tradeCannotBeCancelled();
    try {
      await this.engine.act(tradeKind, automation.id, { type: 'cancel' });
    } catch (error) {
      if (error instanceof TransitionError) throw errors.tradeCannotBeCancelled();
      throw error;
    }
    return this.view((await this.engine.get(tradeKind, automation.id)) ?? automation);
  }

  private async find(userId: number, uuid: string): Promise<Automation<TradeState>> {
    const found = (await this.engine.list(tradeKind, { userId })).find((automation) => automation.state.uuid === uuid);
    if (!found) throw errors.notFound();
    return found;
  }

  private async view(automation: Automation<TradeState>): Promise<TradeView> {
    const [view] = await this.views.many([automation], viewOf);
    return view!;
  }
}

const viewOf = (automation: Automation<TradeState>, market: MarketView): TradeView => ({
  id: automation.id,
  accountId: automation.accountId,
  createdAt: automation.createdAt,
  state: automation.state,
  ...market,
});

function readTrade(
  input: CreateTradeInput,
  pair: string,
  base: string,
  quoteCurrency: string,
  rules: TradingRules,
  quote: { bid: Decimal; ask: Decimal } | undefined,
): TradeConfig {
  const invalid = new FieldErrorCollector();
  const units = dec(input.units.value);
  if (units.lte(0) || !isMultipleOf(units, rules.lotStep)) invalid.add('units[value]', `must be a positive multiple of ${rules.lotStep.toFixed()}`);
  else if (units.lt(rules.minLotSize) || units.gt(rules.maxLotSize)) {
    invalid.add('units[value]', `must be between ${rules.minLotSize.toFixed()} and ${rules.maxLotSize.toFixed()}`);
  }
  const limit = input.order.type === 'limit';
  const price = input.price?.value === undefined ? undefined : dec(input.price.value);
  if (limit && price === undefined) invalid.add('price[value]', 'is missing');
  if (price !== undefined && (price.lte(0) || !isMultipleOf(price, rules.priceStep))) {
    invalid.add('price[value]', `must be a positive multiple of ${rules.priceStep.toFixed()}`);
  }
  const conditional = input.conditional?.enabled ? input.conditional : undefined;
  if (conditional && conditional.value === undefined) invalid.add('conditional[value]', 'is missing');
  if (conditional && conditional.price?.value === undefined) invalid.add('conditional[price][value]', 'is missing');
  const trailing = input.trailing?.enabled ? input.trailing : undefined;
  if (trailing && trailing.value === undefined && trailing.percent === undefined) invalid.add('trailing[value]', 'is missing');
  if (trailing && trailing.value !== undefined && trailing.percent !== undefined) invalid.add('trailing[value],trailing[percent]', 'are mutually exclusive');
  if (trailing?.percent !== undefined && (dec(trailing.percent).lt('0.01') || dec(trailing.percent).gt(100))) {
    invalid.add('trailing[percent]', 'must be between 0.01 and 100');
  }
  if (trailing?.value !== undefined && dec(trailing.value).lte(0)) invalid.add('trailing[value]', 'must be greater than 0');
  const timeout = input.timeout?.enabled ? input.timeout : undefined;
  if (timeout && !conditional) invalid.add('timeout[enabled]', 'is only available with a condition');
  if (timeout && (timeout.value === undefined || timeout.value < 1)) invalid.add('timeout[value]', 'must be greater than 0');
  if (input.leverage?.type) invalid.add('leverage[type]', 'is not available on spot markets');
  const estimate = limit ? price : input.order.side === 'buy' ? quote?.ask : quote?.bid;
  const minTotal = limit ? rules.minTotal : rules.minMarketTotal;
  if (estimate !== undefined && units.gt(0) && units.times(estimate).lt(minTotal)) invalid.add('total', `must be greater than or equal to ${minTotal.toFixed()}`);
  invalid.throwIfAny();
  return {
    pair,
    base,
    quote: quoteCurrency,
    side: input.order.side,
    orderType: input.order.type,
    strategy: input.order.strategy ?? 'gtc',
    positionSide: input.order.position_side ?? 'both',
    reduceOnly: input.order.reduce_only === true,
    units,
    ...(limit && price ? { price } : {}),
    ...(conditional
      ? { conditional: { comparison: conditional.value!, priceType: conditional.price?.type ?? 'last', price: dec(conditional.price!.value!) } }
      : {}),
    ...(trailing
      ? { trailing: trailing.value !== undefined ? { value: dec(trailing.value) } : { percent: dec(trailing.percent!) } }
      : {}),
    ...(timeout ? { timeoutSeconds: timeout.value! } : {}),
  };
}
