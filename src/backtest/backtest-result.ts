/**
 * What a backtest answers: the figures, the equity and drawdown series, every order and fill,
 * and what the automation left (grid lines, deals). Amounts are exact decimal strings; ratios
 * are decimal strings rounded to 4 places, null where they cannot be computed (docs/backtesting.md).
 */
import type { Deal } from '../domain/dca-bot/deal.ts';
import type { GridBotState } from '../domain/grid-bot/grid-bot-state.ts';
import { parsePair } from '../domain/market/pair.ts';
import type { SmartTradeState } from '../domain/smart-trade/smart-trade.types.ts';
import { gridBotKind } from '../engine/kinds/grid-bot.kind.ts';
import { smartTradeKind } from '../engine/kinds/smart-trade.kind.ts';
import type { Balance } from '../exchanges/exchange.ts';
import { type Decimal, dec, ZERO } from '../shared/decimal.ts';
import { BACKTEST_USER_ID, type BacktestVenue } from './backtest-venue.ts';
import { annualisedReturn, calmar, DAY_MS, drawdownCurve, maxDrawdown, outcomes, periodReturns, sharpe, sortino, YEAR_MS } from './figures.ts';
import type { BacktestSpec } from './runner.ts';
import { formatTimeframe } from './timeframes.ts';

/** Series longer than this are thinned out evenly for the result (the figures use every point). */
export const MAX_SERIES_POINTS = 2000;
const SECOND = 1000;
const TRADE_ENDED = new Set(['cancelled', 'finished', 'stop_loss_finished', 'panic_sold', 'failed']);

export interface BacktestResult {
  kind: string;
  pair: string;
  timeframe: string;
  from: string;
  to: string;
  source: string;
  candles: number;
  missing_candles: number;
  fee: string;
  slippage_bps: number;
  start_balances: BalanceText[];
  end_balances: BalanceText[];
  figures: Figures;
  /** [epoch ms, value]: the account's value in quote at candle closes, and its drawdown in %. */
  series: { equity: Array<[number, string]>; drawdown: Array<[number, string]> };
  orders: OrderRow[];
  fills: FillRow[];
  /** Grid line prices as the bot left them (grid bots only). */
  grid_lines: string[];
  deals: DealRow[];
}

interface BalanceText {
  currency: string;
  amount: string;
}

export interface Figures {
  start_value: string;
  end_value: string;
  net_profit: string;
  net_profit_percentage: string;
  /** Booked by the automation: the sum of its grid profit rows, its closed deals' profits or its trade's result. */
  realised_profit: string;
  annualised_return_percentage: string | null;
  max_drawdown: string;
  max_drawdown_percentage: string;
  max_drawdown_duration_seconds: number;
  sharpe: string | null;
  sortino: string | null;
  calmar: string | null;
  win_rate_percentage: string | null;
  profit_factor: string | null;
  fees_paid: string;
  grid_cycles: number;
  deals: number;
  trades: number;
  average_deal_duration_seconds: number | null;
  longest_deal_duration_seconds: number | null;
  max_safety_orders_used: number | null;
  exposure_percentage: string;
  buy_and_hold_return_percentage: string;
}

export interface OrderRow {
  id: number;
  created_at: string;
  updated_at: string;
  role: string;
  side: 'buy' | 'sell';
  type: 'market' | 'limit';
  price: string | null;
  amount: string;
  filled: string;
  average_price: string | null;
  status: string;
}

export interface FillRow {
  at: string;
  /** The role of the automation's order it filled (grid line, base, safety, take profit, ...). */
  role: string;
  side: 'buy' | 'sell';
  price: string;
  amount: string;
  fee: string;
  fee_currency: string;
  maker: boolean;
}

interface DealRow {
  id: number;
  status: string;
  created_at: string;
  closed_at: string | null;
  profit: string | null;
  safety_orders_used: number;
}

export interface Collected {
  spec: BacktestSpec;
  venue: BacktestVenue;
  automationId: number;
  times: number[];
  values: number[];
  exposed: boolean[];
  finalBalances: Balance[];
}

