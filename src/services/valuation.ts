/**
 * Values balances in USD and BTC from current prices: stablecoins count as one dollar, every
 * other currency goes through its USD-stablecoin pair, or through its BTC pair and BTC's dollar
 * price where the market has no stablecoin pair for it. A currency without a price is valued at
 * zero (usdPrice undefined), never guessed.
 */
import type { Balance, Ticker } from '../exchanges/exchange.ts';
import { dec, type Decimal, ZERO } from '../shared/decimal.ts';

export const USD_STABLECOINS = ['USDT', 'USD', 'USDC', 'BUSD', 'FDUSD', 'DAI'];

export type PriceLookup = (pair: string) => Ticker | undefined;

export interface ValuedBalance extends Balance {
  total: Decimal;
  /** Price of one unit in USD, undefined when unknown. */
  usdPrice: Decimal | undefined;
  /** Price of one unit in BTC, undefined when unknown. */
  btcPrice: Decimal | undefined;
  usdValue: Decimal;
  btcValue: Decimal;
}

const positive = (ticker: Ticker | undefined) => (ticker !== undefined && ticker.last.gt(0) ? ticker.last : undefined);

export function usdPrice(currency: string, prices: PriceLookup): Decimal | undefined {
  if (USD_STABLECOINS.includes(currency)) return dec(1);
  for (const quote of USD_STABLECOINS) {
    const price = positive(prices(`${quote}_${currency}`));
    if (price) return price;
  }
  if (currency === 'BTC') return undefined;
  const inBtc = positive(prices(`BTC_${currency}`));
  const btcUsd = usdPrice('BTC', prices);
  return inBtc && btcUsd ? inBtc.times(btcUsd) : undefined;
}

/**
 * The pairs whose prices value `currencies` on a market that lists `available` pairs: the first
 * USD-stablecoin pair of each, else its BTC pair; BTC's own dollar pair is always among them.
 */
export function valuationPairs(currencies: readonly string[], available: ReadonlySet<string>): string[] {
  const pairs = new Set<string>();
  for (const currency of new Set([...currencies, 'BTC'])) {
    if (USD_STABLECOINS.includes(currency)) continue;
    const stable = USD_STABLECOINS.map((quote) => `${quote}_${currency}`).find((pair) => available.has(pair));
    const viaBtc = currency === 'BTC' ? undefined : `BTC_${currency}`;
    if (stable) pairs.add(stable);
    else if (viaBtc && available.has(viaBtc)) pairs.add(viaBtc);
  }
  return [...pairs];
}

export function valueBalances(balances: readonly Balance[], prices: PriceLookup): ValuedBalance[] {
  const btcUsd = usdPrice('BTC', prices);
  return balances.map((balance) => {
    const total = balance.free.plus(balance.locked);
    const price = usdPrice(balance.currency, prices);
    const usdValue = price === undefined ? ZERO : total.times(price);
    const btcPrice = balance.currency === 'BTC' ? dec(1) : price === undefined || btcUsd === undefined ? undefined : price.div(btcUsd);
    const btcValue = balance.currency === 'BTC' ? total : btcUsd === undefined ? ZERO : usdValue.div(btcUsd);
    return { ...balance, total, usdPrice: price, btcPrice, usdValue, btcValue };
  });
}

export function sum(values: readonly Decimal[]): Decimal {
  return values.reduce((total, value) => total.plus(value), ZERO);
}
