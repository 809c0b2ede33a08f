/**
 * A year of 1-minute candles built from real hourly returns: each hour of the shipped Coinbase
 * BTC/USD 1h candles becomes 60 minutes whose path runs open → first extreme → second extreme →
 * close at minutes chosen by a seeded generator, with seeded noise kept inside the hour's range.
 * Every hour keeps its real open, high, low and close; only the path inside it is made up.
 */
import path from 'node:path';
import type { Candle } from '../../src/domain/market/candle.ts';
import { MARKET_FIXTURES_DIR, readCandles } from '../../src/market-data/market-files.ts';
import { dec } from '../../src/shared/decimal.ts';

const FILE = path.join(MARKET_FIXTURES_DIR, 'coinbase-BTCUSD-1h-2017-07_2019-10.csv.gz');
const MINUTE = 60_000;
const ONE = dec(1);

/** Deterministic numbers in [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function minuteCandles(from: Date, days: number, seed = 7): Candle[] {
  const to = from.getTime() + days * 86_400_000;
  const hours = readCandles(FILE, from).filter((candle) => candle.time.getTime() < to);
  const random = mulberry32(seed);
  const candles: Candle[] = [];
  for (const hour of hours) {
    const [open, high, low, close] = [hour.open, hour.high, hour.low, hour.close].map((price) => price.toNumber()) as [number, number, number, number];
    const rising = close >= open;
    const first = 1 + Math.floor(random() * 29);
    const second = 30 + Math.floor(random() * 29);
    const anchors: Array<[number, number]> = [[0, open], [first, rising ? low : high], [second, rising ? high : low], [60, close]];
    let previous = open;
    for (let minute = 1; minute <= 60; minute++) {
      const next = anchors.findIndex(([at]) => at >= minute);
      const [fromAt, fromPrice] = anchors[next - 1]!;
      const [toAt, toPrice] = anchors[next]!;
      const line = fromPrice + ((toPrice - fromPrice) * (minute - fromAt)) / (toAt - fromAt);
      const exact = anchors.some(([at]) => at === minute);
      const noise = exact ? 0 : (random() - 0.5) * (high - low) * 0.05;
      const price = Math.min(high, Math.max(low, line + noise));
      const at = hour.time.getTime() + (minute - 1) * MINUTE;
      const [o, c] = [dec(previous.toFixed(2)), dec(price.toFixed(2))];
      candles.push({ time: new Date(at), open: o, high: o.gt(c) ? o : c, low: o.lt(c) ? o : c, close: c, volume: ONE });
      previous = price;
    }
  }
  return candles;
}
