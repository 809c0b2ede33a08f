/**
 * Candles and the price path a replay walks through each one: open, then the extreme nearer to
 * the open's side of the move (low first in a rising candle, high first in a falling one), then
 * the other extreme, then close. The four points are spread over the candle's duration.
 */
import type { Decimal } from '../../shared/decimal.ts';

export interface Candle {
  /** Open time. */
  time: Date;
  open: Decimal;
  high: Decimal;
  low: Decimal;
  close: Decimal;
  /** Traded amount in the base currency. */
  volume: Decimal;
}

export interface PathPoint {
  price: Decimal;
  at: Date;
}

export function intraCandlePath(candle: Candle, durationMs: number): PathPoint[] {
  const rising = candle.close.gte(candle.open);
  const [first, second] = rising ? [candle.low, candle.high] : [candle.high, candle.low];
  const start = candle.time.getTime();
  return [
    { price: candle.open, at: new Date(start) },
    { price: first, at: new Date(start + Math.floor(durationMs / 3)) },
    { price: second, at: new Date(start + Math.floor((2 * durationMs) / 3)) },
    { price: candle.close, at: new Date(start + durationMs - 1) },
  ];
}
