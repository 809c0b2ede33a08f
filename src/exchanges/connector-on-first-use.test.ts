import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { connectorOnFirstUse } from './connector-on-first-use.ts';
import type { ExchangeConnector } from './exchange-connector.ts';

const described = [{ marketCode: 'binance', name: 'Binance', marketUrl: '', helpLink: '', icon: '', formFields: { required: [], optional: [] }, streamsOrders: false }];

const loadedConnector: ExchangeConnector = {
  describe: async () => described,
  markets: async () => [],
  tickers: async (_marketCode, pairs) => pairs.map((pair) => ({ pair }) as never),
  connect: async () => {
    throw new Error('not in this test');
  },
};

describe('connectorOnFirstUse', () => {
  it('loads nothing until asked, then loads once for every caller', async () => {
    let loads = 0;
    const connector = connectorOnFirstUse(async () => {
      loads += 1;
      return loadedConnector;
    });
    assert.equal(loads, 0);
    const [first, second] = await Promise.all([connector.describe(), connector.describe()]);
    assert.deepEqual([first, second], [described, described]);
    assert.deepEqual(await connector.tickers('binance', ['BTC_USDT']), [{ pair: 'BTC_USDT' }]);
    assert.equal(loads, 1);
  });

  it('tries the load again at the next use after it failed', async () => {
    let loads = 0;
    const connector = connectorOnFirstUse(async () => {
      loads += 1;
      if (loads === 1) throw new Error('module missing');
      return loadedConnector;
    });
    await assert.rejects(connector.markets('binance'), /module missing/);
    assert.deepEqual(await connector.describe(), described);
    assert.equal(loads, 2);
  });
});
