import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { columns, slices } from './unnest.ts';

describe('unnest parameters', () => {
  it('turns rows into one array per column', () => {
    assert.deepEqual(columns([[1, 'a'], [2, 'b']], 2), [[1, 2], ['a', 'b']]);
  });

  it('gives each list its 1-based bounds in one array of them all, an empty one ending before it starts', () => {
    assert.deepEqual(slices([['a', 'b'], [], ['c']]), { bounds: [[1, 2], [3, 2], [3, 3]], all: ['a', 'b', 'c'] });
    assert.deepEqual(slices([]), { bounds: [], all: [] });
  });
});
