/**
 * Exits a deal watches the price for: the stop loss (a percent from the entry average, following
 * the best price with a trailing stop loss, raised to the average after the first take-profit
 * step with breakeven; with a timeout it waits and closes only if the price is still past the
 * level), and the trailing take profit (activates at the take-profit price, closes at market when
 * the price gives back the trailing deviation from its best).
 */
import type { StepContext, TickInput } from '../automation.ts';
import { dec, type Decimal } from '../../shared/decimal.ts';
import { averagePrice, type Deal, isLong } from './deal.ts';
import { closeAtMarket, closeTimeoutTimer, stopLossTimer } from './deal-finish.ts';
import type { StepOutput } from './step-output.ts';

const watching = (deal: Deal) => deal.status === 'bought' || deal.status === 'ttp_activated';

/** True when `price` is at or past `level` on the deal's losing side. */
const against = (deal: Deal, price: Decimal, level: Decimal) => (isLong(deal) ? price.lte(level) : price.gte(level));
const better = (deal: Deal, a: Decimal, b: Decimal) => (isLong(deal) ? a.gt(b) : a.lt(b));
/** True when `price` is at or past `level` on the deal's winning side. */
const reached = (deal: Deal, price: Decimal, level: Decimal) => (isLong(deal) ? price.gte(level) : price.lte(level));

export function stopLossPrice(deal: Deal): Decimal | undefined {
  const percent = dec(deal.settings.stopLossPercentage).div(100);
  const average = averagePrice(deal);
  if (average.isZero()) return undefined;
  const offset = isLong(deal) ? dec(1).minus(percent) : dec(1).plus(percent);
  let level: Decimal | undefined;
  if (percent.gt(0)) {
    level = average.times(offset);
    if (deal.settings.tslEnabled && deal.tslExtreme !== null) {
      const trailed = dec(deal.tslExtreme).times(offset);
      if (better(deal, trailed, level)) level = trailed;
    }
  }
  if (deal.breakeven && (level === undefined || better(deal, average, level))) level = average;
  return level;
}

export function trailingExitPrice(deal: Deal): Decimal | undefined {
  if (deal.status !== 'ttp_activated' || deal.trailingMax === null) return undefined;
  const deviation = dec(deal.settings.trailingDeviation).div(100);
  return dec(deal.trailingMax).times(isLong(deal) ? dec(1).minus(deviation) : dec(1).plus(deviation));
}

export function dealOnTick(deal: Deal, tick: TickInput, context: StepContext, out: StepOutput): void {
  if (!watching(deal)) return;
  const price = tick.price;
  if (deal.settings.tslEnabled && deal.tslExtreme !== null && better(deal, price, dec(deal.tslExtreme))) {
    deal.tslExtreme = price.toFixed();
  }
  if (deal.settings.trailingEnabled && deal.takeProfitPrice !== null) {
    if (deal.status === 'bought' && reached(deal, price, dec(deal.takeProfitPrice))) {
      deal.status = 'ttp_activated';
      deal.trailingMax = price.toFixed();
      out.dealLog(deal, `Trailing Take Profit activated at ${price.toFixed()} ${deal.quote}`);
    } else if (deal.status === 'ttp_activated') {
      if (better(deal, price, dec(deal.trailingMax!))) deal.trailingMax = price.toFixed();
      const exit = trailingExitPrice(deal);
      if (exit && against(deal, price, exit)) return closeAtMarket(deal, 'trailing', context, out);
    }
  }
  const stop = stopLossPrice(deal);
  if (stop === undefined || deal.slTriggeredAt !== null || !against(deal, price, stop)) return;
  if (deal.settings.stopLossTimeoutEnabled && deal.settings.stopLossTimeoutSeconds > 0) {
    deal.slTriggeredAt = out.nowMs;
    out.schedule(stopLossTimer(deal), out.nowMs + deal.settings.stopLossTimeoutSeconds * 1000);
    out.dealLog(deal, `Stop Loss reached at ${price.toFixed()} ${deal.quote}; checking again in ${deal.settings.stopLossTimeoutSeconds} s`);
    return;
  }
  closeAtMarket(deal, 'stop_loss', context, out);
}

export function dealOnTimer(deal: Deal, key: string, context: StepContext, out: StepOutput): void {
  if (key === closeTimeoutTimer(deal)) {
    if (deal.status === 'base_order_placed' || watching(deal)) closeAtMarket(deal, 'timeout', context, out);
    return;
  }
  if (key !== stopLossTimer(deal) || deal.slTriggeredAt === null) return;
  deal.slTriggeredAt = null;
  const price = context.price(deal.pair)?.last;
  const stop = stopLossPrice(deal);
  if (watching(deal) && price && stop && against(deal, price, stop)) return closeAtMarket(deal, 'stop_loss', context, out);
  out.dealLog(deal, `Stop Loss timeout passed and the price recovered${price ? ` to ${price.toFixed()} ${deal.quote}` : ''}; the deal goes on`);
}

/**
 * The band outside which the deal needs a tick: the nearest exit level on the losing side and the
 * nearest level on the winning side (take-profit activation, a new best price to trail).
 */
export function dealWatch(deal: Deal): { losing?: Decimal; winning?: Decimal } {
  if (!watching(deal)) return {};
  const losing: Decimal[] = [];
  const winning: Decimal[] = [];
  const stop = deal.slTriggeredAt === null ? stopLossPrice(deal) : undefined;
  if (stop) losing.push(stop);
  if (deal.settings.trailingEnabled) {
    if (deal.status === 'bought' && deal.takeProfitPrice !== null) winning.push(dec(deal.takeProfitPrice));
    const exit = trailingExitPrice(deal);
    if (exit) losing.push(exit);
    if (deal.status === 'ttp_activated' && deal.trailingMax !== null) winning.push(dec(deal.trailingMax));
  }
  if (deal.settings.tslEnabled && stop && deal.tslExtreme !== null) winning.push(dec(deal.tslExtreme));
  const nearest = (levels: Decimal[], highest: boolean) =>
    levels.reduce<Decimal | undefined>((best, level) => (best === undefined || (highest ? level.gt(best) : level.lt(best)) ? level : best), undefined);
  const long = isLong(deal);
  const result: { losing?: Decimal; winning?: Decimal } = {};
  const lose = nearest(losing, long);
  const win = nearest(winning, !long);
  if (lose) result.losing = lose;
  if (win) result.winning = win;
  return result;
}
