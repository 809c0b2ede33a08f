/**
 * Conditions read on candles the bot builds from the ticks it hears: its start conditions (a new
 * deal on the pair when all hold) and each running deal's close strategy (the deal closes at
 * market when all of its conditions hold and its profit reaches its minimum). Conditions are
 * checked when a candle closes, on the candles of their own timeframe.
 */
import type { StepContext, TickInput } from '../automation.ts';
import { dec } from '../../shared/decimal.ts';
import type { DcaBotState } from './dca-bot-state.ts';
import { type StartCondition, TIMEFRAMES } from './dca-settings.ts';
import type { Deal } from './deal.ts';
import { closeAtMarket } from './deal-finish.ts';
import { profitPercentage, unrealisedProfit } from './deal-profit.ts';
import { startDeal, startRefusal } from './deal-starts.ts';
import { addTick, candlesOf, emptySeries } from './indicator-series.ts';
import { conditionHolds, type IndicatorCondition } from './indicators.ts';
import { storedIndicatorCondition } from './start-conditions.ts';
import type { StepOutput } from './step-output.ts';

const indicatorsOf = (list: readonly StartCondition[]) => list.flatMap((condition) => storedIndicatorCondition(condition) ?? []);
const namesOf = (list: readonly StartCondition[]) => list.filter((c) => storedIndicatorCondition(c)).map((c) => c.strategy.toUpperCase()).join(', ');
const closing = (deal: Deal) => deal.status === 'bought' || deal.status === 'ttp_activated';

export const hasStartIndicators = (state: DcaBotState) => indicatorsOf(state.config.strategyList).length > 0;
export const hasCloseStrategy = (deal: Deal) => (deal.settings.closeStrategyList ?? []).length > 0;

export function onCandleTick(state: DcaBotState, tick: TickInput, context: StepContext, out: StepOutput): void {
  const starts = state.config.pairs.includes(tick.pair) ? indicatorsOf(state.config.strategyList) : [];
  const deals = state.deals.filter((deal) => deal.pair === tick.pair && hasCloseStrategy(deal));
  const closes = deals.map((deal) => ({ deal, conditions: indicatorsOf(deal.settings.closeStrategyList ?? []) }));
  const times = new Set([...starts, ...closes.flatMap((c) => c.conditions)].map((condition) => condition.time));
  const closed = new Set<string>();
  for (const time of times) {
    const series = (state.series[`${tick.pair}|${time}`] ??= emptySeries());
    if (addTick(series, tick.price, out.nowMs, TIMEFRAMES[time]!)) closed.add(time);
  }
  if (closed.size === 0) return;
  const holds = (conditions: IndicatorCondition[]) =>
    conditions.some((c) => closed.has(c.time)) && conditions.every((c) => conditionHolds(c, candlesOf(state.series[`${tick.pair}|${c.time}`]!)));
  for (const { deal, conditions } of closes) {
    if (!closing(deal) || !holds(conditions) || !reachesMinimumProfit(deal, tick)) continue;
    out.dealLog(deal, `${namesOf(deal.settings.closeStrategyList!)} close condition met`);
    closeAtMarket(deal, 'close_strategy', context, out);
  }
  if (!state.enabled || starts.length === 0 || !holds(starts)) return;
  if (startRefusal(state, tick.pair, context, out.nowMs, { signals: true, openDeals: true }) !== undefined) return;
  out.log(`${tick.pair}: ${namesOf(state.config.strategyList)} start condition met`);
  startDeal(state, tick.pair, context, out);
}

/** The deal's profit at this tick, in percent of its base order or of all it bought, against its minimum. */
function reachesMinimumProfit(deal: Deal, tick: TickInput): boolean {
  const profit = unrealisedProfit(deal, tick.bid, tick.ask);
  const ofBaseOrder = deal.settings.minProfitType === 'base_order_volume';
  const baseOrder = dec(deal.baseOrderVolume);
  const percent = ofBaseOrder && baseOrder.gt(0) ? profit.div(baseOrder).times(100) : profitPercentage(deal, profit);
  return percent.gte(dec(deal.settings.minProfitPercentage));
}
