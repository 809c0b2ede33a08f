/**
 * Decimals from ccxt's unified structures. ccxt parses exchange numbers into doubles; every value
 * an exchange sends (steps, limits, prices, amounts) has at most 15 significant digits, so the
 * double's shortest text form is the exchange's own decimal text, digit for digit. Strings (raw
 * `info` fields) are taken as they are.
 */
import { dec, type Decimal } from '../../shared/decimal.ts';

export function decimalOrUndefined(value: unknown): Decimal | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? dec(String(value)) : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    try {
      return dec(value.trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export function decimalOr(value: unknown, fallback: Decimal): Decimal {
  return decimalOrUndefined(value) ?? fallback;
}
