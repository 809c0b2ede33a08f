import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inlineParams, literal } from './inline-params.ts';

describe(inlineParams.name, () => {
  it('writes each parameter in as a literal, $10 apart from $1', () => {
    const params = [[1, 2], "it's", 3, 4, 5, 6, 7, 8, 9, null];
    assert.equal(inlineParams('SELECT $1::bigint[], $2, $10, $1', params), `SELECT '{"1","2"}'::bigint[], 'it''s', NULL, '{"1","2"}'`);
  });

  it('leaves a $ inside quoted text, quoted names and comments alone', () => {
    const text = `SELECT '$1', "a$1", to_char(x, 'YYYY"T"') -- it's $1\n, $1`;
    assert.equal(inlineParams(text, ['v']), `SELECT '$1', "a$1", to_char(x, 'YYYY"T"') -- it's $1\n, 'v'`);
  });

  it('refuses a statement that uses a parameter it was not given', () => {
    assert.throws(() => inlineParams('SELECT $2', ['only one']), /\$2 but has 1 parameters/);
  });

  it('quotes backslashes as an escape string and keeps NULL inside arrays', () => {
    assert.equal(literal('a\\b'), String.raw` E'a\\b'`);
    assert.equal(literal(['x"y', null]), String.raw` E'{"x\\"y",NULL}'`);
    assert.equal(literal(undefined), 'NULL');
  });

  it('refuses a NUL character as PostgreSQL does, instead of cutting the statement short', () => {
    assert.throws(() => literal(['fine', 'cut\u0000here']), (error: Error & { code?: string }) => error.code === '22021');
  });
});
