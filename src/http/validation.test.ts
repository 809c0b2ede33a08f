import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Type from 'typebox';
import { ApiError } from '../shared/errors.ts';
import { compileValidator } from './validation.ts';

describe(compileValidator.name, () => {
  it('names every bad field in one answer, not only the first few', () => {
    const fields = Object.fromEntries(Array.from({ length: 12 }, (_, index) => [`field_${index}`, Type.Integer()]));
    const validate = compileValidator(Type.Object(fields));
    const error = (() => {
      try {
        validate(Object.fromEntries(Object.keys(fields).map((name) => [name, 'not a number'])));
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    })();
    assert.ok(error instanceof ApiError);
    assert.equal(Object.keys(error.attributes ?? {}).length, 12);
  });
});
