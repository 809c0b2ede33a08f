import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MarketTick } from '../domain/market/market-tick.ts';
import type { Ticker } from '../exchanges/exchange.ts';
import { dec } from '../shared/decimal.ts';
import { LiveFeed } from './live-feed.ts';

const ticker = (last: string): Ticker => ({ pair: 'USDT_BTC', bid: dec(last).minus(1), ask: dec(last).plus(1), last: dec(last), at: new Date(0) });

describe(LiveFeed.name, () => {
  it('fails to start when the exchange cannot be reached, so the caller can fall back', async () => {
    const feed = new LiveFeed({ pairs: ['USDT_BTC'], intervalMs: 5, fetchTickers: async () => Promise.reject(new Error('offline')) });
    await assert.rejects(feed.start(async () => {}), /offline/);
  });

  it('polls the tickers and passes bid, ask and last on', async () => {
    const prices = ['100', '101', '102'];
    let calls = 0;
    const feed = new LiveFeed({ pairs: ['USDT_BTC'], intervalMs: 5, fetchTickers: async () => [ticker(prices[Math.min(calls++, 2)]!)] });
    const received: MarketTick[] = [];
    await feed.start(async (ticks) => void received.push(...ticks));
    while (received.length < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    await feed.stop();
    assert.deepEqual(received.slice(0, 3).map((t) => `${t.bid?.toFixed()}/${t.price.toFixed()}/${t.ask?.toFixed()}`), ['99/100/101', '100/101/102', '101/102/103']);
  });

  it('keeps polling after a failed poll and reports it', async () => {
    let calls = 0;
    const errors: unknown[] = [];
    const feed = new LiveFeed({
      pairs: ['USDT_BTC'],
      intervalMs: 5,
      onError: (error) => errors.push(error),
      fetchTickers: async () => (calls++ === 1 ? Promise.reject(new Error('blip')) : [ticker('100')]),
    });
    const received: MarketTick[] = [];
    await feed.start(async (ticks) => void received.push(...ticks));
    while (received.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    await feed.stop();
    assert.equal(errors.length, 1);
  });
});
