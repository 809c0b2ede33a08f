import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { encodeState } from '../domain/smart-trade/state-codec.ts';
import { dec } from '../shared/decimal.ts';
import { applyChanges, applyLog, diffJson, diffParts, type PackedChanges, packChanges, type StateChange, StateSnapshots } from './state-changes.ts';

const gridLike = (lines: number, changed = -1) => ({
  v: {
    config: { pair: 'USDT_BTC', upperPrice: '70000', lowerPrice: '50000' },
    lines: Array.from({ length: lines }, (_, i) => [i, i, `${50000 + i * 200}`, i === changed ? 2 : 1, 1, '0.001', i, null, 0, null, 0]),
    error: null,
  },
  timers: [],
});

const jsonKind = { toJson: (state: unknown) => state };
const partsKind = {
  toJson: encodeState,
  changesBetween: (base: unknown, next: unknown, path: Array<string | number>, out: StateChange[]) => diffParts(base, next, path, out, encodeState),
};
const encodeWhole = (snapshots: StateSnapshots, state: { v: unknown; timers: unknown }) =>
  snapshots.encode(1, state.v, state.timers, jsonKind, true);
/** JSON as stored: what survives a round through text. */
const stored = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

/** States as steps hold them: decimals, dates, undefined keys, nested records and lists. */
const { record: stateArbitrary } = fc.letrec((tie) => ({
  leaf: fc.oneof(
    fc.integer(),
    fc.string({ maxLength: 4 }),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.integer({ min: -1e6, max: 1e6 }).map((n) => dec(n).div(100)),
    fc.integer({ min: 0, max: 2e12 }).map((ms) => new Date(ms)),
  ),
  state: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tie('leaf'),
    fc.array(tie('state'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), tie('state'), { maxKeys: 4 }),
  ),
  record: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), tie('state'), { maxKeys: 4 }),
}));

