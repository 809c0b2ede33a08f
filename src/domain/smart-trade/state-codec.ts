/**
 * Writes an automation's state as JSON and reads it back: decimals travel as `{"$d": "1.5"}` and
 * dates as `{"$t": "<ISO>"}`, so nothing is ever a float and every value comes back with its type.
 * Undefined properties are left out, as JSON does.
 */
import { Decimal, dec } from '../../shared/decimal.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function encodeState(value: unknown): Json {
  if (value instanceof Decimal) return { $d: value.toFixed() };
  if (value instanceof Date) return { $t: value.toISOString() };
  if (Array.isArray(value)) return value.map(encodeState);
  if (value !== null && typeof value === 'object') {
    const out: { [key: string]: Json } = {};
    const record = value as Record<string, unknown>;
    for (const key in record) {
      const item = record[key];
      if (item !== undefined && Object.hasOwn(record, key)) out[key] = encodeState(item);
    }
    return out;
  }
  return value as Json;
}

export function decodeState<T>(json: unknown): T {
  return decode(json) as T;
}

function decode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decode);
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    if (keys.length === 1 && typeof record.$d === 'string') return dec(record.$d);
    if (keys.length === 1 && typeof record.$t === 'string') return new Date(record.$t);
    return Object.fromEntries(keys.map((key) => [key, decode(record[key])]));
  }
  return value;
}
