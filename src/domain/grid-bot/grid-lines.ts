/**
 * Grid line prices. N lines include both bounds: arithmetic lines sit d = (upper - lower)/(N - 1)
 * apart, geometric lines a ratio r = (upper/lower)^(1/(N - 1)) apart. Line k (k may run below 0 or
 * past N - 1 once the grid trails or expands) is lower + k·d or lower·r^k, put on the market's
 * price step the way the reference does: nearest step for arithmetic grids, the step above for
 * geometric ones (its example shows 0.0224133… as 0.022414).
 */
import { ceilToStep, compact, Decimal, roundToStep } from '../../shared/decimal.ts';
import type { GridType } from './grid-bot-config.ts';

export interface GridShape {
  gridType: GridType;
  lowerPrice: Decimal;
  upperPrice: Decimal;
  gridsQuantity: number;
}

/** Geometric prices are cut to this many digits before rounding up, so 72000.000…01 stays 72000. */
const GEOMETRIC_DIGITS = 40;

/** The distance (arithmetic) or ratio (geometric) between neighbouring lines. */
export function gridStep(shape: GridShape): Decimal {
  const intervals = shape.gridsQuantity - 1;
  return shape.gridType === 'arithmetic'
    ? shape.upperPrice.minus(shape.lowerPrice).div(intervals)
    : shape.upperPrice.div(shape.lowerPrice).pow(new Decimal(1).div(intervals));
}

/** Line k's price before rounding. */
export function rawLinePrice(shape: GridShape, step: Decimal, k: number): Decimal {
  if (shape.gridType === 'arithmetic') return shape.lowerPrice.plus(step.times(k));
  return shape.lowerPrice.times(step.pow(k)).toSignificantDigits(GEOMETRIC_DIGITS);
}

/** Line k's price, compact: every line keeps its own. */
export function linePrice(shape: GridShape, step: Decimal, k: number, priceStep: Decimal): Decimal {
  const raw = rawLinePrice(shape, step, k);
  return compact(shape.gridType === 'arithmetic' ? roundToStep(raw, priceStep) : ceilToStep(raw, priceStep));
}

/** The N starting line prices, lowest first. */
export function gridPrices(shape: GridShape, priceStep: Decimal): Decimal[] {
  const step = gridStep(shape);
  return Array.from({ length: shape.gridsQuantity }, (_, k) => linePrice(shape, step, k, priceStep));
}

/** True when no two lines share a price after rounding (the range holds that many lines). */
export function linesAreDistinct(prices: readonly Decimal[]): boolean {
  return prices.every((price, index) => index === 0 || price.gt(prices[index - 1]!));
}

/** The index of the price nearest `price` in ascending `prices` (the lower one of two equally near). */
export function nearestIndex(prices: readonly Decimal[], price: Decimal): number {
  let best = 0;
  for (let i = 1; i < prices.length; i += 1) {
    if (prices[i]!.minus(price).abs().lt(prices[best]!.minus(price).abs())) best = i;
  }
  return best;
}

/** `grid_price_step` as the reference prints it: 39 significant digits (16000/49 = 326.5306…102041). */
export function gridPriceStepText(shape: GridShape): string {
  return decimalText(gridStep(shape).toSignificantDigits(39));
}

/** Decimals the way the reference prints them: an integer keeps one decimal place ("56000.0"). */
export function decimalText(value: Decimal): string {
  const text = value.toFixed();
  return text.includes('.') ? text : `${text}.0`;
}

