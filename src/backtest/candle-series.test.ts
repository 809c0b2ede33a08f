import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { candleDurationMs, MARKET_FIXTURES_DIR } from '../market-data/market-files.ts';
import { ApiError } from '../shared/errors.ts';
import { parseCandles, readCandleFile } from './candle-file.ts';
import { candlesFromFile, type CandleRequest, SHIPPED_PERIODS, shippedCandles } from './candle-series.ts';

const HOUR = 3_600_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradeloop-candles-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function csv(name: string, rows: string[]): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, ['time,open,high,low,close,volume', ...rows].join('\n'));
  return file;
}
const row = (hour: number, open = 100, high = 110, low = 90, close = 105) => `${hour * HOUR},${open},${high},${low},${close},1`;
const request = (changes: Partial<CandleRequest> = {}): CandleRequest => ({
  pair: 'USDT_BTC', from: new Date(0), to: new Date(6 * HOUR), allowGaps: false, ...changes,
});

/** The one field error the call throws. */
function refusal(work: () => unknown): [string, string] {
  try {
    work();
  } catch (error) {
    assert.ok(error instanceof ApiError, String(error));
    const entries = Object.entries(error.attributes ?? {});
    assert.equal(entries.length, 1);
    return [entries[0]![0], entries[0]![1].join('; ')];
  }
  assert.fail('expected a refusal');
}

describe('candle files for backtests', () => {
  it('reads the candles of a period, and builds coarser ones from them', () => {
    const file = csv('hours.csv', [0, 1, 2, 3, 4, 5].map((h) => row(h, 100 + h, 110 + h, 90 - h, 101 + h)));
    assert.equal(candlesFromFile(file, request({ from: new Date(HOUR), to: new Date(3 * HOUR) })).candles.length, 2);
    const [first, second] = candlesFromFile(file, request({ timeframeMs: 3 * HOUR })).candles;
    assert.deepEqual([first!.open, first!.high, first!.low, first!.close, first!.volume].map(String), ['100', '112', '88', '103', '3']);
    assert.equal(second!.time.getTime(), 3 * HOUR);
  });

  it('refuses an empty file, a file that is not candles and unsorted or repeated times, naming the line', () => {
    assert.deepEqual(refusal(() => candlesFromFile(csv('empty.csv', []), request())), ['data', 'empty.csv holds no candles']);
    assert.match(refusal(() => parseCandles('time,price\n1,2', 'x.csv'))[1], /must start with the header/);
    assert.match(refusal(() => parseCandles(`time,open,high,low,close,volume\n${row(0)}\n0,abc,1,1,1,1`, 'x.csv'))[1], /x\.csv line 3 is not a candle/);
    assert.match(refusal(() => parseCandles(`time,open,high,low,close,volume\n${row(0, 100, 99, 90, 95)}`, 'x.csv'))[1], /low ≤ open, close ≤ high/);
    assert.match(refusal(() => parseCandles(`time,open,high,low,close,volume\n${row(1)}\n${row(0)}`, 'x.csv'))[1], /line 3: the candles are not sorted/);
    assert.match(refusal(() => parseCandles(`time,open,high,low,close,volume\n${row(1)}\n${row(1)}`, 'x.csv'))[1], /not sorted/);
  });

  it('refuses missing candles inside the period unless asked to bridge them', () => {
    const file = csv('gap.csv', [row(0), row(1), row(4), row(5)]);
    assert.deepEqual(refusal(() => candlesFromFile(file, request())), ['data', 'gap.csv misses 2 candle(s) after 1970-01-01 01:00; choose another period or allow gaps']);
    assert.equal(candlesFromFile(file, request({ allowGaps: true })).missing, 2);
  });

  it('refuses a period outside the data, a finer timeframe and a file of another pair', () => {
    const file = csv('binance-BTCUSDT-1h-x.csv', [0, 1, 2].map((h) => row(h)));
    assert.deepEqual(refusal(() => candlesFromFile(file, request({ to: new Date(4 * HOUR) }))), ['to', 'is outside the data: binance-BTCUSDT-1h-x.csv covers 1970-01-01 to 1970-01-01 03:00']);
    assert.equal(refusal(() => candlesFromFile(file, request({ to: new Date(3 * HOUR), timeframeMs: 60_000 })))[0], 'timeframe');
    assert.deepEqual(refusal(() => candlesFromFile(file, request({ pair: 'USDT_ETH' }))), ['pair', 'is USDT_ETH, but binance-BTCUSDT-1h-x.csv holds BTCUSDT']);
  });

  it('finds the shipped file that covers a period, and names what is shipped otherwise', () => {
    const series = shippedCandles(request({ from: new Date('2019-01-01'), to: new Date('2019-01-02') }));
    assert.equal(series.source, 'coinbase-BTCUSD-1h-2017-07_2019-10.csv.gz');
    assert.equal(series.candles.length, 24);
    assert.equal(shippedCandles(request({ from: new Date('2021-01-01'), to: new Date('2021-01-02') })).candles.length, 6);
    assert.match(refusal(() => shippedCandles(request({ pair: 'USDT_SOL' })))[1], /has no shipped candles \(shipped: USDT_BTC, USDT_ETH\)/);
    assert.equal(refusal(() => shippedCandles(request({ from: new Date('2012-01-01'), to: new Date('2012-02-01') })))[0], 'from');
    assert.equal(refusal(() => shippedCandles(request({ from: new Date('2021-01-01'), to: new Date('2021-01-02'), timeframeMs: HOUR })))[0], 'from');
  });

  it('knows the true first candle open and last candle close of every shipped file', () => {
    for (const [name, [start, end]] of Object.entries(SHIPPED_PERIODS)) {
      const file = path.join(MARKET_FIXTURES_DIR, name);
      const data = readCandleFile(file, { from: 0, to: 0 });
      assert.equal(data.first, start, name);
      assert.equal(data.last + candleDurationMs(file), end, name);
    }
  });
});
