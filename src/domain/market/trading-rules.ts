/**
 * An exchange's trading rules for one market and the checks a live exchange applies to an order:
 * price on the priceStep grid and inside [minPrice, maxPrice]; amount on the lotStep grid and
 * inside [minLotSize, maxLotSize]; total at least minTotal (minMarketTotal for market orders);
 * a limit price within the price band around the current bid/ask.
 */
import { type Decimal, isMultipleOf } from '../../shared/decimal.ts';

export interface TradingRules {
  minPrice: Decimal;
  maxPrice: Decimal;
  priceStep: Decimal;
  minLotSize: Decimal;
  maxLotSize: Decimal;
  lotStep: Decimal;
  minTotal: Decimal;
  minMarketTotal: Decimal;
  maxTotal: Decimal;
  maxMarketBuyAmount: Decimal;
  maxMarketSellAmount: Decimal;
  /** A buy limit must lie within bid × [bidMultiplierDown, bidMultiplierUp]. */
  bidMultiplierUp: Decimal;
  bidMultiplierDown: Decimal;
  /** A sell limit must lie within ask × [askMultiplierDown, askMultiplierUp]. */
  askMultiplierUp: Decimal;
  askMultiplierDown: Decimal;
}

export interface OrderToCheck {
  side: 'buy' | 'sell';
  type: 'market' | 'limit';
  amount: Decimal;
  /** The limit price; for market orders the price the total is estimated at. */
  price: Decimal;
  /** `amount` × `price`, when the caller worked it out already. */
  total?: Decimal;
}

export interface Quote {
  bid: Decimal;
  ask: Decimal;
}

export type RuleViolation =
  | 'price_step'
  | 'price_range'
  | 'price_band'
  | 'lot_step'
  | 'lot_size'
  | 'min_total'
  | 'max_total'
  | 'market_amount';

export function ruleViolations(rules: TradingRules, order: OrderToCheck, quote?: Quote): RuleViolation[] {
  const violations: RuleViolation[] = [];
  const total = order.total ?? order.amount.times(order.price);
  if (order.type === 'limit') {
    if (!isMultipleOf(order.price, rules.priceStep)) violations.push('price_step');
    if (order.price.lt(rules.minPrice) || order.price.gt(rules.maxPrice)) violations.push('price_range');
    if (quote && outsideBand(rules, order, quote)) violations.push('price_band');
  }
  if (!isMultipleOf(order.amount, rules.lotStep)) violations.push('lot_step');
  if (order.amount.lt(rules.minLotSize) || order.amount.gt(rules.maxLotSize)) violations.push('lot_size');
  const minTotal = order.type === 'market' ? rules.minMarketTotal : rules.minTotal;
  if (total.lt(minTotal)) violations.push('min_total');
  if (total.gt(rules.maxTotal)) violations.push('max_total');
  if (order.type === 'market') {
    const cap = order.side === 'buy' ? rules.maxMarketBuyAmount : rules.maxMarketSellAmount;
    if (order.amount.gt(cap)) violations.push('market_amount');
  }
  return violations;
}

interface Band {
  low: Decimal;
  high: Decimal;
}

/**
 * The bands of the quotes orders were last checked against, with the rules they were worked out
 * for. A quote is never changed once made, and the orders of a batch are checked against the same
 * few: their bands were two multiplications per order.
 */
const bands = new WeakMap<Quote, { rules: TradingRules; buy?: Band | null; sell?: Band | null }>();

function outsideBand(rules: TradingRules, order: OrderToCheck, quote: Quote): boolean {
  let known = bands.get(quote);
  if (known?.rules !== rules) bands.set(quote, (known = { rules }));
  const band = (known[order.side] ??= bandOf(rules, order.side, quote));
  return band !== null && (order.price.lt(band.low) || order.price.gt(band.high));
}

/** Null when the reference price is zero: no band then. */
function bandOf(rules: TradingRules, side: 'buy' | 'sell', quote: Quote): Band | null {
  const [reference, down, up] =
    side === 'buy' ? [quote.bid, rules.bidMultiplierDown, rules.bidMultiplierUp] : [quote.ask, rules.askMultiplierDown, rules.askMultiplierUp];
  return reference.isZero() ? null : { low: reference.times(down), high: reference.times(up) };
}

export const VIOLATION_MESSAGES: Record<RuleViolation, string> = {
  price_step: 'price is not a multiple of the price step',
  price_range: 'price is outside the allowed price range',
  price_band: 'price is too far from the current market price',
  lot_step: 'amount is not a multiple of the lot step',
  lot_size: 'amount is outside the allowed lot size',
  min_total: 'order total is below the minimum total',
  max_total: 'order total is above the maximum total',
  market_amount: 'amount is above the maximum for a market order',
};
