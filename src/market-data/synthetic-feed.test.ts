import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MarketTick } from '../domain/market/market-tick.ts';
import { dec } from '../shared/decimal.ts';
import { SyntheticFeed } from './synthetic-feed.ts';

const options = (seed: number) => ({
  pairs: [{ pair: 'USDT_BTC', startPrice: dec('60000'), priceStep: dec('0.01') }],
  seed,
  intervalMs: 1000,
  startAt: new Date(Date.UTC(2024, 0, 1)),
});
const walk = (seed: number) => {
  const feed = new SyntheticFeed(options(seed));
  return Array.from({ length: 200 }, () => feed.nextBatch()[0]!.price.toFixed());
};

describe(SyntheticFeed.name, () => {
  it('repeats the same walk for the same seed and another for another seed', () => {
    assert.deepEqual(walk(42), walk(42));
    assert.notDeepEqual(walk(42), walk(43));
  });

  it('moves at most the step size per tick, on the price grid', () => {
    const prices = walk(7).map(Number);
    prices.reduce((previous, price) => {
      assert.ok(Math.abs(price / previous - 1) <= 0.0021);
      assert.equal(Math.round(price * 100) / 100, price);
      return price;
    }, 60000);
  });

  it('delivers batches from its timer until stopped', async () => {
    const feed = new SyntheticFeed({ ...options(1), intervalMs: 5 });
    const received: MarketTick[][] = [];
    await feed.start(async (ticks) => void received.push(ticks));
    while (received.length < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    await feed.stop();
    const count = received.length;
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.equal(received.length, count);
    assert.equal(received[1]![0]!.at.getTime() - received[0]![0]!.at.getTime(), 5);
  });
});
