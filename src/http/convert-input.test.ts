import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Type, { type TSchema } from 'typebox';
import { convertInput } from './convert-input.ts';

describe(convertInput.name, () => {
  const cases: Array<[string, TSchema, unknown, unknown]> = [
    ['integer text', Type.Integer(), '42', 42],
    ['negative integer text', Type.Integer(), '-7', -7],
    ['a decimal is not an integer', Type.Integer(), '1.5', '1.5'],
    ['hex is not an integer', Type.Integer(), '0x10', '0x10'],
    ['padded text is not an integer', Type.Integer(), ' 5', ' 5'],
    ['empty text is not a number', Type.Number(), '', ''],
    ['null is not a number', Type.Number(), null, null],
    ['decimal text', Type.Number(), '0.25', 0.25],
    ...['true', 'True', 'TRUE', '1', 't', 'T', 'yes', 'Yes'].map((text): [string, TSchema, unknown, unknown] => [`${text} as a boolean`, Type.Boolean(), text, true]),
    ...['false', 'False', 'FALSE', '0', 'f', 'F', 'no', 'NO'].map((text): [string, TSchema, unknown, unknown] => [`${text} as a boolean`, Type.Boolean(), text, false]),
    ['on is not a boolean', Type.Boolean(), 'on', 'on'],
    ['padded text is not a boolean', Type.Boolean(), ' true', ' true'],
    ['python text in a nullable boolean', Type.Union([Type.Boolean(), Type.Null()]), 'False', false],
    ['a number for a string', Type.String(), 12.5, '12.5'],
    ['null is not a string', Type.String(), null, null],
    ['a single value for a list', Type.Array(Type.Integer()), '3', [3]],
    ['a list', Type.Array(Type.Integer()), ['1', '2'], [1, 2]],
    ['the first union branch that fits', Type.Union([Type.Boolean(), Type.Integer()]), '9', 9],
    ['nested properties', Type.Object({ a: Type.Object({ b: Type.Integer() }) }), { a: { b: '1' }, c: '2' }, { a: { b: 1 }, c: '2' }],
    ['record values', Type.Record(Type.String(), Type.Integer()), { x: '1' }, { x: 1 }],
  ];
  for (const [name, schema, input, expected] of cases) {
    it(name, () => assert.deepEqual(convertInput(schema, input), expected));
  }

  it('keeps a __proto__ key as data', () => {
    const input = JSON.parse('{"__proto__": {"polluted": "1"}, "n": "1"}');
    const converted = convertInput(Type.Record(Type.String(), Type.Unknown()), input) as object;
    assert.equal(Object.getPrototypeOf(converted), Object.prototype);
    assert.ok(Object.hasOwn(converted, '__proto__'));
  });
});
