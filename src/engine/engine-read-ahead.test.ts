/**
 * A taken account's automations may be read ahead of their load (alongside the paper state's read):
 * the load takes that read only if the engine did nothing since, since what it did may have
 * changed them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EngineInput, StepResult } from '../domain/automation.ts';
import { PAPER_MARKETS } from '../exchanges/paper/paper-markets.ts';
import { PaperVenue } from '../exchanges/paper/paper-venue.ts';
import { dec } from '../shared/decimal.ts';
import { MemoryEngineStore } from '../store/memory/memory-engine-store.ts';
import type { AutomationKind } from './automation-kind.ts';
import { Engine } from './engine.ts';

interface WatchState {
  running: boolean;
}
type WatchAction = { type: 'start' } | { type: 'stop' };

const watchKind: AutomationKind<WatchState, WatchAction> = {
  name: 'watch_test',
  orderIdPrefix: 'w',
  step(state, input: EngineInput | WatchAction): StepResult<WatchState, never> {
    return { state: input.type === 'stop' ? { running: false } : state, commands: [], events: [], records: [] };
  },
  watches: () => [{ pair: 'USDT_BTC', above: dec(0) }],
  isRunning: (state) => state.running,
  toJson: (state) => state,
  fromJson: (json) => json as WatchState,
};

const ACCOUNT = 1;

/** An engine running one automation, then forgetting its account (as when another engine takes it); counts the store's reads. */
async function engineThatLostItsAccount() {
  const store = new MemoryEngineStore();
  let reads = 0;
  const loadRunning = store.loadRunning.bind(store);
  store.loadRunning = (accountIds) => {
    reads += 1;
    return loadRunning(accountIds);
  };
  const venue = new PaperVenue(PAPER_MARKETS);
  const engine = new Engine({
    store,
    exchangeFor: async (accountId) => venue.openAccount(accountId, []),
    clock: () => new Date(Date.UTC(2026, 0, 1)),
    logger: { warn: () => {}, error: () => {} },
    kinds: [watchKind],
  });
  await engine.start();
  const created = await engine.create(watchKind, { userId: 1, accountId: ACCOUNT, state: { running: true } }, { type: 'start' });
  await engine.dropAccount(ACCOUNT);
  return { engine, id: created.id, reads: () => reads };
}

describe('reading taken accounts ahead of their load', () => {
  it('takes the read made ahead when the engine did nothing since', async () => {
    const { engine, id, reads } = await engineThatLostItsAccount();
    const before = reads();

    const accountIds = [ACCOUNT];
    const ahead = engine.readAhead(accountIds);
    await engine.loadAccounts(accountIds, ahead);

    assert.equal(reads() - before, 1);
    assert.deepEqual(engine.accountIds(), [ACCOUNT]);
    assert.equal((await engine.get(watchKind, id))?.state.running, true);
  });

  it('reads again when the engine changed an automation since', async () => {
    const { engine, id, reads } = await engineThatLostItsAccount();
    const before = reads();

    const accountIds = [ACCOUNT];
    const ahead = engine.readAhead(accountIds);
    await engine.act(watchKind, id, { type: 'stop' });
    await engine.loadAccounts(accountIds, ahead);

    assert.equal(reads() - before, 2);
    // Read ahead, it was running: resumed from that read, it would run again.
    assert.deepEqual(engine.accountIds(), []);
    assert.equal((await engine.get(watchKind, id))?.state.running, false);
  });
});
