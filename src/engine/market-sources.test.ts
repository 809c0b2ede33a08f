import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PaperVenue } from '../exchanges/paper/paper-venue.ts';
import { PAPER_MARKETS } from '../exchanges/paper/paper-markets.ts';
import { dec } from '../shared/decimal.ts';
import { MarketSources } from './market-sources.ts';

describe('MarketSources', () => {
  it('hears a paper ticker once when the paper accounts attach together', async () => {
    const venue = new PaperVenue(PAPER_MARKETS);
    const heard: string[] = [];
    const sources = new MarketSources(async (accountId) => venue.openAccount(accountId, []), {
      onTicker: (source, ticker) => heard.push(`${source} ${ticker.pair}`),
      onOrderUpdate: () => {},
      onConnectionChange: () => {},
    });

    await Promise.all([1, 2, 3].map((accountId) => sources.attach(accountId)));
    venue.applyTick({ pair: 'USDT_BTC', price: dec('60000'), at: new Date(Date.UTC(2026, 0, 1)) });

    assert.deepEqual(heard, ['paper USDT_BTC']);
    assert.deepEqual([1, 2, 3].map((accountId) => sources.sourceOf(accountId)), ['paper', 'paper', 'paper']);
    assert.ok(sources.rules('paper', 'USDT_BTC'));
  });
});
