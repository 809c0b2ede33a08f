import Type from 'typebox';
import type { Market, Ticker } from '../../../exchanges/exchange.ts';
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
    handler: async () => (await markets.describe()).map(presentMarketListEntry),
  }),
  ...['/ver1/accounts/market_pairs', '/v2/accounts/market_pairs'].map((url) =>
    defineRoute({
      method: 'GET',
      url,
      summary: 'Pairs of a market, in QUOTE_BASE form',
      tags: ['market data'],
      input: Type.Object({ market_code: MarketCode }),
      handler: async ({ input }) => (await markets.markets(input.market_code)).map((market) => market.pair),
    }),
  ),
  ratesRoute(markets, '/ver1/accounts/currency_rates', 'Prices and trading rules of a pair', presentCurrencyRates),
  ratesRoute(
    markets,
    '/ver1/accounts/currency_rates_with_leverage_data',
    'Prices, trading rules and leverage options of a pair',
    presentCurrencyRatesWithLeverage,
  ),
];

function ratesRoute(markets: MarketsService, url: string, summary: string, present: (market: Market, ticker: Ticker) => object) {
  return defineRoute({
    method: 'GET',
    url,
    summary,
    tags: ['market data'],
    input: RatesInput,
    handler: async ({ input }) =>
      present(await markets.market(input.market_code, input.pair), await markets.ticker(input.market_code, input.pair)),
  });
}
