/**
 * A currency's dollar rate from the automation's market prices: USD stablecoins count as one
 * dollar, anything else goes through its stablecoin pair. Unknown rates stay unknown.
 */
import type { StepContext } from '../automation.ts';
import { type Decimal, dec } from '../../shared/decimal.ts';

const USD_STABLECOINS = ['USDT', 'USD', 'USDC', 'BUSD', 'FDUSD', 'DAI'];
const ONE = dec(1);

export function usdRate(currency: string, ctx: Pick<StepContext, 'price'>): Decimal | undefined {
  if (USD_STABLECOINS.includes(currency)) return ONE;
  for (const stable of USD_STABLECOINS) {
    const ticker = ctx.price(`${stable}_${currency}`);
    if (ticker && ticker.last.gt(0)) return ticker.last;
  }
  return undefined;
}

/** The pair whose price gives the currency's dollar rate, if it needs one. */
export const usdPairs = (currency: string): string[] => (USD_STABLECOINS.includes(currency) ? [] : [`USDT_${currency}`]);
