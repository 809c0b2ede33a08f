import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MarketInterface } from 'ccxt';
import { MarketCatalog, pairFromCcxt, symbolFromPair } from './ccxt-market-catalog.ts';
import { PRECISION_MODE } from './ccxt-rules.ts';

const ccxtMarket = (symbol: string, changes: Partial<MarketInterface> = {}) => {
  const [base, quote] = symbol.split('/') as [string, string];
  return { symbol, base, quote, spot: true, active: true, precision: { amount: 0.001, price: 0.01 }, limits: {}, info: {}, ...changes } as MarketInterface;
};

describe('pair conversion', () => {
  it('writes ccxt BASE/QUOTE as QUOTE_BASE and back', () => {
    assert.equal(pairFromCcxt('BTC', 'USDT'), 'USDT_BTC');
    assert.equal(pairFromCcxt('ETH', 'BTC'), 'BTC_ETH');
    assert.equal(symbolFromPair('USDT_BTC'), 'BTC/USDT');
    assert.equal(symbolFromPair('usdt_1000sats'), '1000SATS/USDT');
  });

  it('leaves out codes the API cannot name', () => {
    assert.equal(pairFromCcxt('BTC.D', 'USDT'), undefined);
    assert.equal(pairFromCcxt('btc', 'USDT'), undefined);
  });
});

describe(MarketCatalog.name, () => {
  const catalog = new MarketCatalog('binance', [
    ccxtMarket('BTC/USDT'),
    ccxtMarket('LUNA/USDT', { active: false }),
    ccxtMarket('BTC/USDT:USDT', { spot: false, swap: true }),
    undefined,
  ], PRECISION_MODE.tickSize);

  it('keeps active spot markets only', () => {
    assert.deepEqual(catalog.markets.map((market) => market.pair), ['USDT_BTC']);
  });

  it('translates between pairs and the exchange’s symbols', () => {
    assert.equal(catalog.symbol('USDT_BTC'), 'BTC/USDT');
    assert.equal(catalog.symbol('usdt_btc'), 'BTC/USDT');
    assert.equal(catalog.pair('BTC/USDT'), 'USDT_BTC');
    assert.equal(catalog.pair('BTC/USDT:USDT'), undefined);
    assert.throws(() => catalog.symbol('USDT_LUNA'), { name: 'ExchangeError', kind: 'unknown_market' });
  });
});
