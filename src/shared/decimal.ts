/**
 * Exact decimals for money and quantities (decimal.js). Amounts travel as strings on the wire and
 * NUMERIC in SQL; never as floats.
 */
import { Decimal as DecimalJs } from 'decimal.js';

const D = DecimalJs.clone({ precision: 50, rounding: DecimalJs.ROUND_HALF_UP, toExpNeg: -30, toExpPos: 40 });

/**
 * decimal.js keeps its settings (precision, rounding, ...) as properties of the constructor and
 * reads them in every operation. The constructor has 63 of them, so V8 keeps them in a dictionary,
 * a hash lookup on each read. An object that other objects inherit from is given fast properties
 * again once a lookup goes through it: this makes the clone one, which made its arithmetic about
 * a quarter faster. If V8 stops doing so, nothing changes but the speed.
 */
const heir = Object.setPrototypeOf({}, D) as { precision: number };
const readThrough = () => heir.precision;
// A function gets the inline caches that do it after several calls (V8 allocates them at the 8th).
for (let i = 0; i < 32; i += 1) readThrough();

/** Read once for the comparisons below: this module's clone is configured once, above, and never changed. */
const { maxE: MAX_E, minE: MIN_E, ROUND_CEIL, ROUND_FLOOR, ROUND_HALF_UP } = D;

export { D as Decimal };
export type Decimal = InstanceType<typeof D>;
export type DecimalLike = Decimal | string | number;

export const ZERO = new D(0);

/**
 * A decimal of the value. Zero, the most frequent value read back (an open order's filled amount
 * and fee), is the one shared `ZERO`: decimals are never changed in place.
 */
export const dec = (value: DecimalLike): Decimal => (value === '0' || Object.is(value, 0) ? ZERO : new D(value));

/** The multiple of `step` nearest to `value`, halves away from zero (exchange price rounding). */
export function roundToStep(value: Decimal, step: Decimal): Decimal {
  const places = stepPlaces(step);
  if (places !== undefined) return value.toDecimalPlaces(places, ROUND_HALF_UP);
  return step.isZero() ? value : value.toNearest(step, ROUND_HALF_UP);
}

/** `sum` + `value`; from zero, `value` itself: sums that mostly start from zero make no new decimal. */
export const plus = (sum: Decimal, value: Decimal): Decimal => (sum.isZero() ? value : sum.plus(value));

/**
 * The same value in the least memory: decimal.js grows the digit array of a result past what it
 * needs (about 240 bytes a value, against 110 with the array cut to length, which is what a copy
 * makes). For values kept for long in numbers, such as a grid line's price and amount.
 */
export const compact = (value: Decimal): Decimal => new D(value);

/** Steps of 1, 0.1, 0.01, ... by their decimal places (undefined for any other step): see `stepPlaces`. */
const powerOfTenPlaces = new WeakMap<Decimal, number | undefined>();

/**
 * k when `step` is 10^-k (1, 0.1, 0.01, ...), as exchange price and lot steps nearly always are:
 * then a multiple of it is a value of at most k decimal places, and no division is needed.
 */
export function stepPlaces(step: Decimal): number | undefined {
  if (powerOfTenPlaces.has(step)) return powerOfTenPlaces.get(step);
  const places = /^(?:1|0\.0*1)$/.test(step.toFixed()) ? step.decimalPlaces() : undefined;
  powerOfTenPlaces.set(step, places);
  return places;
}

export function isMultipleOf(value: Decimal, step: Decimal): boolean {
  const places = stepPlaces(step);
  if (places !== undefined) return value.decimalPlaces() <= places;
  return step.isZero() || value.mod(step).isZero();
}

/** The multiple of `step` at or below `value`. */
export function floorToStep(value: Decimal, step: Decimal): Decimal {
  const places = stepPlaces(step);
  if (places !== undefined) return value.toDecimalPlaces(places, ROUND_FLOOR);
  return step.isZero() ? value : value.div(step).floor().times(step);
}

