/**
 * Points in time as every list, statistic and tick takes them: an ISO 8601 date or date-time with
 * `T` or a space, UTC unless it names a zone, or Unix seconds. Only instants from 1970 to the
 * end of 9999 are accepted: both stores and JavaScript dates hold them, and no trading record
 * lies outside them. Date.parse alone would take "2024-02-30" for March 1 and read text after a date.
 */
import Type from 'typebox';
import { Format } from 'typebox/format';

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;
const UNIX_SECONDS = /^\d{1,10}$/;
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

export function parseInstant(text: string): Date | undefined {
  const time = UNIX_SECONDS.test(text) ? Number(text) * 1000 : isoTime(text);
  return time === undefined || Number.isNaN(time) || time < 0 || time > LATEST ? undefined : new Date(time);
}

function isoTime(text: string): number | undefined {
  const match = ISO.exec(text);
  if (!match) return undefined;
  const [, year, month, day, hours = '00', minutes = '00', seconds = '00', fraction = '', zone = 'Z'] = match;
  const calendar = new Date(0);
  calendar.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  const valid =
    calendar.toISOString().slice(0, 10) === `${year}-${month}-${day}` &&
    Number(hours) < 24 && Number(minutes) < 60 && Number(seconds) < 60;
  if (!valid) return undefined;
  const offset = zone.toUpperCase() === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  return Date.parse(`${year}-${month}-${day}T${hours}:${minutes}:${seconds}${fraction.slice(0, 4)}${offset}`);
}

Format.Set('instant', (text) => parseInstant(text) !== undefined);

/** Validated as an instant, so a handler may read it with `instant()`; a bad one is `is invalid`. */
export const Instant = Type.String({
  format: 'instant',
  maxLength: 40,
  description: 'ISO 8601 date or date-time (T or a space; UTC unless a zone is given) or Unix seconds, 1970 to 9999',
});

/** Reads a value the Instant schema has already accepted. */
export function instant(text: string): Date {
  const parsed = parseInstant(text);
  if (parsed === undefined) throw new Error(`${text} was not validated as an instant`);
  return parsed;
}

/** The same for an optional value, as `{[name]: Date}` or nothing, ready to spread into a filter. */
export function optionalInstant<K extends string>(name: K, text: string | undefined): { [P in K]?: Date } {
  return (text === undefined ? {} : { [name]: instant(text) }) as { [P in K]?: Date };
}
