import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, FieldErrorCollector } from './errors.ts';

describe(FieldErrorCollector.name, () => {
  it('collects fields named like object members as any other', () => {
    const collector = new FieldErrorCollector();
    for (const field of ['constructor', 'toString', '__proto__', 'constructor']) collector.add(field, 'is invalid');
    assert.throws(
      () => collector.throwIfAny(),
      (error: ApiError) =>
        JSON.stringify(error.toBody().error_attributes) ===
        '{"constructor":["is invalid"],"toString":["is invalid"],"__proto__":["is invalid"]}',
    );
  });
});
