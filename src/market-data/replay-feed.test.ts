import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { aCandle as candle, HOUR } from '../../test/builders/candle.ts';
import type { MarketTick } from '../domain/market/market-tick.ts';
import { MARKET_FIXTURES_DIR, readTrades } from './market-files.ts';
import { ReplayFeed } from './replay-feed.ts';


describe(ReplayFeed.name, () => {
  it('walks each candle open, extremes, close and merges pairs by time', () => {
    const feed = new ReplayFeed({
      speed: 0,
      sources: [
        { pair: 'USDT_BTC', candleDurationMs: HOUR, candles: [candle(0, '10', '12', '9', '11'), candle(1, '11', '11', '8', '8')] },
        { pair: 'USDT_ETH', candleDurationMs: 2 * HOUR, candles: [candle(0, '1', '2', '1', '2')] },
      ],
    });
    const batches = [...feed.batches()].map((batch) => batch.map((t) => `${t.pair}:${t.price.toFixed()}`).join(' '));
    // BTC points at 0, 20, 40, 60−, 60, 80, 100, 120− minutes; ETH's 2h candle at 0, 40, 80, 120−.
    assert.deepEqual(batches, [
      'USDT_BTC:10 USDT_ETH:1',
      'USDT_BTC:9',
      'USDT_BTC:12 USDT_ETH:1',
      'USDT_BTC:11',
      'USDT_BTC:11',
      'USDT_BTC:11 USDT_ETH:2',
      'USDT_BTC:8',
      'USDT_BTC:8 USDT_ETH:2',
    ]);
  });

  it('replays the real trade file with volumes, every trade once', async () => {
    const trades = readTrades(path.join(MARKET_FIXTURES_DIR, 'binance-BTCUSDT-trades-2024-08-08T2354_2024-08-09T0005.csv.gz'));
    const received: MarketTick[] = [];
    await new Promise<void>((resolve) => {
      const feed = new ReplayFeed({ speed: 0, sources: [{ pair: 'USDT_BTC', trades }], onEnd: resolve });
      void feed.start(async (batch) => void received.push(...batch));
    });
    assert.equal(received.length, trades.length);
    assert.equal(received.every((tick) => tick.volume !== undefined), true);
    assert.equal(received.at(-1)!.price.toFixed(), trades.at(-1)!.price.toFixed());
  });

  const hourly = (count: number) => [{ pair: 'USDT_BTC', candleDurationMs: HOUR, candles: Array.from({ length: count }, (_, i) => candle(i, '10', '12', '9', '11')) }];

  it('at full speed still lets the process do other work between batches', async () => {
    let delivered = 0;
    let deliveredWhenATimerRan: number | undefined;
    setTimeout(() => (deliveredWhenATimerRan = delivered), 0);
    await new Promise<void>((resolve) => {
      const feed = new ReplayFeed({ speed: 0, sources: hourly(50), onEnd: resolve });
      void feed.start(async () => void delivered++);
    });
    assert.equal(delivered, 200);
    assert.ok(deliveredWhenATimerRan !== undefined && deliveredWhenATimerRan < 200, `the timer ran after ${deliveredWhenATimerRan} of 200 batches`);
  });

  it('starts at a chosen time, dates ticks by the given clock and reports its position', async () => {
    const received: MarketTick[] = [];
    const positions: number[] = [];
    const now = new Date('2030-01-01T00:00:00Z');
    await new Promise<void>((resolve) => {
      const feed = new ReplayFeed({
        speed: 0,
        sources: hourly(3),
        from: new Date(2 * HOUR),
        stampWith: () => now,
        onPosition: (at) => positions.push(at.getTime() - 2 * HOUR),
        onEnd: resolve,
      });
      void feed.start(async (batch) => void received.push(...batch));
    });
    // The third candle's path: open, first extreme, second extreme, close (just before its end).
    assert.deepEqual(positions, [0, 1_200_000, 2_400_000, 3_599_999]);
    assert.ok(received.every((tick) => tick.at === now));
  });
});
