import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aCandle as candle, HOUR } from '../../test/builders/candle.ts';
import { dec } from '../shared/decimal.ts';
import { crossRate, defaultReplayStart, paperReplaySources } from './paper-replay.ts';


describe('paper market replay', () => {
  it('derives the cross rate at the same instants, only where both candles exist', () => {
    const eth = [candle(0, '100', '110', '90', '105'), candle(4, '105', '106', '100', '101')];
    const btc = [candle(0, '2000', '2100', '1900', '2050')];
    const points = crossRate(eth, btc, 4 * HOUR, dec('0.00001'));
    assert.deepEqual(points.map((p) => p.price.toFixed()), ['0.05', '0.04737', '0.05238', '0.05122']);
  });

  it('replays BTC, ETH and their cross rate from the shipped candles', () => {
    const sources = paperReplaySources(dec('0.00001'));
    assert.deepEqual(sources.map((s) => s.pair), ['USDT_BTC', 'USDT_ETH', 'BTC_ETH']);
    const cross = sources[2]!;
    assert.ok('points' in cross && cross.points.length > 80_000);
  });

  it('starts by default a year before the last candle (2025-10-28), where prices are recent', () => {
    assert.equal(defaultReplayStart().toISOString(), '2024-10-28T00:00:00.000Z');
  });

  it('reads only the candles from a chosen time on, starting with the one that holds it', () => {
    const from = new Date('2025-10-01T01:00:00Z');
    const [btc, eth, cross] = paperReplaySources(dec('0.00001'), from);
    assert.ok(btc && 'candles' in btc && eth && 'candles' in eth && cross && 'points' in cross);
    assert.equal(btc.candles[0]!.time.toISOString(), '2025-10-01T00:00:00.000Z');
    assert.ok(btc.candles.length < 200 && Number(btc.candles[0]!.open.toFixed()) > 100_000);
    assert.equal(cross.points[0]!.at.toISOString(), '2025-10-01T00:00:00.000Z');
  });
});
