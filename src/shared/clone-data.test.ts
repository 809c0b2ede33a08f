import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { cloneData } from './clone-data.ts';

/** Every object and array of `copy` is new: none is shared with `original`. */
function sharesNothing(original: unknown, copy: unknown): boolean {
  if (typeof original !== 'object' || original === null) return true;
  if (original === copy) return false;
  return Object.keys(original).every((key) => sharesNothing((original as Record<string, unknown>)[key], (copy as Record<string, unknown>)[key]));
}

describe(cloneData.name, () => {
  it('copies plain data as structuredClone does, sharing no object with it', () => {
    const data = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom(null, true, false, '', '__proto__', 0, -0, 1.5, Number.NaN, undefined),
        fc.string(),
        fc.double(),
        fc.array(tie('value'), { maxLength: 5 }),
        fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', '0', 'length')), tie('value'), { maxKeys: 5 }),
      ),
    })).value;
    fc.assert(
      fc.property(data, (value) => {
        const copy = cloneData(value);
        assert.deepStrictEqual(copy, structuredClone(value));
        assert.ok(sharesNothing(value, copy));
      }),
    );
  });

  it('leaves what is not plain data to structuredClone', () => {
    const at = new Date(Date.UTC(2024, 0, 1));
    const copy = cloneData({ at, seen: new Set([1]) });
    assert.deepStrictEqual(copy, { at, seen: new Set([1]) });
    assert.notEqual(copy.at, at);
  });
});
