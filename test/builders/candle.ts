import type { Candle } from '../../src/domain/market/candle.ts';
import { dec } from '../../src/shared/decimal.ts';

export const HOUR = 3_600_000;

/** A candle opening `hour` hours after the epoch, with volume 1. */
export function aCandle(hour: number, open: string, high: string, low: string, close: string): Candle {
  return { time: new Date(hour * HOUR), open: dec(open), high: dec(high), low: dec(low), close: dec(close), volume: dec(1) };
}
