/**
 * The replay behind the paper market: the shipped 4h Coinbase candles for USDT_BTC and USDT_ETH,
 * and BTC_ETH derived from both at the same instants (ETH/USD ÷ BTC/USD, rounded to the pair's
 * price step). USDT_SOL has no shipped data, so it gets no replay prices.
 */
import path from 'node:path';
import { type Candle, intraCandlePath, type PathPoint } from '../domain/market/candle.ts';
import { type Decimal, roundToStep } from '../shared/decimal.ts';
import { candleDurationMs, lastRowTime, MARKET_FIXTURES_DIR, readCandles } from './market-files.ts';
import type { ReplaySource } from './replay-feed.ts';

const BTC_FILE = path.join(MARKET_FIXTURES_DIR, 'coinbase-BTCUSD-4h-2016-05_2025-10.csv.gz');
const ETH_FILE = path.join(MARKET_FIXTURES_DIR, 'coinbase-ETHUSD-4h-2016-05_2025-10.csv.gz');

const YEAR_MS = 365 * 24 * 3_600_000;

/** Where the paper market's replay starts unless told: a year before the data's end. */
export function defaultReplayStart(): Date {
  return new Date(lastRowTime(BTC_FILE).getTime() - YEAR_MS);
}

/** The replay from the candle that contains `from` on (all of it without `from`). */
export function paperReplaySources(crossPriceStep: Decimal, from?: Date): ReplaySource[] {
  const duration = candleDurationMs(BTC_FILE);
  const firstCandle = from === undefined ? undefined : new Date(from.getTime() - duration);
  const btc = readCandles(BTC_FILE, firstCandle);
  const eth = readCandles(ETH_FILE, firstCandle);
  return [
    { pair: 'USDT_BTC', candles: btc, candleDurationMs: duration },
    { pair: 'USDT_ETH', candles: eth, candleDurationMs: duration },
    { pair: 'BTC_ETH', points: crossRate(eth, btc, duration, crossPriceStep) },
  ];
}

/** The price of `base` in `quote` at each path point where both have a candle. */
export function crossRate(base: Candle[], quote: Candle[], durationMs: number, step: Decimal): PathPoint[] {
  const quoteByTime = new Map(quote.map((candle) => [candle.time.getTime(), candle]));
  return base.flatMap((candle) => {
    const other = quoteByTime.get(candle.time.getTime());
    if (!other) return [];
    const otherPath = intraCandlePath(other, durationMs);
    return intraCandlePath(candle, durationMs).map((point, index) => ({
      at: point.at,
      price: roundToStep(point.price.div(otherPath[index]!.price), step),
    }));
  });
}