const ratio = (x: number | undefined, places = 4) => (x === undefined || !Number.isFinite(x) ? null : x.toFixed(places));
const percent = (x: number | undefined) => ratio(x === undefined ? undefined : x * 100, 2);
const iso = (at: Date | number) => new Date(at).toISOString();

export async function collectResult(run: Collected): Promise<BacktestResult> {
  const { spec, venue, automationId, times, values } = run;
  const { series } = spec;
  const { base, quote } = parsePair(series.pair)!;
  const first = series.candles[0]!;
  const last = series.candles[series.candles.length - 1]!;
  const startValue = value(spec.balances, base, quote, first.open);
  const endValue = value(run.finalBalances, base, quote, last.close);
  const startMs = first.time.getTime();
  const allTimes = [startMs, ...times];
  const allValues = [startValue.toNumber(), ...values];
  const drawdown = maxDrawdown(allTimes, allValues);
  const periodMs = Math.max(DAY_MS, series.timeframeMs);
  const returns = periodReturns(allTimes, allValues, periodMs);
  const annualised = annualisedReturn(startValue.toNumber(), endValue.toNumber(), times[times.length - 1]! - startMs);
  const fills = venue.paperStore.fills(venue.account.id);
  const orders = await venue.engine.orders(automationId);
  const roles = new Map(orders.map((order) => [order.clientOrderId, order.role]));
  const activity = await automationActivity(venue, spec.kind, automationId, endValue.minus(startValue));
  const { durations } = activity;
  const net = endValue.minus(startValue);
  const figures: Figures = {
    start_value: startValue.toFixed(),
    end_value: endValue.toFixed(),
    net_profit: net.toFixed(),
    net_profit_percentage: startValue.isZero() ? '0' : net.div(startValue).times(100).toDecimalPlaces(2).toFixed(2),
    realised_profit: activity.realised.toFixed(),
    annualised_return_percentage: percent(annualised),
    max_drawdown: dec(drawdown.value).toDecimalPlaces(8).toFixed(),
    max_drawdown_percentage: percent(drawdown.fraction)!,
    max_drawdown_duration_seconds: Math.round(drawdown.durationMs / SECOND),
    sharpe: ratio(sharpe(returns, YEAR_MS / periodMs)),
    sortino: ratio(sortino(returns, YEAR_MS / periodMs)),
    calmar: ratio(calmar(annualised, drawdown.fraction)),
    win_rate_percentage: percent(activity.outcomes.winRate),
    profit_factor: ratio(activity.outcomes.profitFactor),
    fees_paid: fills.reduce((sum, fill) => sum.plus(fill.feeCurrency === quote ? fill.fee : fill.fee.times(fill.price)), ZERO).toFixed(),
    grid_cycles: spec.kind === 'grid' ? activity.outcomes.count : 0,
    deals: spec.kind === 'dca' ? activity.deals.length : 0,
    trades: spec.kind === 'smart_trade' ? activity.outcomes.count : 0,
    average_deal_duration_seconds: durations.length === 0 ? null : Math.round(durations.reduce((a, b) => a + b, 0) / durations.length / SECOND),
    longest_deal_duration_seconds: durations.length === 0 ? null : Math.round(Math.max(...durations) / SECOND),
    max_safety_orders_used: spec.kind === 'dca' ? Math.max(0, ...activity.deals.map((deal) => deal.safetyCompleted)) : null,
    exposure_percentage: percent(run.exposed.filter(Boolean).length / Math.max(1, run.exposed.length))!,
    buy_and_hold_return_percentage: last.close.div(first.open).minus(1).times(100).toDecimalPlaces(2).toFixed(2),
  };
  return {
    kind: spec.kind,
    pair: series.pair,
    timeframe: formatTimeframe(series.timeframeMs),
    from: iso(first.time),
    to: iso(last.time.getTime() + series.timeframeMs),
    source: series.source,
    candles: series.candles.length,
    missing_candles: series.missing,
    fee: spec.fee.toFixed(),
    slippage_bps: spec.slippageBasisPoints,
    start_balances: balanceTexts(spec.balances),
    end_balances: balanceTexts(run.finalBalances),
    figures,
    series: seriesOf(allTimes, allValues),
    orders: orders.map((order) => ({
      id: order.id,
      created_at: iso(order.createdAt),
      updated_at: iso(order.updatedAt),
      role: order.role,
      side: order.side,
      type: order.orderType,
      price: order.price,
      amount: order.amount,
      filled: order.filled,
      average_price: dec(order.filled).isZero() ? null : dec(order.filledTotal).div(order.filled).toDecimalPlaces(8).toFixed(),
      status: order.status,
    })),
    fills: fills.map((fill) => ({
      at: iso(fill.at),
      role: roles.get(fill.clientOrderId) ?? 'unknown',
      side: fill.side,
      price: fill.price.toFixed(),
      amount: fill.amount.toFixed(),
      fee: fill.fee.toFixed(),
      fee_currency: fill.feeCurrency,
      maker: fill.maker,
    })),
    grid_lines: activity.gridLines,
    deals: activity.deals.map((deal) => ({
      id: deal.id,
      status: deal.status,
      created_at: iso(deal.createdAt),
      closed_at: deal.closedAt === null ? null : iso(deal.closedAt),
      profit: deal.finalProfit,
      safety_orders_used: deal.safetyCompleted,
    })),
  };
}

