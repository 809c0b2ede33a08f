/**
 * The paper market's pairs, with trading rules modelled on Binance spot's filters for the same
 * pairs (PRICE_FILTER, LOT_SIZE, MARKET_LOT_SIZE, NOTIONAL, PERCENT_PRICE_BY_SIDE).
 */
import type { TradingRules } from '../../domain/market/trading-rules.ts';
import { dec } from '../../shared/decimal.ts';
import type { Market } from '../exchange.ts';

interface RuleText {
  priceStep: string;
  minPrice: string;
  maxPrice: string;
  lotStep: string;
  minLotSize: string;
  maxLotSize: string;
  maxMarketAmount: string;
  minTotal: string;
  maxTotal: string;
}

const BAND = { bidMultiplierUp: dec(5), bidMultiplierDown: dec('0.2'), askMultiplierUp: dec(5), askMultiplierDown: dec('0.2') };

function rules(text: RuleText): TradingRules {
  return {
    minPrice: dec(text.minPrice),
    maxPrice: dec(text.maxPrice),
    priceStep: dec(text.priceStep),
    minLotSize: dec(text.minLotSize),
    maxLotSize: dec(text.maxLotSize),
    lotStep: dec(text.lotStep),
    minTotal: dec(text.minTotal),
    minMarketTotal: dec(text.minTotal),
    maxTotal: dec(text.maxTotal),
    maxMarketBuyAmount: dec(text.maxMarketAmount),
    maxMarketSellAmount: dec(text.maxMarketAmount),
    ...BAND,
  };
}

const market = (base: string, quote: string, text: RuleText): Market => ({
  pair: `${quote}_${base}`,
  base,
  quote,
  rules: rules(text),
});

export const PAPER_MARKETS: readonly Market[] = [
  market('BTC', 'USDT', {
    priceStep: '0.01', minPrice: '0.01', maxPrice: '1000000',
    lotStep: '0.00001', minLotSize: '0.00001', maxLotSize: '9000', maxMarketAmount: '120',
    minTotal: '5', maxTotal: '9000000',
  }),
  market('ETH', 'USDT', {
    priceStep: '0.01', minPrice: '0.01', maxPrice: '1000000',
    lotStep: '0.0001', minLotSize: '0.0001', maxLotSize: '9000', maxMarketAmount: '2000',
    minTotal: '5', maxTotal: '9000000',
  }),
  market('ETH', 'BTC', {
    priceStep: '0.00001', minPrice: '0.00001', maxPrice: '922327',
    lotStep: '0.0001', minLotSize: '0.0001', maxLotSize: '100000', maxMarketAmount: '2000',
    minTotal: '0.0001', maxTotal: '9000000',
  }),
  market('SOL', 'USDT', {
    priceStep: '0.01', minPrice: '0.01', maxPrice: '10000',
    lotStep: '0.001', minLotSize: '0.001', maxLotSize: '9000000', maxMarketAmount: '30000',
    minTotal: '5', maxTotal: '9000000',
  }),
];
