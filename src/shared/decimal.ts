/**
 * Exact decimals for money and quantities (decimal.js). Amounts travel as strings on the wire and
 * NUMERIC in SQL; never as floats.
 */
import { Decimal as DecimalJs } from 'decimal.js';

const D = DecimalJs.clone({ precision: 50, rounding: DecimalJs.ROUND_HALF_UP, toExpNeg: -30, toExpPos: 40 });

export { D as Decimal };
export type Decimal = InstanceType<typeof D>;
export type DecimalLike = Decimal | string | number;

export const dec = (value: DecimalLike): Decimal => new D(value);

export const ZERO = new D(0);

/** The multiple of `step` nearest to `value`, halves away from zero (exchange price rounding). */
export function roundToStep(value: Decimal, step: Decimal): Decimal {
  return step.isZero() ? value : value.toNearest(step, D.ROUND_HALF_UP);
}

export function isMultipleOf(value: Decimal, step: Decimal): boolean {
  return step.isZero() || value.mod(step).isZero();
}

