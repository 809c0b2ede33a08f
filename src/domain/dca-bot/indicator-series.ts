/**
 * Candles built from the ticks a bot hears, bucketed by timeframe on the engine clock: high, low
 * and close of each. Indicator values are ratios, not amounts, so prices are kept as numbers; a
 * series keeps its last MAX_CLOSES candles, enough for the longest periods the start conditions
 * take to settle. Gaps (no tick in a bucket) leave no candle, as on an exchange.
 */
import type { Decimal } from '../../shared/decimal.ts';
import type { Candles } from './indicators.ts';

export const MAX_CLOSES = 250;

export interface CandleSeries {
  /** Open time of the candle being built (ms), null before the first tick. */
  start: number | null;
  /** Last, highest and lowest price of the candle being built. */
  close: number;
  high?: number;
  low?: number;
  /** Closes of finished candles, oldest first. */
  closes: number[];
  /** Their highs and lows; series stored before these were kept lack them (candlesOf fills in). */
  highs?: number[];
  lows?: number[];
}

export const emptySeries = (): CandleSeries => ({ start: null, close: 0, high: 0, low: 0, closes: [], highs: [], lows: [] });

/** Adds a tick; true when it finished a candle (its close is then the last of `closes`). */
export function addTick(series: CandleSeries, price: Decimal, atMs: number, timeframeMs: number): boolean {
  const bucket = Math.floor(atMs / timeframeMs) * timeframeMs;
  const value = price.toNumber();
  if (series.start !== null && bucket <= series.start) {
    series.close = value;
    series.high = Math.max(series.high ?? value, value);
    series.low = Math.min(series.low ?? value, value);
    return false;
  }
  const finished = series.start !== null;
  if (finished) {
    const { highs, lows } = candlesOf(series);
    highs.push(series.high ?? series.close);
    lows.push(series.low ?? series.close);
    Object.assign(series, { highs, lows });
    series.closes.push(series.close);
    if (series.closes.length > MAX_CLOSES) {
      const excess = series.closes.length - MAX_CLOSES;
      for (const list of [series.closes, highs, lows]) list.splice(0, excess);
    }
  }
  series.start = bucket;
  series.close = value;
  series.high = value;
  series.low = value;
  return finished;
}

/** The finished candles; a candle stored without its high and low counts its close as both. */
export function candlesOf(series: CandleSeries): Candles & { highs: number[]; lows: number[] } {
  const { closes } = series;
  const fill = (list: number[] | undefined) => (list?.length === closes.length ? list : [...closes]);
  return { closes, highs: fill(series.highs), lows: fill(series.lows) };
}
