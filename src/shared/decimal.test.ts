import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ceilToStep, dec, Decimal, floorQuotientToStep, floorToStep, toDouble, isMultipleOf, referenceCompare, roundToStep, stepPlaces, ZERO } from './decimal.ts';

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

describe('steps of a power of ten', () => {
  const steps = fc.constantFrom('1', '0.1', '0.01', '0.00001', '1e-12', '10', '0.5', '0.25', '0.002', '5', '0.011', '0');

  it('multiples, floors and roundings by decimal places give what a division gives', () => {
    fc.assert(
      fc.property(decimalText, steps, (text, stepText) => {
        const [value, step] = [dec(text), dec(stepText)];
        const byDivision = step.isZero() || value.mod(step).isZero();
        assert.equal(isMultipleOf(value, step), byDivision, `${text} multiple of ${stepText}`);
        const floored = step.isZero() ? value : value.div(step).floor().times(step);
        const fast = floorToStep(value, step);
        assert.ok(fast.eq(floored) || (fast.isNaN() && floored.isNaN()), `${text} floored to ${stepText}`);
        assert.equal(fast.toFixed(), floored.toFixed());
        const ceiled = step.isZero() ? value : value.div(step).ceil().times(step);
        assert.equal(ceilToStep(value, step).toFixed(), ceiled.toFixed(), `${text} ceiled to ${stepText}`);
        const rounded = step.isZero() ? value : value.toNearest(step, 4);
        assert.equal(roundToStep(value, step).toFixed(), rounded.toFixed(), `${text} rounded to ${stepText}`);
      }),
      { numRuns: 3000 },
    );
  });

  it('floors a quotient to a step as flooring the full-precision quotient does', () => {
    const positive = fc.tuple(fc.bigInt({ min: 1n, max: 10n ** 20n }), fc.integer({ min: 0, max: 12 })).map(([digits, scale]) => dec(digits.toString()).div(dec(10).pow(scale)));
    fc.assert(
      fc.property(positive, positive, steps, (dividend, divisor, stepText) => {
        const step = dec(stepText);
        assert.equal(floorQuotientToStep(dividend, divisor, step).toFixed(), floorToStep(dividend.div(divisor), step).toFixed(), `${dividend} / ${divisor} to ${stepText}`);
      }),
      { numRuns: 3000 },
    );
    // 2/3 to 50 significant digits rounds up its last digit; the multiple of 1e-50 below it is 0.66…6.
    assert.equal(floorQuotientToStep(dec(2), dec(3), dec('1e-50')).toFixed(), `0.${'6'.repeat(50)}`);
  });

  it('knows which steps are powers of ten', () => {
    assert.equal(stepPlaces(dec('0.01')), 2);
    assert.equal(stepPlaces(dec('1')), 0);
    assert.equal(stepPlaces(dec('1e-12')), 12);
    for (const other of ['10', '0.5', '0.011', '0', '-0.01']) assert.equal(stepPlaces(dec(other)), undefined, other);
  });
});

describe('toDouble', () => {
  it('gives the double decimal.js gives, for any value', () => {
    const prices = fc.tuple(fc.bigInt({ min: -(10n ** 17n), max: 10n ** 17n }), fc.integer({ min: -30, max: 30 })).map(([digits, power]) => dec(`${digits}e${power}`).toFixed());
    fc.assert(
      fc.property(fc.oneof(decimalText, prices), (text) => {
        const value = dec(text);
        assert.ok(Object.is(toDouble(value), value.toNumber()), text);
      }),
      { numRuns: 5000 },
    );
    for (const text of ['0', '-0', '9007199254740991', '9007199254740993', '0.1', '123.45', '1e22', '1e23', '1e-22', '1.5e-23']) {
      assert.ok(Object.is(toDouble(dec(text)), dec(text).toNumber()), text);
    }
  });
});

describe('dec', () => {
  it('gives the shared zero for zero, and a new decimal of the value for anything else', () => {
    assert.equal(dec('0'), ZERO);
    assert.equal(dec(0), ZERO);
    for (const value of ['-0', '0.0', '1', '0.001', -0]) {
      assert.notEqual(dec(value), ZERO);
      assert.equal(dec(value).toString(), new Decimal(value).toString());
    }
    assert.equal(Object.is(dec(-0).toNumber(), -0), true, 'a negative zero stays negative');
  });
});
