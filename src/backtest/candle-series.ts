/**
 * The candles a backtest walks: a period of one pair at one timeframe, from a CSV file or from
 * the files the project ships. Coarser timeframes are built from finer data; a finer one than the
 * data, a period the data does not cover, a pair the file does not hold and missing candles are
 * refused with the field named (missing candles are bridged only when asked to).
 */
import path from 'node:path';
import type { Candle } from '../domain/market/candle.ts';
import { candleDurationMs, MARKET_FIXTURES_DIR } from '../market-data/market-files.ts';
import { errors } from '../shared/errors.ts';
import { type CandleFile, type KeepRange, readCandleFile } from './candle-file.ts';
import { formatTimeframe } from './timeframes.ts';

export interface CandleRequest {
  pair: string;
  from: Date;
  /** Exclusive: the first instant after the period. */
  to: Date;
  /** The data's own timeframe when not given. */
  timeframeMs?: number;
  allowGaps: boolean;
}

export interface CandleSeries {
  pair: string;
  timeframeMs: number;
  candles: Candle[];
  /** Where the candles come from, for the report. */
  source: string;
  /** Candles missing inside the period (only with allowGaps). */
  missing: number;
}

const SHIPPED: Record<string, string[]> = {
  USDT_BTC: ['coinbase-BTCUSD-1h-2017-07_2019-10.csv.gz', 'coinbase-BTCUSD-4h-2016-05_2025-10.csv.gz'],
  USDT_ETH: ['binanceus-ETHUSD-5m-2023-03-13_2023-03-15.csv', 'coinbase-ETHUSD-4h-2016-05_2025-10.csv.gz'],
};

const invalid = (field: string, message: string) => errors.recordInvalid({ [field]: [message] });
const day = (date: Date) => date.toISOString().slice(0, 16).replace('T00:00', '').replace('T', ' ');

/** The candles of a CSV file the user gave. */
export function candlesFromFile(file: string, request: CandleRequest): CandleSeries {
  checkFileHoldsPair(file, request.pair);
  const data = readCandleFile(file, keepRange(request));
  return select(data, dataTimeframe(file, data), request, path.basename(file));
}

/** The candles of the shipped file with the finest timeframe that covers the period. */
export function shippedCandles(request: CandleRequest): CandleSeries {
  const files = SHIPPED[request.pair];
  if (!files) {
    throw invalid('pair', `has no shipped candles (shipped: ${Object.keys(SHIPPED).join(', ')}); give a CSV file or an exchange to download from`);
  }
  const usable = files.filter((file) => request.timeframeMs === undefined || request.timeframeMs % candleDurationMs(file) === 0);
  if (usable.length === 0) {
    const timeframes = files.map((file) => formatTimeframe(candleDurationMs(file))).join(', ');
    throw invalid('timeframe', `is ${formatTimeframe(request.timeframeMs!)}, which cannot be built from the shipped ${request.pair} candles (${timeframes})`);
  }
  const covering = usable.find((file) => covers(file, request));
  if (!covering) {
    throw invalid('from', `the shipped ${request.pair} candles cover ${usable.map(fileRange).join(' and ')}; choose a period inside`);
  }
  const file = path.join(MARKET_FIXTURES_DIR, covering);
  return select(readCandleFile(file, keepRange(request)), candleDurationMs(file), request, covering);
}

function covers(file: string, request: CandleRequest): boolean {
  const [start, end] = SHIPPED_PERIODS[file]!;
  return start <= request.from.getTime() && request.to.getTime() <= end;
}

/** Each shipped file's first candle open and last candle close, from fixtures/market/README.md. */
export const SHIPPED_PERIODS: Readonly<Record<string, [number, number]>> = {
  'coinbase-BTCUSD-1h-2017-07_2019-10.csv.gz': [Date.UTC(2017, 6, 1, 11), Date.UTC(2019, 9, 17, 10)],
  'coinbase-BTCUSD-4h-2016-05_2025-10.csv.gz': [Date.UTC(2016, 4, 18, 4), Date.UTC(2025, 9, 28, 4)],
  'binanceus-ETHUSD-5m-2023-03-13_2023-03-15.csv': [Date.UTC(2023, 2, 13, 18), Date.UTC(2023, 2, 15, 18, 20)],
  'coinbase-ETHUSD-4h-2016-05_2025-10.csv.gz': [Date.UTC(2016, 4, 18), Date.UTC(2025, 9, 28, 4)],
};

