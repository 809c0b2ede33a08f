import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PAPER_MARKETS } from '../exchanges/paper/paper-markets.ts';
import { PaperVenue } from '../exchanges/paper/paper-venue.ts';
import { ManualFeed } from '../market-data/manual-feed.ts';
import { MemoryEngineStore } from '../store/memory/memory-engine-store.ts';
import { MemoryPaperStore } from '../store/memory/memory-paper-store.ts';
import type { AutomationKind } from './automation-kind.ts';
import type { CommittedBatch } from './engine-store.ts';
import { Engine } from './engine.ts';
import { PaperTrading } from './paper-trading.ts';

interface Counter {
  count: number;
  running: boolean;
}

/** Counts on each action and records the count; stops on `stop`. */
const counterKind: AutomationKind<Counter, { type: 'count' | 'stop' }, { count: number }> = {
  name: 'counter_test',
  orderIdPrefix: 'q',
  step: (state, input) => {
    if (input.type === 'stop') return { state: { ...state, running: false }, commands: [], events: [], records: [] };
    if (input.type !== 'count') return { state, commands: [], events: [], records: [] };
    const count = state.count + 1;
    return { state: { ...state, count }, commands: [], events: [], records: [{ count }] };
  },
  watches: () => [],
  isRunning: (state) => state.running,
  toJson: (state) => state,
  fromJson: (json) => json as Counter,
};

function engineWith(store: MemoryEngineStore, errors: unknown[] = []): Engine {
  const paper = new PaperTrading(new PaperVenue(PAPER_MARKETS), new MemoryPaperStore(), new ManualFeed());
  return new Engine({
    store,
    exchangeFor: (accountId) => paper.exchange(accountId),
    clock: () => new Date('2026-01-01T00:00:00Z'),
    logger: { warn: () => undefined, error: (object) => void errors.push(object) },
    kinds: [counterKind],
  });
}

describe('after-commit listeners', () => {
  it('hear each stored batch: the automations it changed with their owner, and its records', async () => {
    const store = new MemoryEngineStore({ counter_test: () => undefined });
    const engine = engineWith(store);
    const heard: Array<{ batch: CommittedBatch; stored: Promise<unknown> }> = [];
    engine.onCommitted((batch) => {
      // Called once the batch is stored: the store already holds what the listener hears about.
      const stored = store.get('counter_test', batch.automations[0]!.id);
      heard.push({ batch, stored });
    });
    const created = await engine.create(counterKind, { userId: 7, accountId: 3, state: { count: 0, running: true } }, { type: 'count' });
    await engine.act(counterKind, created.id, { type: 'stop' });
    assert.equal(heard.length, 2);
    assert.deepEqual(heard[0]!.batch, {
      automations: [{ id: created.id, kind: 'counter_test', userId: 7, accountId: 3 }],
      records: [{ kind: 'counter_test', automationId: created.id, records: [{ count: 1 }] }],
      events: [],
    });
    assert.deepEqual(((await heard[0]!.stored) as { state: { v: Counter } }).state.v, { count: 1, running: true });
    assert.deepEqual(heard[1]!.batch, { automations: [{ id: created.id, kind: 'counter_test', userId: 7, accountId: 3 }], records: [], events: [] });
  });

  it('that throw are logged and do not stop the engine or the other listeners', async () => {
    const errors: unknown[] = [];
    const engine = engineWith(new MemoryEngineStore({ counter_test: () => undefined }), errors);
    let heard = 0;
    engine.onCommitted(() => {
      throw new Error('listener broke');
    });
    engine.onCommitted(() => void (heard += 1));
    const created = await engine.create(counterKind, { userId: 7, accountId: 3, state: { count: 0, running: true } }, { type: 'count' });
    assert.equal((await engine.act(counterKind, created.id, { type: 'count' })).state.count, 2);
    assert.equal(heard, 2);
    assert.equal(errors.length, 2);
  });
});
