/** Market list entries and currency rates in the reference's shapes (decimals as strings). */
import type { ExchangeDescription } from '../../exchanges/exchange-connector.ts';
import type { Market, Ticker } from '../../exchanges/exchange.ts';

export const presentMarketListEntry = (market: ExchangeDescription) => ({
  market_name: market.name,
  market_url: market.marketUrl,
  market_icon: market.icon,
  help_link: market.helpLink,
  market_code: market.marketCode,
  form_fields: market.formFields,
  available_connection_flows: ['form'],
  third_party_allowed: false,
  trusted_ips: [],
  trusted_ips_input_type: 'inline',
  fast_connect_action_name: '',
});

export function presentCurrencyRates(market: Market, ticker: Ticker) {
  const r = market.rules;
  return {
    last: ticker.last.toFixed(),
    bid: ticker.bid.toFixed(),
    ask: ticker.ask.toFixed(),
    orderbook_ask: ticker.ask.toFixed(),
    orderbook_bid: ticker.bid.toFixed(),
    orderbook_last: ticker.last.toFixed(),
    orderbook_price_currency: market.quote,
    strategy_name: 'spot',
    contract_strategy_name: 'spot',
    instrumentKind: 'spot',
    minPrice: r.minPrice.toFixed(),
    maxPrice: r.maxPrice.toFixed(),
    priceStep: r.priceStep.toFixed(),
    minLotSize: r.minLotSize.toFixed(),
    maxLotSize: r.maxLotSize.toFixed(),
    lotStep: r.lotStep.toFixed(),
    maxMarketBuyAmount: r.maxMarketBuyAmount.toFixed(),
    maxMarketSellAmount: r.maxMarketSellAmount.toFixed(),
    bidMultiplierDown: r.bidMultiplierDown.toFixed(),
    bidMultiplierUp: r.bidMultiplierUp.toFixed(),
    askMultiplierUp: r.askMultiplierUp.toFixed(),
    askMultiplierDown: r.askMultiplierDown.toFixed(),
    minTotal: r.minTotal.toFixed(),
    minMarketTotal: r.minMarketTotal.toFixed(),
    maxTotal: r.maxTotal.toFixed(),
  };
}

/** Spot markets have no leverage: the only leverage type offered is none. */
export const SPOT_LEVERAGE_DATA = [
  {
    code: 'none',
    name: 'None',
    can_set_leverage_value: false,
    available_leverage_values: [],
    max_leverage: '1',
    valid: { min: 1, max: '1' },
  },
];

export function presentCurrencyRatesWithLeverage(market: Market, ticker: Ticker) {
  return {
    ...presentCurrencyRates(market, ticker),
    minMarketBuyAmount: market.rules.minLotSize.toFixed(),
    minMarketSellAmount: market.rules.minLotSize.toFixed(),
    leverage_data: SPOT_LEVERAGE_DATA,
  };
}
