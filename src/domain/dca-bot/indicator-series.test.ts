import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dec } from '../../shared/decimal.ts';
import { addTick, emptySeries, MAX_CLOSES, rsi } from './indicator-series.ts';

const MINUTE = 60_000;

describe('candles from ticks', () => {
  it('closes a candle when a tick falls in a later bucket, with the last price as close', () => {
    const series = emptySeries();
    assert.equal(addTick(series, dec(10), 0, MINUTE), false);
    assert.equal(addTick(series, dec(12), 30_000, MINUTE), false);
    assert.equal(addTick(series, dec(11), 59_999, MINUTE), false);
    assert.equal(addTick(series, dec(15), MINUTE, MINUTE), true);
    assert.deepEqual(series.closes, [11]);
    assert.equal(addTick(series, dec(16), 10 * MINUTE, MINUTE), true);
    assert.deepEqual(series.closes, [11, 15]);
  });

  it('keeps a bounded history', () => {
    const series = emptySeries();
    for (let i = 0; i <= MAX_CLOSES + 20; i += 1) addTick(series, dec(i + 1), i * MINUTE, MINUTE);
    assert.equal(series.closes.length, MAX_CLOSES);
    assert.equal(series.closes.at(-1), MAX_CLOSES + 20);
  });
});

describe('RSI', () => {
  it('is undefined until the period has enough closes', () => {
    assert.equal(rsi([1, 2, 3], 14), undefined);
  });

  it('is 100 after only gains and near 0 after only losses', () => {
    const rising = Array.from({ length: 30 }, (_, i) => 100 + i);
    assert.equal(rsi(rising, 14), 100);
    const falling = Array.from({ length: 30 }, (_, i) => 100 - i);
    assert.ok(rsi(falling, 14)! < 1);
  });

  it('agrees with the textbook RSI of a known series', () => {
    // The usual worked 14-period example gives 70.53; the library seeds its smoothing slightly
    // differently, which moves the first value by less than a tenth of a point.
    const closes = [44.34, 44.09, 44.15, 43.61, 44.33, 44.83, 45.1, 45.42, 45.84, 46.08, 45.89, 46.03, 45.61, 46.28, 46.28];
    assert.ok(Math.abs(rsi(closes, 14)! - 70.53) < 0.1);
  });
});