/**
 * `floorToStep(dividend / divisor, step)` for positive values, without working the quotient out
 * to the full precision first: only its whole number of steps is divided out, which is exact and
 * a fraction of the work (a quote-sized order's amount at a price).
 */
export function floorQuotientToStep(dividend: Decimal, divisor: Decimal, step: Decimal): Decimal {
  return step.isZero() ? dividend.div(divisor) : dividend.divToInt(divisor.times(step)).times(step);
}

/** The multiple of `step` at or above `value`. */
export function ceilToStep(value: Decimal, step: Decimal): Decimal {
  const places = stepPlaces(step);
  if (places !== undefined) return value.toDecimalPlaces(places, ROUND_CEIL);
  return step.isZero() ? value : value.div(step).ceil().times(step);
}

/** The powers of ten a double holds exactly: 1 to 1e22. */
const EXACT_POWERS_OF_TEN = Array.from({ length: 23 }, (_, k) => 10 ** k);

const digitCount = (word: number) => (word < 1e4 ? (word < 100 ? (word < 10 ? 1 : 2) : word < 1e3 ? 3 : 4) : word < 1e6 ? (word < 1e5 ? 5 : 6) : 7);

/**
 * The double nearest to `value`, as `value.toNumber()` gives it, without writing the value out
 * as text first (which the engine did for every bound it watches and every resting order). When
 * the digits make an integer below 2^53 and the decimal point moves at most 22 places, one
 * multiplication or division by an exact power of ten rounds once, to the nearest double
 * (Clinger's fast path); other values go through decimal.js.
 */
export function toDouble(value: Decimal): number {
  const words = value.d;
  if (!words || words.length > 3) return value.toNumber();
  let digits = 0;
  for (const word of words) digits = digits * 1e7 + word;
  if (digits > Number.MAX_SAFE_INTEGER) return value.toNumber();
  const shift = value.e + 1 - digitCount(words[0]!) - 7 * (words.length - 1);
  if (shift > 22 || shift < -22) return value.toNumber();
  const magnitude = shift >= 0 ? digits * EXACT_POWERS_OF_TEN[shift]! : digits / EXACT_POWERS_OF_TEN[-shift]!;
  return value.s < 0 ? -magnitude : magnitude;
}

/**
 * decimal.js copies its argument into a new Decimal before every comparison (`cmp`, and through
 * it `lt`, `gte`, `eq`, ...). Between two Decimals the copy changes nothing, and comparisons are
 * the most frequent decimal work of the engine and the paper venue (every tick, every book
 * insertion), so they compare in place here; anything else goes through decimal.js as before.
 */
const prototype = D.prototype as unknown as { cmp(y: DecimalLike): number; comparedTo(y: DecimalLike): number };
const copyingCompare = prototype.cmp;

function compareInPlace(this: Decimal, y: DecimalLike): number {
  if (!(y instanceof D) || !this.d || !y.d || y.e > MAX_E || y.e < MIN_E) return copyingCompare.call(this, y);
  const xd = this.d;
  const yd = y.d;
  const xs = this.s;
  const ys = y.s;
  if (!xd[0] || !yd[0]) return xd[0] ? xs : yd[0] ? -ys : 0;
  if (xs !== ys) return xs;
  if (this.e !== y.e) return (this.e > y.e) !== (xs < 0) ? 1 : -1;
  const length = Math.min(xd.length, yd.length);
  for (let i = 0; i < length; i += 1) {
    if (xd[i] !== yd[i]) return (xd[i]! > yd[i]!) !== (xs < 0) ? 1 : -1;
  }
  return xd.length === yd.length ? 0 : (xd.length > yd.length) !== (xs < 0) ? 1 : -1;
}

prototype.cmp = compareInPlace;
prototype.comparedTo = compareInPlace;

/** decimal.js's own comparison, for tests that hold the two to each other. */
export const referenceCompare = (x: Decimal, y: DecimalLike): number => copyingCompare.call(x, y);
