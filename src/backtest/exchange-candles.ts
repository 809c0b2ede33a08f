/**
 * Candles from an exchange through ccxt `fetchOHLCV`, paged and throttled by ccxt's rate limiter,
 * cached on disk one UTC month per file (`CACHE/exchange/BASEQUOTE/timeframe/YYYY-MM.csv`, the
 * candle CSV format) so that a second run of the same period needs no network. Only months that
 * have ended are cached; the current one is downloaded each time.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Transport } from '../exchanges/ccxt/ccxt-transport.ts';
import { errors } from '../shared/errors.ts';
import { parseCandles } from './candle-file.ts';
import { type CandleRequest, type CandleSeries, keepRange, select } from './candle-series.ts';
import { formatTimeframe } from './timeframes.ts';

export interface DownloadOptions {
  exchange: string;
  cacheDir: string;
  /** Answers every request instead of the network (tests). */
  transport?: Transport;
  rateLimit?: boolean;
  /** Candles asked for per request. */
  pageSize?: number;
  now?: () => Date;
  onDownload?: (month: string) => void;
}

/** The exchange could not be reached or refused: not the user's input, so not exit status 2. */
export class DownloadError extends Error {
  override readonly name = 'DownloadError';
}

const HEADER = 'time,open,high,low,close,volume';
const DEFAULT_TIMEFRAME_MS = 3_600_000;

type Row = [number, number, number, number, number, number];

export async function exchangeCandles(request: CandleRequest, options: DownloadOptions): Promise<CandleSeries> {
  const timeframeMs = request.timeframeMs ?? DEFAULT_TIMEFRAME_MS;
  const timeframe = formatTimeframe(timeframeMs);
  const [quote, base] = request.pair.split('_') as [string, string];
  const symbol = `${base}/${quote}`;
  const client = await openClient(options);
  if (!(timeframe in (client.timeframes ?? {}))) {
    throw errors.recordInvalid({ timeframe: [`is ${timeframe}, which ${options.exchange} does not offer`] });
  }
  await guard(options.exchange, () => client.loadMarkets());
  if (!client.markets[symbol]) throw errors.recordInvalid({ pair: [`is not listed on ${options.exchange} (no ${symbol})`] });
  const directory = path.join(options.cacheDir, options.exchange, `${base}${quote}`, timeframe);
  const now = (options.now ?? (() => new Date()))().getTime();
  const parts: string[] = [];
  for (const [start, end] of months(request.from.getTime(), request.to.getTime())) {
    const file = path.join(directory, `${new Date(start).toISOString().slice(0, 7)}.csv`);
    if (fs.existsSync(file)) {
      parts.push(fs.readFileSync(file, 'utf8').split('\n').slice(1).join('\n'));
      continue;
    }
    options.onDownload?.(new Date(start).toISOString().slice(0, 7));
    const rows = await fetchMonth(client, symbol, timeframe, start, Math.min(end, now), options);
    const text = rows.map((row) => row.join(',')).join('\n');
    if (end <= now) {
      fs.mkdirSync(directory, { recursive: true });
      const partial = `${file}.${process.pid}`;
      fs.writeFileSync(partial, `${HEADER}\n${text}\n`);
      fs.renameSync(partial, file);
    }
    parts.push(text);
  }
  const source = `${options.exchange} ${symbol} ${timeframe}`;
  const data = parseCandles(`${HEADER}\n${parts.join('\n')}`, source, keepRange(request));
  return select(data, timeframeMs, request, source);
}

interface Client {
  timeframes?: Record<string, unknown>;
  markets: Record<string, unknown>;
  loadMarkets(): Promise<unknown>;
  fetchOHLCV(symbol: string, timeframe: string, since: number, limit: number): Promise<number[][]>;
}

async function openClient(options: DownloadOptions): Promise<Client> {
  const [{ ccxtClass }, { useTransport }] = await Promise.all([
    import('../exchanges/ccxt/ccxt-catalog.ts'),
    import('../exchanges/ccxt/ccxt-transport.ts'),
  ]);
  let Class;
  try {
    Class = ccxtClass(options.exchange);
  } catch {
    throw errors.recordInvalid({ exchange: [`is not one the project can download from`] });
  }
  const client = new Class({ enableRateLimit: options.rateLimit ?? true, options: { defaultType: 'spot', fetchMarkets: { types: ['spot'] } } });
  if (options.transport) useTransport(client, options.transport);
  return client as unknown as Client;
}

/** Every candle opening in [start, end), page by page. */
async function fetchMonth(client: Client, symbol: string, timeframe: string, start: number, end: number, options: DownloadOptions): Promise<Row[]> {
  const rows: Row[] = [];
  let since = start;
  while (since < end) {
    const page = await guard(options.exchange, () => client.fetchOHLCV(symbol, timeframe, since, options.pageSize ?? 1000));
    const fresh = page.filter((row) => row[0]! >= since && row[0]! < end) as Row[];
    if (fresh.length === 0) break;
    rows.push(...fresh);
    since = fresh[fresh.length - 1]![0] + 1;
  }
  return rows;
}

/** [start, end) of each UTC month the period touches. */
function months(from: number, to: number): Array<[number, number]> {
  const result: Array<[number, number]> = [];
  const first = new Date(from);
  let start = Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), 1);
  while (start < to) {
    const date = new Date(start);
    const end = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
    result.push([start, end]);
    start = end;
  }
  return result;
}

async function guard<T>(exchange: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new DownloadError(`Cannot download candles from ${exchange}: ${(error as Error).message.split('\n')[0]!.slice(0, 200)}`);
  }
}
