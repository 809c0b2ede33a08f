import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import pg from 'pg';
import { arrayText, inlineParams, literal } from './inline-params.ts';

const { prepareValue } = (pg as unknown as { utils: { prepareValue(value: unknown): unknown } }).utils;

describe(inlineParams.name, () => {
  it('writes each parameter in as a literal, $10 apart from $1', () => {
    const params = [[1, 2], "it's", 3, 4, 5, 6, 7, 8, 9, null];
    assert.equal(inlineParams('SELECT $1::bigint[], $2, $10, $1', params), 'SELECT  $tl${"1","2"}$tl$::bigint[],  $tl$it\'s$tl$, NULL,  $tl${"1","2"}$tl$');
  });

  it('leaves a $ inside quoted text, quoted names and comments alone', () => {
    const text = `SELECT '$1', "a$1", to_char(x, 'YYYY"T"') -- it's $1\n, $1`;
    assert.equal(inlineParams(text, ['v']), `SELECT '$1', "a$1", to_char(x, 'YYYY"T"') -- it's $1\n,  $tl$v$tl$`);
  });

  it('refuses a statement that uses a parameter it was not given', () => {
    assert.throws(() => inlineParams('SELECT $2', ['only one']), /\$2 but has 1 parameters/);
  });
});

describe(literal.name, () => {
  it('takes text as it is, quotes and backslashes included, and NULL inside arrays', () => {
    assert.equal(literal('a\\b\'c'), " $tl$a\\b'c$tl$");
    assert.equal(literal(['x"y', null]), ' $tl${"x\\"y",NULL}$tl$');
    assert.equal(literal(undefined), 'NULL');
  });

  it('quotes text holding its tag as an escape string instead', () => {
    assert.equal(literal("$tl$ it's \\"), String.raw` E'$tl$ it''s \\'`);
    assert.equal(literal(['a', 'x$tl$y', null]), `'{"a","x$tl$y",NULL}'`);
  });

  it('refuses a NUL character as PostgreSQL does, instead of cutting the statement short', () => {
    assert.throws(() => literal(['fine', 'cut\u0000here']), (error: Error & { code?: string }) => error.code === '22021');
  });
});

describe(arrayText.name, () => {
  it("writes an array of text, numbers, booleans, dates and nulls exactly as the driver does", () => {
    const element = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.constantFrom('NULL', '"', '\\', '{a,b}', ' ', ''),
      fc.double(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.date({ noInvalidDate: true }),
    );
    fc.assert(fc.property(fc.array(element, { maxLength: 12 }), (values) => assert.equal(arrayText(values), prepareValue(values))));
  });

  it('writes the same time as the driver in every array, whichever Date object holds it', () => {
    const times = fc.constantFrom(Date.UTC(2024, 0, 1), Date.UTC(2024, 6, 1, 12, 30, 0, 5), Date.UTC(-1, 0, 1), Date.UTC(12000, 0, 1));
    fc.assert(
      fc.property(fc.array(fc.array(times, { maxLength: 6 }), { maxLength: 4 }), (arrays) => {
        for (const dates of arrays.map((array) => array.map((time) => new Date(time)))) assert.equal(arrayText(dates), prepareValue(dates));
      }),
    );
  });

  it('leaves other values to the driver', () => {
    assert.equal(arrayText([[1]]), undefined);
    assert.equal(arrayText([{ a: 1 }]), undefined);
    assert.equal(literal([[1, 2], [3, 4]]), ' $tl${{"1","2"},{"3","4"}}$tl$');
  });
});
