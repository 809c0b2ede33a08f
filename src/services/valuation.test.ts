import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Ticker } from '../exchanges/exchange.ts';
import { dec, ZERO } from '../shared/decimal.ts';
import { type PriceLookup, valuationPairs, valueBalances } from './valuation.ts';

const prices = (last: Record<string, string>): PriceLookup => (pair) =>
  last[pair] === undefined ? undefined : ({ pair, bid: dec(last[pair]), ask: dec(last[pair]), last: dec(last[pair]), at: new Date(0) } satisfies Ticker);

const holding = (currency: string, free: string) => ({ currency, free: dec(free), locked: ZERO });

describe('valuationPairs', () => {
  it('takes the first USD-stablecoin pair a market lists, else the BTC pair, and always BTC’s dollar pair', () => {
    const available = new Set(['USD_BTC', 'USDT_BTC', 'USDC_ETH', 'BTC_XMR', 'ETH_DOGE']);
    assert.deepEqual(valuationPairs(['ETH', 'XMR', 'DOGE', 'USDT'], available), ['USDC_ETH', 'BTC_XMR', 'USDT_BTC']);
    assert.deepEqual(valuationPairs([], new Set()), []);
  });
});

describe('valueBalances', () => {
  it('values stablecoins at 1, others through their stablecoin pair or through BTC', () => {
    const valued = valueBalances(
      [holding('USDT', '100'), holding('BTC', '0.5'), holding('XMR', '2'), holding('LUNA', '7')],
      prices({ USDT_BTC: '60000', BTC_XMR: '0.003' }),
    );
    assert.deepEqual(
      valued.map((b) => [b.currency, b.usdPrice?.toFixed(), b.btcPrice?.toDecimalPlaces(8).toFixed(), b.usdValue.toFixed(), b.btcValue.toDecimalPlaces(8).toFixed()]),
      [
        ['USDT', '1', '0.00001667', '100', '0.00166667'],
        ['BTC', '60000', '1', '30000', '0.5'],
        ['XMR', '180', '0.003', '360', '0.006'],
        ['LUNA', undefined, undefined, '0', '0'],
      ],
    );
  });

  it('leaves BTC values at 0 while BTC has no dollar price, except BTC itself', () => {
    const valued = valueBalances([holding('USDT', '100'), holding('BTC', '0.5')], prices({}));
    assert.deepEqual(valued.map((b) => [b.currency, b.usdValue.toFixed(), b.btcValue.toFixed()]), [['USDT', '100', '0'], ['BTC', '0', '0.5']]);
  });
});
