/**
 * What a grid needs to run: quote for every buy line, base for every sell line. When one side is
 * short, a balancing order converts the other side's surplus inside the pair: it buys only the
 * missing base (or sells for only the missing quote), grossed up by the fee so that what arrives
 * after the fee still covers the lines.
 */
import type { Side } from '../automation.ts';
import type { TradingRules } from '../market/trading-rules.ts';
import { ceilToStep, Decimal, ZERO } from '../../shared/decimal.ts';
import type { GridLine } from './grid-bot-state.ts';

export interface Amounts {
  base: Decimal;
  quote: Decimal;
}

export interface RequiredBalances {
  required: Amounts;
  missing: Amounts;
  needBalancing: boolean;
  balancingAvailable: boolean;
  /** What balancing has to bring in: the missing amount, in the currency that is missing. */
  necessary: { quantity: Decimal; currency: 'base' | 'quote' };
  /** The market order that balances the grid, when one is needed and possible. */
  balancing: { side: Side; amount: Decimal } | null;
}

export function requiredFor(lines: readonly GridLine[]): Amounts {
  let base = ZERO;
  let quote = ZERO;
  for (const line of lines) {
    if (line.side === 'sell') base = base.plus(line.amount);
    else if (line.side === 'buy') quote = quote.plus(line.amount.times(line.price));
  }
  return { base, quote };
}

export const isMarked = (lines: readonly GridLine[]) => lines.some((line) => line.side !== null);

/**
 * `available` is what the bot may use: the account's free funds plus what the bot's own open
 * orders hold. `feeRate` is the taker fee the balancing order is expected to pay.
 */
export function requiredBalances(
  lines: readonly GridLine[],
  available: Amounts,
  price: Decimal,
  rules: TradingRules,
  feeRate: Decimal,
): RequiredBalances {
  const required = requiredFor(lines);
  const missing = {
    base: Decimal.max(ZERO, required.base.minus(available.base)),
    quote: Decimal.max(ZERO, required.quote.minus(available.quote)),
  };
  const keep = new Decimal(1).minus(feeRate);
  const base = { required, missing };
  if (missing.base.isZero() && missing.quote.isZero()) {
    return { ...base, needBalancing: false, balancingAvailable: true, necessary: { quantity: ZERO, currency: 'quote' }, balancing: null };
  }
  if (!missing.base.isZero() && !missing.quote.isZero()) {
    const shortfall = missing.quote.plus(missing.base.times(price));
    return { ...base, needBalancing: true, balancingAvailable: false, necessary: { quantity: shortfall, currency: 'quote' }, balancing: null };
  }
  if (!missing.base.isZero()) {
    const amount = marketAmount(missing.base.div(keep), price, rules);
    const surplusQuote = available.quote.minus(required.quote);
    const possible = surplusQuote.gte(amount.times(price));
    return {
      ...base,
      needBalancing: true,
      balancingAvailable: possible,
      necessary: { quantity: missing.base, currency: 'base' },
      balancing: possible ? { side: 'buy', amount } : null,
    };
  }
  const amount = marketAmount(missing.quote.div(price.times(keep)), price, rules);
  const possible = available.base.minus(required.base).gte(amount);
  return {
    ...base,
    needBalancing: true,
    balancingAvailable: possible,
    necessary: { quantity: missing.quote, currency: 'quote' },
    balancing: possible ? { side: 'sell', amount } : null,
  };
}

/** At least `amount`, on the lot step, and large enough for the market's minimums. */
function marketAmount(amount: Decimal, price: Decimal, rules: TradingRules): Decimal {
  const forTotal = ceilToStep(rules.minMarketTotal.div(price), rules.lotStep);
  return Decimal.max(ceilToStep(amount, rules.lotStep), rules.minLotSize, forTotal);
}