describe('state changes', () => {
  it('finds on the states themselves the changes between their JSON', () => {
    fc.assert(
      fc.property(stateArbitrary, stateArbitrary, fc.boolean(), (base, other, share) => {
        // Steps copy only what they change: `next` keeps some of `base`'s parts as they were.
        const next = share && isPlain(base) && isPlain(other) ? { ...base, ...other } : other;
        const changes: StateChange[] = [];
        diffParts(base, next, [], changes, encodeState);
        const rebuilt = applyChanges(stored(encodeState(base)), stored(packChanges(changes)) as never);
        assert.deepEqual(stored(rebuilt), stored(encodeState(next)));
      }),
    );
  });

  it('stores states as a snapshot and the log of changes after it, for both kinds of encoding', () => {
    for (const kind of [partsKind, { toJson: encodeState }]) {
      fc.assert(
        fc.property(fc.array(stateArbitrary, { minLength: 1, maxLength: 8 }), (states) => {
          const snapshots = new StateSnapshots();
          let snapshot: unknown;
          let log: PackedChanges[] = [];
          for (const state of states) {
            const written = snapshots.encode(1, state, [], kind, true);
            if ('state' in written) [snapshot, log] = [stored(written.state), []];
            else log.push(stored(written.changes) as PackedChanges);
            // Read back as storage hands them over: parsed for this read, snapshot and log alike.
            assert.deepEqual(stored(applyLog(structuredClone(snapshot), null, structuredClone(log))), stored({ v: encodeState(state), timers: [] }));
          }
        }),
      );
    }
  });

  it('logs the next change of a state read back from storage, on top of what storage holds', () => {
    for (const kind of [partsKind, { toJson: encodeState }]) {
      fc.assert(
        fc.property(stateArbitrary, stateArbitrary, fc.boolean(), (state, next, timers) => {
          const snapshots = new StateSnapshots();
          const held = stored({ v: encodeState(state), ...(timers ? { timers: [{ key: 'k', at: 'x' }] } : {}) }) as { v: unknown };
          // A snapshot far larger than any change generated: a change past its size is stored whole,
          // and with 1,000 some generated states were (seed -1303270116).
          snapshots.seed(1, held, state, kind, true, { snapshot: 1e9, logged: 0 });
          const written = snapshots.encode(1, next, [], kind, true);
          assert.ok('changes' in written, 'stored as changes');
          assert.deepEqual(stored(applyLog(structuredClone(held), null, [stored(written.changes) as PackedChanges])), stored({ v: encodeState(next), timers: [] }));
        }),
      );
    }
  });

  it('stores whole the next state of a stored state its kind would encode otherwise', () => {
    const snapshots = new StateSnapshots();
    const state = { price: dec('1.5'), lines: [1, 2] };
    snapshots.seed(1, { v: { price: { $d: '1.50' }, lines: [1, 2] } }, state, partsKind, true, { snapshot: 1000, logged: 0 });
    assert.ok('state' in snapshots.encode(1, { ...state, lines: [1, 3] }, [], partsKind, true));
    snapshots.seed(2, { v: { lines: [1, 2], price: { $d: '1.5' } } }, state, partsKind, true, { snapshot: 1000, logged: 0 });
    assert.ok('changes' in snapshots.encode(2, { ...state, lines: [1, 3] }, [], partsKind, true), 'the order of keys does not matter');
  });

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
    assert.deepEqual(stored(packChanges(changes)), { t: { a: { b: { 1: [3] }, c: ['y'] }, d: [] } });
    assert.deepEqual(stored(packChanges(diffJson(1, [2]))), { t: [[2]] });
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
    assert.deepEqual(diffJson({ a: 1, b: [1, 2] }, { b: [1, 2, 3], c: null }), [[['b', 2], 3], [['c'], null], [['a']]]);
  });

  it('changes a list that grew or shrank item by item, and cuts it', () => {
    const order = (key: string, price: string) => ({ key, role: 'safety', side: 'buy', price, filled: '0' });
    const base = { orders: [order('s1', '10'), order('s2', '9'), order('t1', '12')] };
    const next = { orders: [order('s1', '10'), order('t2', '12')] };
    const changes = diffJson(base, next);
    assert.deepEqual(changes, [[['orders', 1, 'key'], 't2'], [['orders', 1, 'price'], '12'], [['orders', 'length'], 2]]);
    assert.deepEqual(applyChanges(base, JSON.parse(JSON.stringify(packChanges(changes)))), next);
    assert.deepEqual(applyChanges(next, diffJson(next, base)), base);
    assert.deepEqual(applyChanges(base, diffJson(base, { orders: [] })), { orders: [] });
    // An object's own key named length is a key like any other.
    const counted = { length: 3, items: [1] };
    assert.deepEqual(applyChanges(counted, packChanges(diffJson(counted, { length: 1, items: [] }))), { length: 1, items: [] });
  });

  it('stores a first state whole, then what each changed until the changes add up to its size', () => {
    const snapshots = new StateSnapshots();
    assert.ok('state' in encodeWhole(snapshots, gridLike(100)));
    assert.deepEqual(stored(encodeWhole(snapshots, gridLike(100, 3))), { changes: { t: { v: { lines: { 3: { 3: [2] } } } } } });
    // Each change is against the state stored before it, not against the snapshot.
    assert.deepEqual(stored(encodeWhole(snapshots, gridLike(100, 4))), { changes: { t: { v: { lines: { 3: { 3: [1] }, 4: { 3: [2] } } } } } });
    let logged = JSON.stringify({ t: { v: { lines: { 3: { 3: [2] } } } } }).length + JSON.stringify({ t: { v: { lines: { 3: { 3: [1] }, 4: { 3: [2] } } } } }).length;
    for (let index = 0; ; index += 1) {
      const written = encodeWhole(snapshots, gridLike(100, index % 100));
      if (!('changes' in written)) break;
      logged += JSON.stringify(written.changes).length;
    }
    const size = JSON.stringify(gridLike(100)).length;
    assert.ok(logged <= size && logged > size * 0.95, `${logged} of ${size} characters logged`);
    assert.ok('changes' in encodeWhole(snapshots, gridLike(100, 7)));
    // A change of running is logged like any other, and says so: the store keeps the flag with the snapshot.
    assert.deepEqual(stored(snapshots.encode(1, gridLike(100, 8).v, [], jsonKind, false)), { changes: { t: { v: { lines: { 7: { 3: [1] }, 8: { 3: [2] } } } } }, setsRunning: true });
    assert.deepEqual(stored(snapshots.encode(1, gridLike(100, 9).v, [], jsonKind, false)), { changes: { t: { v: { lines: { 8: { 3: [1] }, 9: { 3: [2] } } } } } });
    const rebuilt = gridLike(100);
    rebuilt.v.config = { pair: 'USDT_ETH', upperPrice: '4000', lowerPrice: '3000' };
    rebuilt.v.lines = rebuilt.v.lines.map((line) => line.map((value) => (typeof value === 'string' ? `${value}.5` : value)));
    snapshots.forget(1);
    assert.ok('state' in encodeWhole(snapshots, rebuilt));
  });
});

function isPlain(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}
