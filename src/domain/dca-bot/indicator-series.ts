/**
 * Candles built from the ticks a bot hears, bucketed by timeframe on the engine clock, and the
 * RSI of their closes. Indicator values are ratios, not amounts, so closes are kept as numbers;
 * a series keeps its last MAX_CLOSES closes, enough for Wilder's smoothing to settle at the
 * periods the reference offers. Gaps (no tick in a bucket) leave no candle, as on an exchange.
 */
import { RSI } from 'trading-signals';
import type { Decimal } from '../../shared/decimal.ts';

export const MAX_CLOSES = 250;

export interface CandleSeries {
  /** Open time of the candle being built (ms), null before the first tick. */
  start: number | null;
  /** Last price of the candle being built. */
  close: number;
  /** Closes of finished candles, oldest first. */
  closes: number[];
}

export const emptySeries = (): CandleSeries => ({ start: null, close: 0, closes: [] });

/** Adds a tick; true when it finished a candle (its close is then the last of `closes`). */
export function addTick(series: CandleSeries, price: Decimal, atMs: number, timeframeMs: number): boolean {
  const bucket = Math.floor(atMs / timeframeMs) * timeframeMs;
  const value = price.toNumber();
  if (series.start === null) {
    series.start = bucket;
    series.close = value;
    return false;
  }
  if (bucket <= series.start) {
    series.close = value;
    return false;
  }
  series.closes.push(series.close);
  if (series.closes.length > MAX_CLOSES) series.closes.splice(0, series.closes.length - MAX_CLOSES);
  series.start = bucket;
  series.close = value;
  return true;
}

/** RSI of `closes` over `period`, or undefined until there are enough closes. */
export function rsi(closes: readonly number[], period: number): number | undefined {
  const indicator = new RSI(period);
  for (const close of closes) indicator.add(close);
  return indicator.isStable ? (indicator.getResult() ?? undefined) : undefined;
}
