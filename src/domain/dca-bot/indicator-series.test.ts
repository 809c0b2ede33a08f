import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dec } from '../../shared/decimal.ts';
import { addTick, candlesOf, emptySeries, MAX_CLOSES } from './indicator-series.ts';
import { type Candles, conditionHolds, indicatorValue } from './indicators.ts';

const flat = (closes: number[]): Candles => ({ closes, highs: closes, lows: closes });
const rsi = (closes: number[], period: number) => indicatorValue({ kind: 'rsi', period }, flat(closes));

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

  it('keeps each candle’s high and low, and reads a series stored with closes only', () => {
    const series = emptySeries();
    for (const [price, at] of [[10, 0], [14, 10_000], [9, 20_000], [11, 30_000], [12, MINUTE]] as const) addTick(series, dec(price), at, MINUTE);
    assert.deepEqual(candlesOf(series), { closes: [11], highs: [14], lows: [9] });
    const stored = { start: 0, close: 5, closes: [4, 6] };
    assert.deepEqual(candlesOf(stored), { closes: [4, 6], highs: [4, 6], lows: [4, 6] });
    addTick(stored, dec(7), MINUTE, MINUTE);
    assert.deepEqual(candlesOf(stored), { closes: [4, 6, 5], highs: [4, 6, 5], lows: [4, 6, 5] });
  });

  it('keeps a bounded history', () => {
    const series = emptySeries();
    for (let i = 0; i <= MAX_CLOSES + 20; i += 1) addTick(series, dec(i + 1), i * MINUTE, MINUTE);
    assert.equal(series.closes.length, MAX_CLOSES);
    assert.equal(series.highs!.length, MAX_CLOSES);
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

describe('start indicators', () => {
  const waves = Array.from({ length: 80 }, (_, i) => 100 + 10 * Math.sin(i / 4));
  const candles: Candles = { closes: waves, highs: waves.map((c) => c + 1), lows: waves.map((c) => c - 1) };

  it('gives the Ultimate Oscillator, CCI and %B within their ranges, and nothing before their periods fill', () => {
    const ult = indicatorValue({ kind: 'ult', periods: [7, 14, 28] }, candles)!;
    assert.ok(ult > 0 && ult < 100, String(ult));
    assert.equal(indicatorValue({ kind: 'ult', periods: [7, 14, 28] }, flat(waves.slice(0, 10))), undefined);
    assert.equal(indicatorValue({ kind: 'cci', period: 20 }, flat(waves.slice(0, 10))), undefined);
    assert.ok(Number.isFinite(indicatorValue({ kind: 'cci', period: 20 }, candles)));
  });

  it('puts %B at 0 on the lower band and 100 on the upper one', () => {
    const steady = [...Array.from({ length: 19 }, (_, i) => (i % 2 === 0 ? 99 : 101))];
    const below = indicatorValue({ kind: 'bb_percent', period: 20, deviation: 2 }, flat([...steady, 90]))!;
    const above = indicatorValue({ kind: 'bb_percent', period: 20, deviation: 2 }, flat([...steady, 110]))!;
    assert.ok(below < 0 && above > 100, `${below} ${above}`);
    assert.equal(conditionHolds({ spec: { kind: 'bb_percent', period: 20, deviation: 2 }, time: '1m', trigger: 'less', points: 0 }, flat([...steady, 90])), true);
  });

  it('sees a moving-average cross only on the candle where it happens', () => {
    const falling = Array.from({ length: 10 }, (_, i) => 110 - i);
    const cross = { spec: { kind: 'ma_cross', average: 'sma', fast: 3, slow: 6 } as const, time: '1m', trigger: 'crossing_up' as const, points: 0 };
    const rising = [...falling, 104, 108, 112];
    const firstAbove = rising.findIndex((_, i) => conditionHolds(cross, flat(rising.slice(0, i + 1))));
    assert.ok(firstAbove > 9, String(firstAbove));
    assert.equal(conditionHolds(cross, flat(rising.slice(0, firstAbove + 2))), false);
  });
});