function fileRange(file: string): string {
  const [start, end] = SHIPPED_PERIODS[file]!;
  return `${day(new Date(start))} to ${day(new Date(end))} (${formatTimeframe(candleDurationMs(file))})`;
}

/** A file named like the shipped ones (`exchange-BTCUSD-1h-...`) must hold the pair's base. */
function checkFileHoldsPair(file: string, pair: string): void {
  const symbol = /^[a-z0-9]+-([A-Z0-9]{5,12})-\d+[mhd]-/.exec(path.basename(file))?.[1];
  const base = pair.split('_')[1];
  if (symbol && base && !symbol.startsWith(base)) {
    throw invalid('pair', `is ${pair}, but ${path.basename(file)} holds ${symbol}`);
  }
}

/** The rows a period needs: from its start to its end. */
export function keepRange(request: CandleRequest): KeepRange {
  return { from: request.from.getTime(), to: request.to.getTime() };
}

function dataTimeframe(file: string, data: CandleFile): number {
  if (/-\d+[mhd]-/.test(path.basename(file))) return candleDurationMs(file);
  if (!Number.isFinite(data.step)) throw invalid('timeframe', 'cannot be told from a single candle; name it');
  return data.step;
}

/** The period's candles out of what was read, at the timeframe asked for. */
export function select(data: CandleFile, dataMs: number, request: CandleRequest, source: string): CandleSeries {
  const timeframeMs = request.timeframeMs ?? dataMs;
  if (timeframeMs % dataMs !== 0) {
    throw invalid('timeframe', `is ${formatTimeframe(timeframeMs)}, which cannot be built from ${source}'s ${formatTimeframe(dataMs)} candles`);
  }
  const first = data.first;
  const end = data.last + dataMs;
  if (request.from.getTime() < first || request.to.getTime() > end) {
    const field = request.from.getTime() < first ? 'from' : 'to';
    throw invalid(field, `is outside the data: ${source} covers ${day(new Date(first))} to ${day(new Date(end))}`);
  }
  const inPeriod = data.candles.filter((candle) => candle.time.getTime() + dataMs <= request.to.getTime());
  const candles = timeframeMs === dataMs ? inPeriod : aggregate(inPeriod, timeframeMs);
  if (candles.length === 0) throw invalid('from', `the period holds no ${formatTimeframe(timeframeMs)} candle of ${source}`);
  const missing = countMissing(candles, timeframeMs, request.allowGaps, source);
  return { pair: request.pair, timeframeMs, candles, source, missing };
}

/** Candles of `timeframeMs` from finer ones, aligned to multiples of it since the epoch. */
function aggregate(candles: Candle[], timeframeMs: number): Candle[] {
  const result: Candle[] = [];
  for (const candle of candles) {
    const bucket = Math.floor(candle.time.getTime() / timeframeMs) * timeframeMs;
    const current = result[result.length - 1];
    if (current && current.time.getTime() === bucket) {
      current.high = current.high.gt(candle.high) ? current.high : candle.high;
      current.low = current.low.lt(candle.low) ? current.low : candle.low;
      current.close = candle.close;
      current.volume = current.volume.plus(candle.volume);
    } else {
      result.push({ ...candle, time: new Date(bucket) });
    }
  }
  return result;
}

function countMissing(candles: Candle[], timeframeMs: number, allowGaps: boolean, source: string): number {
  let missing = 0;
  for (let i = 1; i < candles.length; i++) {
    const gap = (candles[i]!.time.getTime() - candles[i - 1]!.time.getTime()) / timeframeMs - 1;
    if (gap > 0 && !allowGaps) {
      throw errors.recordInvalid({
        data: [`${source} misses ${gap} candle(s) after ${day(candles[i - 1]!.time)}; choose another period or allow gaps`],
      });
    }
    missing += Math.max(0, gap);
  }
  return missing;
}
