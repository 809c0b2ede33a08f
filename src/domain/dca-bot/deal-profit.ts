/**
 * A deal's profit: realised (what its balance changes add up to in the profit currency) and, for
 * an active deal, unrealised at the current price (a long position valued at the bid, a short one
 * bought back at the ask). USD and BTC values use the rates known when they are computed; for a
 * closed deal that is its close time.
 */
import type { StepContext } from '../automation.ts';
import { dec, type Decimal, ZERO } from '../../shared/decimal.ts';
import { type Deal, isLong } from './deal.ts';

/** Currencies counted as one US dollar. */
export const USD_CURRENCIES = ['USDT', 'USD', 'USDC', 'BUSD', 'FDUSD', 'DAI'];

type Prices = StepContext['price'];

export function usdRate(currency: string, prices: Prices): Decimal | undefined {
  if (USD_CURRENCIES.includes(currency)) return dec(1);
  for (const usd of USD_CURRENCIES) {
    const price = prices(`${usd}_${currency}`)?.last;
    if (price?.gt(0)) return price;
  }
  if (currency === 'BTC') return undefined;
  const inBtc = prices(`BTC_${currency}`)?.last;
  const btc = usdRate('BTC', prices);
  return inBtc?.gt(0) && btc ? inBtc.times(btc) : undefined;
}

export function profitCurrency(deal: Deal): string {
  return deal.settings.profitCurrency === 'base_currency' ? deal.base : deal.quote;
}

/** The realised profit so far, in the profit currency. */
export function realisedProfit(deal: Deal): Decimal {
  return dec(deal.settings.profitCurrency === 'base_currency' ? deal.baseDelta : deal.quoteDelta);
}

/** Profit if the position were closed now at `bid` (long) or `ask` (short), in the profit currency. */
export function unrealisedProfit(deal: Deal, bid: Decimal, ask: Decimal): Decimal {
  const base = dec(deal.baseDelta);
  const quote = dec(deal.quoteDelta);
  const price = isLong(deal) ? bid : ask;
  if (price.isZero()) return realisedProfit(deal);
  return deal.settings.profitCurrency === 'base_currency' ? base.plus(quote.div(price)) : quote.plus(base.times(price));
}

/** Percent of what the deal put in: its entry volume (quote profit) or entry amount (base profit). */
export function profitPercentage(deal: Deal, profit: Decimal): Decimal {
  const invested = dec(deal.settings.profitCurrency === 'base_currency' ? deal.entryAmount : deal.entryVolume);
  return invested.isZero() ? ZERO : profit.div(invested).times(100);
}

/**
 * Quote the deal has tied up: what its position cost (long) or is worth at entry (short), plus
 * what its working entry orders reserve.
 */
export function fundsLocked(deal: Deal): Decimal {
  const held = isLong(deal) ? dec(deal.quoteDelta).neg() : dec(deal.entryVolume).minus(dec(deal.exitVolume));
  const reserved = deal.orders
    .filter((order) => !order.cancelling && order.price !== null && (order.role === 'base' || order.role === 'safety' || order.role === 'manual_safety'))
    .reduce((sum, order) => sum.plus(dec(order.amount).minus(dec(order.filled)).times(dec(order.price!))), ZERO);
  return (held.gt(0) ? held : ZERO).plus(reserved);
}
