import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { applyChanges, diffJson, packChanges, StateSnapshots } from './state-changes.ts';

const gridLike = (lines: number, changed = -1) => ({
  v: {
    config: { pair: 'USDT_BTC', upperPrice: '70000', lowerPrice: '50000' },
    lines: Array.from({ length: lines }, (_, i) => [i, i, `${50000 + i * 200}`, i === changed ? 2 : 1, 1, '0.001', i, null, 0, null, 0]),
    error: null,
  },
  timers: [],
});

describe('state changes', () => {
  it('gives back the next state from the snapshot and the diff, for any two JSON values', () => {
    const json = fc.jsonValue().map((value) => JSON.parse(JSON.stringify(value)) as unknown);
    fc.assert(
      fc.property(json, json, (base, next) => {
        const snapshot = structuredClone(base);
        assert.deepEqual(applyChanges(base, diffJson(base, next)), next);
        assert.deepEqual(base, snapshot);
      }),
    );
  });

  it('gives back the same state from the packed changes, as stored in JSON', () => {
    const json = fc.jsonValue().map((value) => JSON.parse(JSON.stringify(value)) as unknown);
    fc.assert(
      fc.property(json, json, (base, next) => {
        const snapshot = structuredClone(base);
        const stored = JSON.parse(JSON.stringify(packChanges(diffJson(base, next))));
        assert.deepEqual(applyChanges(base, stored), next);
        assert.deepEqual(base, snapshot);
      }),
    );
  });

  it('packs the paths of the changes into one tree', () => {
    const changes = diffJson({ a: { b: [1, 2], c: 'x' }, d: 1 }, { a: { b: [1, 3], c: 'y' } });
    assert.deepEqual(packChanges(changes), { t: { a: { b: { 1: [3] }, c: ['y'] }, d: [] } });
    assert.deepEqual(packChanges(diffJson(1, [2])), { t: [[2]] });
  });

  it('keeps keys named like prototype properties as plain keys', () => {
    const pairs = [['{}', '{"__proto__":""}'], ['{"__proto__":{"a":1}}', '{}'], ['{"a":{"constructor":2}}', '{"a":{}}']];
    for (const [before, after] of pairs) {
      const base = JSON.parse(before!) as unknown;
      const next = JSON.parse(after!) as unknown;
      assert.deepEqual(applyChanges(base, diffJson(base, next)), next);
      assert.deepEqual(applyChanges(next, diffJson(next, base)), base);
      assert.deepEqual(applyChanges(base, JSON.parse(JSON.stringify(packChanges(diffJson(base, next))))), next);
      assert.deepEqual(applyChanges(next, JSON.parse(JSON.stringify(packChanges(diffJson(next, base))))), base);
    }
  });

  it('names only the leaves that moved', () => {
    assert.deepEqual(diffJson(gridLike(100), gridLike(100, 7)), [[['v', 'lines', 7, 3], 2]]);
    assert.deepEqual(diffJson({ a: 1, b: [1, 2] }, { b: [1, 2, 3], c: null }), [[['b'], [1, 2, 3]], [['c'], null], [['a']]]);
  });

  it('stores a first state whole, then its changes until they grow past a quarter of it', () => {
    const snapshots = new StateSnapshots();
    assert.ok('state' in snapshots.encode(1, gridLike(100)));
    assert.deepEqual(snapshots.encode(1, gridLike(100, 3)), { changes: { t: { v: { lines: { 3: { 3: [2] } } } } } });
    const rebuilt = gridLike(100);
    rebuilt.v.config = { pair: 'USDT_ETH', upperPrice: '4000', lowerPrice: '3000' };
    rebuilt.v.lines = rebuilt.v.lines.map((line) => line.map((value) => (typeof value === 'string' ? `${value}.5` : value)));
    assert.ok('state' in snapshots.encode(1, rebuilt));
    snapshots.forget(1);
    assert.ok('state' in snapshots.encode(1, rebuilt));
  });
});
