/**
 * Candles of the paper market, built from the prices the paper venue applies (whatever the feed:
 * replay, synthetic, live or posted ticks). One-minute candles are kept per pair, the most recent
 * `maxMinutes` of them; longer intervals are merged from those on request. Held in memory only:
 * after a restart the chart starts again from the first new price.
 */
import type { Decimal } from '../shared/decimal.ts';

export interface Candle {
  /** Start of the interval, Unix milliseconds (UTC). */
  start: number;
  open: Decimal;
  high: Decimal;
  low: Decimal;
  close: Decimal;
}

export const CANDLE_INTERVALS = { '1m': 1, '5m': 5, '15m': 15, '1h': 60, '4h': 240, '1d': 1440 } as const;
export type CandleInterval = keyof typeof CANDLE_INTERVALS;

const MINUTE_MS = 60_000;
/** A week of minutes per pair: a few megabytes per pair at most. */
const DEFAULT_MAX_MINUTES = 7 * 24 * 60;

export class CandleBook {
  private readonly minutes = new Map<string, Candle[]>();

  constructor(private readonly maxMinutes = DEFAULT_MAX_MINUTES) {}

  record(pair: string, price: Decimal, at: Date): void {
    const start = Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS;
    let candles = this.minutes.get(pair);
    if (!candles) this.minutes.set(pair, (candles = []));
    const last = candles.at(-1);
    if (last === undefined || start > last.start) {
      candles.push({ start, open: price, high: price, low: price, close: price });
      if (candles.length > this.maxMinutes) candles.splice(0, candles.length - this.maxMinutes);
      return;
    }
    // A price dated before the latest minute (a tick posted with an earlier `at`) joins its own
    // minute, or opens it; its close then stays the latest price seen for that minute.
    const index = firstAtOrAfter(candles, start);
    const candle = candles[index];
    if (candle?.start === start) {
      if (price.gt(candle.high)) candle.high = price;
      if (price.lt(candle.low)) candle.low = price;
      candle.close = price;
    } else if (index > 0 || candles.length < this.maxMinutes) {
      candles.splice(index, 0, { start, open: price, high: price, low: price, close: price });
    }
  }

  /** Candles of `interval` whose start lies in [from, to], oldest first, at most the latest `limit`. */
  candles(pair: string, interval: CandleInterval, from: number, to: number, limit: number): Candle[] {
    const size = CANDLE_INTERVALS[interval] * MINUTE_MS;
    const minutes = this.minutes.get(pair) ?? [];
    const merged: Candle[] = [];
    for (let i = firstAtOrAfter(minutes, Math.floor(from / size) * size); i < minutes.length; i++) {
      const minute = minutes[i]!;
      const start = Math.floor(minute.start / size) * size;
      if (start > to) break;
      if (start < from) continue;
      const last = merged.at(-1);
      if (last?.start === start) {
        if (minute.high.gt(last.high)) last.high = minute.high;
        if (minute.low.lt(last.low)) last.low = minute.low;
        last.close = minute.close;
      } else {
        merged.push({ ...minute, start });
      }
    }
    return merged.slice(-limit);
  }
}

function firstAtOrAfter(candles: readonly Candle[], start: number): number {
  let low = 0;
  let high = candles.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (candles[middle]!.start < start) low = middle + 1;
    else high = middle;
  }
  return low;
}
