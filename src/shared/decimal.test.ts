import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { dec, referenceCompare } from './decimal.ts';

const decimalText = fc.oneof(
  fc.constantFrom('0', '-0', '1', '-1', '0.1', '10000000', '9999999.9999999', '1e-40', '-1e30', 'Infinity', '-Infinity', 'NaN'),
  fc.tuple(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: 0, max: 25 })).map(([digits, scale]) => dec(digits.toString()).div(dec(10).pow(scale)).toFixed()),
);

describe('decimal comparisons', () => {
  it('give what decimal.js gives, for every pair of values and every comparison', () => {
    fc.assert(
      fc.property(decimalText, decimalText, (a, b) => {
        const [x, y] = [dec(a), dec(b)];
        assert.ok(Object.is(x.cmp(y), referenceCompare(x, y)) || (Number.isNaN(x.cmp(y)) && Number.isNaN(referenceCompare(x, y))), `${a} vs ${b}`);
        const expected = referenceCompare(x, y);
        assert.equal(x.lt(y), expected < 0);
        assert.equal(x.gte(y), expected >= 0);
        assert.equal(x.eq(y), expected === 0);
        assert.equal(x.cmp(b), expected, 'a string argument');
      }),
      { numRuns: 2000 },
    );
  });
});
