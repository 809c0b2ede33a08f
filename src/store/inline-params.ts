/**
 * A statement with its parameters written into it as literals, so that several statements can go
 * to PostgreSQL in one simple query (one round trip) instead of one extended query each. Values
 * become the same text the driver sends as parameters (`prepareValue`), quoted as a literal; a
 * quoted literal is typed from its context exactly as a parameter is, and the statements' casts
 * (`$1::bigint[]`) apply to it as they did to the parameter.
 */
import pg from 'pg';

/** The driver's own conversion of a parameter (its typings leave `utils` out). */
const { prepareValue } = (pg as unknown as { utils: { prepareValue(value: unknown): string | Buffer | null } }).utils;

export function inlineParams(text: string, params: readonly unknown[]): string {
  if (params.length === 0) return text;
  let out = '';
  let from = 0;
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at];
    if (char === "'" || char === '"') {
      // Quoted text and identifiers are copied as they are; a doubled quote stays inside.
      const close = text.indexOf(char, at + 1);
      at = close === -1 ? text.length : close;
      continue;
    }
    if (char === '-' && text[at + 1] === '-') {
      const end = text.indexOf('\n', at);
      at = end === -1 ? text.length : end;
      continue;
    }
    if (char !== '$') continue;
    const digits = /^\d+/.exec(text.slice(at + 1, at + 8))?.[0];
    if (digits === undefined) continue;
    const index = Number(digits) - 1;
    if (index < 0 || index >= params.length) throw new Error(`The statement uses $${digits} but has ${params.length} parameters`);
    out += text.slice(from, at) + literal(params[index]);
    from = at + 1 + digits.length;
    at = from - 1;
  }
  return out + text.slice(from);
}

export function literal(value: unknown): string {
  const array = Array.isArray(value) ? arrayText(value) : undefined;
  if (array !== undefined) {
    // Checked on the values, not on the array's text: that is built by concatenation, and a
    // search of it copies it whole (a batch's arrays are most of its statements' text).
    let tagged = false;
    for (const element of value as unknown[]) {
      if (typeof element !== 'string') continue;
      if (element.includes('\0')) throw nulRefused();
      tagged ||= element.includes(TAG);
    }
    return quote(array, tagged);
  }
  const prepared = prepareValue(value);
  if (prepared === null) return 'NULL';
  if (Buffer.isBuffer(prepared)) return `'\\x${prepared.toString('hex')}'`;
  if (prepared.includes('\0')) throw nulRefused();
  return quote(prepared, prepared.includes(TAG));
}

/** A statement's text ends at a NUL: refused here as PostgreSQL refuses it in a parameter. */
const nulRefused = () => Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });

/**
 * An array's text exactly as the driver writes it (`arrayString`), for the values an engine batch
 * carries (text, numbers, booleans, dates, nulls); anything else is left to the driver. The
 * driver escapes each element in two passes of its own: a tenth of an engine's CPU per stored
 * batch in the grid benchmark.
 */
export function arrayText(values: readonly unknown[]): string | undefined {
  let text = '{';
  for (let index = 0; index < values.length; index += 1) {
    const value = values[index];
    if (index > 0) text += ',';
    if (value === null || value === undefined) text += 'NULL';
    // JSON quotes text as the driver does (a backslash before each `"` and `\\`), several times
    // faster than a replace, but for control characters and surrogates, which it spells otherwise.
    else if (typeof value === 'string') text += JSON_SPELLS_OTHERWISE.test(value) ? `"${value.replace(TO_ESCAPE, '\\$&')}"` : JSON.stringify(value);
    else if (typeof value === 'number' || typeof value === 'boolean') text += `"${String(value)}"`;
    else if (value instanceof Date) text += `"${dateText(value)}"`;
    else return undefined;
  }
  return `${text}}`;
}

/**
 * A date as the driver writes it (local time with its offset, `dateToString`), made natively when
 * local time is UTC, as on a server: the driver's padding of each field was 7 % of what the grid
 * benchmark's stored replay allocated.
 */
function dateText(date: Date): string {
  // A column's dates are mostly one time (a batch's rows share its time): the time zone and the
  // text of each were 3 % of an engine's CPU in the grid benchmark's stored replay.
  const time = date.getTime();
  if (time === lastDate.time) return lastDate.text;
  const year = date.getUTCFullYear();
  const text = year < 1 || year > 9999 || date.getTimezoneOffset() !== 0 ? (prepareValue(date) as string) : `${date.toISOString().slice(0, 23)}+00:00`;
  lastDate = { time, text };
  return text;
}

let lastDate = { time: Number.NaN, text: '' };

const JSON_SPELLS_OTHERWISE = /[\u0000-\u001f\ud800-\udfff]/;
const TO_ESCAPE = /[\\"]/g;

/**
 * A literal PostgreSQL takes as it is: dollar-quoted, so that neither side escapes anything (a
 * batch's arrays of JSON are full of quotes and backslashes; as escape strings, the live-latency
 * benchmark's burst took a third longer to store), unless the text holds the tag. Not the
 * driver's `escapeLiteral`, which builds a literal a character at a time: with a batch's arrays
 * of several kilobytes, that garbage doubled the CPU an engine spent per tick.
 */
function quote(text: string, holdsTag: boolean): string {
  // The space keeps the tag from joining an identifier before it.
  if (!holdsTag) return ` ${TAG}${text}${TAG}`;
  const quoted = `'${text.replaceAll("'", "''")}'`;
  return text.includes('\\') ? ` E${quoted.replaceAll('\\', '\\\\')}` : quoted;
}

const TAG = '$tl$';
