import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import pg from 'pg';
import { parseTimestamptz } from './timestamptz.ts';

const general = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, 'text') as (text: string) => Date;
const pad = (value: number, length = 2) => String(value).padStart(length, '0');

/** An instant as PostgreSQL writes it at a given UTC offset, with 0 to 6 digits of fraction. */
const written = fc
  .record({
    ms: fc.integer({ min: Date.UTC(1, 0, 1), max: Date.UTC(9999, 11, 31) }),
    micros: fc.integer({ min: 0, max: 999 }),
    offsetMinutes: fc.integer({ min: -15 * 60, max: 15 * 60 }),
    fraction: fc.integer({ min: 0, max: 6 }),
  })
  .map(({ ms, micros, offsetMinutes, fraction }) => {
    const local = new Date(ms + offsetMinutes * 60_000);
    const digits = `${pad(local.getUTCMilliseconds(), 3)}${pad(micros, 3)}`.slice(0, fraction).replace(/0+$/, '');
    const sign = offsetMinutes < 0 ? '-' : '+';
    const hours = pad(Math.floor(Math.abs(offsetMinutes) / 60));
    const minutes = Math.abs(offsetMinutes) % 60;
    return (
      `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())} ` +
      `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}${digits ? `.${digits}` : ''}` +
      `${sign}${hours}${minutes ? `:${pad(minutes)}` : ''}`
    );
  });

describe('timestamptz as text', () => {
  it('reads the instant the pg driver reads, for any instant, offset and fraction PostgreSQL writes', () => {
    fc.assert(
      fc.property(written, (text) => {
        assert.equal(parseTimestamptz(text).getTime(), general(text).getTime(), text);
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves other forms to the general parser', () => {
    for (const text of ['infinity', '-infinity', '0044-03-15 12:00:00+00 BC', '2024-01-01 00:00:00+05:30:15']) {
      assert.deepEqual(String(parseTimestamptz(text)), String(general(text)), text);
    }
    assert.equal(parseTimestamptz('2024-02-29 23:59:59.999999+00').toISOString(), '2024-02-29T23:59:59.999Z');
    assert.equal(parseTimestamptz('2024-01-01 00:30:00-05:30').toISOString(), '2024-01-01T06:00:00.000Z');
  });
});
