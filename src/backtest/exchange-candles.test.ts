/**
 * Downloading candles through ccxt against recorded Binance responses: exchangeInfo as recorded
 * for the adapter's tests, and ten 1-minute BTCUSDT klines in Binance's response format made from
 * the shipped real Binance trades (2024-08-08 23:55 to 2024-08-09 00:05 UTC), served page by page
 * as the exchange serves them (from startTime, at most limit).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fixture, json, ok, RecordedExchange, type SeenRequest } from '../exchanges/ccxt/test-support/recorded-exchange.ts';
import { ApiError } from '../shared/errors.ts';
import { type CandleRequest } from './candle-series.ts';
import { DownloadError, exchangeCandles } from './exchange-candles.ts';

const KLINES = JSON.parse(fixture('binance/klines-btcusdt-1m.json')) as Array<[number, ...unknown[]]>;
const FIRST = KLINES[0]![0];
const MINUTE = 60_000;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradeloop-download-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function klines(request: SeenRequest) {
  const start = Number(request.params.startTime);
  const limit = Number(request.params.limit);
  return json(200, KLINES.filter((kline) => kline[0] >= start).slice(0, limit));
}

const request = (changes: Partial<CandleRequest> = {}): CandleRequest => ({
  pair: 'USDT_BTC', from: new Date(FIRST), to: new Date(FIRST + 10 * MINUTE), timeframeMs: MINUTE, allowGaps: false, ...changes,
});
const options = (recorded: RecordedExchange, cacheDir: string) => ({
  exchange: 'binance', cacheDir, transport: recorded.transport, rateLimit: false, pageSize: 4, now: () => new Date('2026-01-01'),
});

describe('candles from an exchange', () => {
  it('downloads page by page, caches each ended month, and reads a second run from the cache alone', async () => {
    const cacheDir = path.join(dir, 'cache');
    const recorded = new RecordedExchange({ 'GET /api/v3/exchangeInfo': ok('binance/exchange-info.json'), 'GET /api/v3/klines': klines });
    const series = await exchangeCandles(request(), options(recorded, cacheDir));
    const pages = recorded.seen('GET /api/v3/klines');
    assert.deepEqual(pages.map((seen) => [seen.params.symbol, seen.params.interval, seen.params.limit]), Array(4).fill(['BTCUSDT', '1m', '4']));
    // From the month's start, then after the last candle of each page, until a page brings nothing new.
    assert.deepEqual(pages.map((seen) => Number(seen.params.startTime)), [Date.UTC(2024, 7, 1), FIRST + 3 * MINUTE + 1, FIRST + 7 * MINUTE + 1, FIRST + 9 * MINUTE + 1]);
    assert.equal(series.source, 'binance BTC/USDT 1m');
    assert.equal(series.candles.length, 10);
    assert.deepEqual(series.candles.map((c) => [c.time.getTime(), c.open.toFixed(), c.high.toFixed(), c.low.toFixed(), c.close.toFixed(), c.volume.toFixed()]),
      KLINES.map(([time, ...values]) => [time, ...values.slice(0, 5).map((value) => String(Number(value)))]));
    assert.ok(fs.existsSync(path.join(cacheDir, 'binance', 'BTCUSDT', '1m', '2024-08.csv')));

    const offline = new RecordedExchange({ 'GET /api/v3/exchangeInfo': ok('binance/exchange-info.json') });
    const again = await exchangeCandles(request(), options(offline, cacheDir));
    assert.deepEqual(offline.seen('GET /api/v3/klines'), []);
    assert.deepEqual(again.candles, series.candles);
  });

  it('caches no month that has not ended', async () => {
    const cacheDir = path.join(dir, 'current');
    const recorded = new RecordedExchange({ 'GET /api/v3/exchangeInfo': ok('binance/exchange-info.json'), 'GET /api/v3/klines': klines });
    await exchangeCandles(request(), { ...options(recorded, cacheDir), now: () => new Date(FIRST + 10 * MINUTE) });
    assert.equal(fs.existsSync(path.join(cacheDir, 'binance', 'BTCUSDT', '1m', '2024-08.csv')), false);
  });

  it('names a pair the exchange does not list, and a period it has no candles for', async () => {
    const recorded = new RecordedExchange({ 'GET /api/v3/exchangeInfo': ok('binance/exchange-info.json'), 'GET /api/v3/klines': klines });
    await assert.rejects(exchangeCandles(request({ pair: 'USDT_SOL' }), options(recorded, path.join(dir, 'sol'))), (error: unknown) =>
      error instanceof ApiError && error.attributes?.pair?.[0] === 'is not listed on binance (no SOL/USDT)');
    await assert.rejects(exchangeCandles(request({ to: new Date(FIRST + 20 * MINUTE) }), options(recorded, path.join(dir, 'late'))), (error: unknown) =>
      error instanceof ApiError && /^is outside the data: binance BTC\/USDT 1m covers/.test(error.attributes?.to?.[0] ?? ''));
  });

  it('says the exchange cannot be reached without calling it bad input', async () => {
    const recorded = new RecordedExchange({ 'GET /api/v3/exchangeInfo': json(503, { code: -1, msg: 'Service unavailable' }) });
    await assert.rejects(exchangeCandles(request(), options(recorded, path.join(dir, 'down'))), DownloadError);
  });
});
