/**
 * Values balances in USD and BTC from current prices: stablecoins count as one dollar, every
 * other currency goes through its USD-stablecoin pair. A currency without a price is valued at
 * zero and reported in `unpriced`, never guessed.
 */
import type { Balance, Ticker } from '../exchanges/exchange.ts';
import { dec, type Decimal, ZERO } from '../shared/decimal.ts';

export const USD_STABLECOINS = ['USDT', 'USD', 'USDC', 'BUSD', 'FDUSD', 'DAI'];

export type PriceLookup = (pair: string) => Ticker | undefined;

export interface ValuedBalance extends Balance {
  total: Decimal;
  /** Price of one unit in USD, undefined when unknown. */
  usdPrice: Decimal | undefined;
  usdValue: Decimal;
  btcValue: Decimal;
}

export function usdPrice(currency: string, prices: PriceLookup): Decimal | undefined {
  if (USD_STABLECOINS.includes(currency)) return dec(1);
  for (const quote of USD_STABLECOINS) {
    const ticker = prices(`${quote}_${currency}`);
    if (ticker && ticker.last.gt(0)) return ticker.last;
  }
  return undefined;
}

export function valueBalances(balances: readonly Balance[], prices: PriceLookup): ValuedBalance[] {
  const btcUsd = usdPrice('BTC', prices);
  return balances.map((balance) => {
    const total = balance.free.plus(balance.locked);
    const price = usdPrice(balance.currency, prices);
    const usdValue = price === undefined ? ZERO : total.times(price);
    const btcValue = balance.currency === 'BTC' ? total : btcUsd === undefined ? ZERO : usdValue.div(btcUsd);
    return { ...balance, total, usdPrice: price, usdValue, btcValue };
  });
}

export function sum(values: readonly Decimal[]): Decimal {
  return values.reduce((total, value) => total.plus(value), ZERO);
}