/** What the automation did, per kind: its closed cycles, deals or trade, and its grid. */
async function automationActivity(venue: BacktestVenue, kind: BacktestSpec['kind'], id: number, net: Decimal) {
  const none = { outcomes: outcomes([]), deals: [] as Deal[], gridLines: [] as string[], realised: ZERO, durations: [] as number[] };
  const sum = (amounts: string[]) => amounts.reduce((total, amount) => total.plus(amount), ZERO);
  if (kind === 'grid') {
    const profits = await venue.gridProfits.profits(id, {});
    const bot = await venue.engine.get<GridBotState>(gridBotKind, id);
    const gridLines = (bot?.state.lines ?? []).map((line) => line.price.toFixed());
    return { ...none, outcomes: outcomes(profits.map((row) => Number(row.profit))), gridLines, realised: sum(profits.map((row) => row.profit)) };
  }
  if (kind === 'dca') {
    const stored = await venue.deals.listDeals({ userId: BACKTEST_USER_ID, botId: id, order: 'created_at', direction: 'asc', limit: Number.MAX_SAFE_INTEGER, offset: 0 });
    const deals = stored.map((row) => row.deal);
    const closed = deals.filter((deal) => deal.closedAt !== null && deal.finalProfit !== null);
    return {
      ...none,
      deals,
      outcomes: outcomes(closed.map((deal) => Number(deal.finalProfit))),
      realised: sum(closed.map((deal) => deal.finalProfit!)),
      durations: closed.map((deal) => deal.closedAt! - deal.createdAt),
    };
  }
  const trade = await venue.engine.get<SmartTradeState>(smartTradeKind, id);
  // A SmartTrade is one trade; once it ended, the account's change is its result.
  if (!trade || !TRADE_ENDED.has(trade.state.status)) return none;
  const durations = trade.state.closedAt ? [trade.state.closedAt.getTime() - trade.createdAt.getTime()] : [];
  return { ...none, outcomes: outcomes([net.toNumber()]), realised: net, durations };
}

function value(balances: readonly Balance[], base: string, quote: string, price: Decimal): Decimal {
  const amount = (currency: string) => {
    const balance = balances.find((b) => b.currency === currency);
    return balance ? balance.free.plus(balance.locked) : ZERO;
  };
  return amount(quote).plus(amount(base).times(price));
}

function balanceTexts(balances: readonly Balance[]): BalanceText[] {
  return balances.map((b) => ({ currency: b.currency, amount: b.free.plus(b.locked).toFixed() }));
}

function seriesOf(times: number[], values: number[]) {
  const drawdowns = drawdownCurve(values);
  const stride = Math.max(1, Math.ceil(times.length / MAX_SERIES_POINTS));
  const equity: Array<[number, string]> = [];
  const drawdown: Array<[number, string]> = [];
  for (let i = 0; i < times.length; i += stride) {
    const at = i + stride >= times.length ? times.length - 1 : i;
    equity.push([times[at]!, values[at]!.toFixed(2)]);
    drawdown.push([times[at]!, (drawdowns[at]! * 100).toFixed(2)]);
  }
  return { equity, drawdown };
}
