import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { cloneData, cloneDataSharing } from './clone-data.ts';

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

  it('keeps the values of the keys it is told to share, and copies the rest as cloneData does', () => {
    const entry = fc.oneof(fc.constant(null), fc.string(), fc.array(fc.integer(), { maxLength: 3 }), fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }));
    const keys = fc.oneof(fc.string(), fc.constant('__proto__'));
    fc.assert(
      fc.property(fc.dictionary(keys, entry, { maxKeys: 6 }), fc.array(keys, { maxLength: 3 }), (value, sharedKeys) => {
        const shared = new Set(sharedKeys);
        const copy = cloneDataSharing(value, shared);
        assert.deepStrictEqual(Object.keys(copy), Object.keys(value));
        for (const key of Object.keys(value)) {
          const [original, copied] = [value[key], copy[key]];
          if (shared.has(key)) assert.equal(copied, original);
          else {
            assert.deepStrictEqual(copied, cloneData(original));
            assert.ok(sharesNothing(original, copied));
          }
        }
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
