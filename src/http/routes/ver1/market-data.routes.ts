import Type from 'typebox';
import type { MarketsService } from '../../../services/markets.service.ts';
import {
  presentCurrencyRates,
  presentCurrencyRatesWithLeverage,
  presentMarketListEntry,
} from '../../presenters/market.presenter.ts';
import { defineRoute } from '../../route.ts';
import { oneOf } from '../../schemas/common.ts';

const MarketCode = Type.String({ minLength: 1, maxLength: 64 });
const RatesInput = Type.Object({
  market_code: MarketCode,
  pair: Type.String({ minLength: 1, maxLength: 64 }),
  limit_type: Type.Optional(oneOf(['bot', 'smart_trade'])),
});

export const marketDataRoutes = (markets: MarketsService) => [
  defineRoute({
    method: 'GET',
    url: '/ver1/accounts/market_list',
    summary: 'Markets that can be connected, with the credentials each needs',
    tags: ['market data'],
    handler: () => markets.describe().map(presentMarketListEntry),
  }),
  defineRoute({
    method: 'GET',
    url: '/ver1/accounts/market_pairs',
    summary: 'Pairs of a market, in QUOTE_BASE form',
    tags: ['market data'],
    input: Type.Object({ market_code: MarketCode }),
    handler: async ({ input }) => (await markets.markets(input.market_code)).map((market) => market.pair),
  }),
  defineRoute({
    method: 'GET',
    url: '/ver1/accounts/currency_rates',
    summary: 'Prices and trading rules of a pair',
    tags: ['market data'],
    input: RatesInput,
    handler: async ({ input }) =>
      presentCurrencyRates(
        await markets.market(input.market_code, input.pair),
        await markets.ticker(input.market_code, input.pair),
      ),
  }),
  defineRoute({
    method: 'GET',
    url: '/ver1/accounts/currency_rates_with_leverage_data',
    summary: 'Prices, trading rules and leverage options of a pair',
    tags: ['market data'],
    input: RatesInput,
    handler: async ({ input }) =>
      presentCurrencyRatesWithLeverage(
        await markets.market(input.market_code, input.pair),
        await markets.ticker(input.market_code, input.pair),
      ),
  }),
];
