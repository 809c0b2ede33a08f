import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MarketInterface } from 'ccxt';
import { NO_UPPER_LIMIT, PRECISION_MODE, stepFromPrecision, tradingRulesFrom } from './ccxt-rules.ts';

const text = (rules: object) => Object.fromEntries(Object.entries(rules).map(([key, value]) => [key, String(value)]));

function ccxtMarket(overrides: Partial<MarketInterface>): MarketInterface {
  return {
    id: 'XYZABC', symbol: 'XYZ/ABC', base: 'XYZ', quote: 'ABC', spot: true, active: true,
    precision: { amount: 0.001, price: 0.0001 }, limits: {}, info: {}, ...overrides,
  } as MarketInterface;
}

describe(stepFromPrecision.name, () => {
  const cases: [unknown, number, string][] = [
    [0.01, PRECISION_MODE.tickSize, '0.01'],
    [1e-8, PRECISION_MODE.tickSize, '0.00000001'],
    [0.00001, PRECISION_MODE.tickSize, '0.00001'],
    [5, PRECISION_MODE.tickSize, '5'],
    ['0.00010000', PRECISION_MODE.tickSize, '0.0001'],
    [2, PRECISION_MODE.decimalPlaces, '0.01'],
    [8, PRECISION_MODE.decimalPlaces, '0.00000001'],
    [0, PRECISION_MODE.decimalPlaces, '1'],
    [-1, PRECISION_MODE.decimalPlaces, '10'],
    [4, PRECISION_MODE.significantDigits, '0'],
    [undefined, PRECISION_MODE.tickSize, '0'],
    [0, PRECISION_MODE.tickSize, '0'],
  ];
  for (const [precision, mode, step] of cases) {
    it(`reads ${String(precision)} in mode ${mode} as step ${step}`, () => {
      assert.equal(stepFromPrecision(precision, mode).toFixed(), step);
    });
  }
});

describe(tradingRulesFrom.name, () => {
  it('maps unified limits and leaves what the exchange does not state permissive', () => {
    const rules = tradingRulesFrom(
      ccxtMarket({ precision: { amount: 3, price: 2 }, limits: { amount: { min: 0.001, max: undefined }, cost: { min: 10, max: undefined } } }),
      PRECISION_MODE.decimalPlaces,
    );
    assert.deepEqual(text(rules), {
      minPrice: '0.01', maxPrice: NO_UPPER_LIMIT.toFixed(), priceStep: '0.01',
      minLotSize: '0.001', maxLotSize: NO_UPPER_LIMIT.toFixed(), lotStep: '0.001',
      minTotal: '10', minMarketTotal: '10', maxTotal: NO_UPPER_LIMIT.toFixed(),
      maxMarketBuyAmount: NO_UPPER_LIMIT.toFixed(), maxMarketSellAmount: NO_UPPER_LIMIT.toFixed(),
      bidMultiplierUp: NO_UPPER_LIMIT.toFixed(), bidMultiplierDown: '0', askMultiplierUp: NO_UPPER_LIMIT.toFixed(), askMultiplierDown: '0',
    });
  });

  it('takes the market order cap from ccxt limits.market, else from the lot size', () => {
    const capped = tradingRulesFrom(ccxtMarket({ limits: { amount: { min: 1, max: 500 }, market: { min: 0, max: 120 } } }), PRECISION_MODE.tickSize);
    assert.equal(capped.maxMarketBuyAmount.toFixed(), '120');
    const uncapped = tradingRulesFrom(ccxtMarket({ limits: { amount: { min: 1, max: 500 } } }), PRECISION_MODE.tickSize);
    assert.equal(uncapped.maxMarketSellAmount.toFixed(), '500');
  });

  it('reads the older Binance filters: symmetric PERCENT_PRICE and MIN_NOTIONAL not applied to market orders', () => {
    const rules = tradingRulesFrom(
      ccxtMarket({
        limits: { cost: { min: 0.0001, max: undefined } },
        info: {
          filters: [
            { filterType: 'PERCENT_PRICE', multiplierUp: '1.1500', multiplierDown: '0.8500', avgPriceMins: 5 },
            { filterType: 'MIN_NOTIONAL', minNotional: '0.00010000', applyToMarket: false, avgPriceMins: 5 },
            { filterType: 'MARKET_LOT_SIZE', minQty: '0.00000000', maxQty: '63100.00000000', stepSize: '0.00000000' },
          ],
        },
      }),
      PRECISION_MODE.tickSize,
    );
    assert.deepEqual(
      [rules.minTotal, rules.minMarketTotal, rules.maxMarketBuyAmount, rules.bidMultiplierUp, rules.bidMultiplierDown, rules.askMultiplierUp, rules.askMultiplierDown].map(String),
      ['0.0001', '0', '63100', '1.15', '0.85', '1.15', '0.85'],
    );
  });
});
