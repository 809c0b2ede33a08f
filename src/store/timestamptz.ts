/**
 * PostgreSQL's timestamptz as text in the ISO style it writes ("2024-01-01 00:00:00.123456+00",
 * an offset of hours, or hours and minutes), parsed through the engine's own ISO date parser: the
 * pg driver's general parser (three regular expressions with captures a value) took a third of a
 * second reading back a takeover's 22,500 open orders. Any other form (BC, infinity, an offset
 * with seconds) goes to the general parser. Microseconds are cut to milliseconds, as it does.
 */
import pg from 'pg';

const general = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, 'text') as (text: string) => Date;
const ISO_TIMESTAMPTZ = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{1,6})?[+-]\d\d(?::\d\d)?$/;
const COLON = 58;

export function parseTimestamptz(text: string): Date {
  if (!ISO_TIMESTAMPTZ.test(text)) return general(text);
  const minutes = text.charCodeAt(text.length - 3) === COLON;
  const offsetAt = text.length - (minutes ? 6 : 3);
  return new Date(`${text.slice(0, 10)}T${text.slice(11, offsetAt)}${text.slice(offsetAt)}${minutes ? '' : ':00'}`);
}
