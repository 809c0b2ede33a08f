import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { EngineInput, StepResult } from '../domain/automation.ts';
import { dec } from '../shared/decimal.ts';
import type { Database } from '../store/database.ts';
import { SqlEngineRepository } from '../store/engine.repository.ts';
import { openTestDatabase } from '../../test/support/database.ts';
import { startPaperEngine } from '../../test/support/paper-engine-process.ts';
import type { AutomationKind } from './automation-kind.ts';
import type { EngineBatch, EngineStore } from './engine-store.ts';

/*
 * With the paper exchange stored in the engine's batches, orders on a paper account the process
 * holds are placed and cancelled in memory while a batch is put together, and what ends so is
 * heard by its automation in that batch (docs/architecture.md).
 */

/**
 * Places one limit buy below the first price it hears and cancels it at the next; a poisoned one
 * logs the cancellation with a NUL character, so storage refuses that batch's part.
 */
interface CancellerState {
  poisoned: boolean;
  status: 'watching' | 'placed' | 'cancelling' | 'closed' | 'quarantined';
}

const cancellerKind: AutomationKind<CancellerState, { type: 'start' }> = {
  name: 'canceller_test',
  orderIdPrefix: 'z',
  step(state, input: EngineInput | { type: 'start' }): StepResult<CancellerState, never> {
    const result: StepResult<CancellerState, never> = { state, commands: [], events: [], records: [] };
    if (input.type === 'order_closed' && state.status === 'cancelling') result.state = { ...state, status: 'closed' };
    if (input.type !== 'tick') return result;
    if (state.status === 'watching') {
      result.state = { ...state, status: 'placed' };
      result.commands.push({ type: 'place_order', key: 'b', pair: 'USDT_BTC', side: 'buy', orderType: 'limit', amount: dec('0.001'), price: input.price.minus(1000), role: 'entry' });
    } else if (state.status === 'placed') {
      result.state = { ...state, status: 'cancelling' };
      result.commands.push({ type: 'cancel_order', key: 'b' });
      result.events.push({ message: state.poisoned ? 'cancelling\u0000' : 'cancelling', at: input.at });
    }
    return result;
  },
  watches: (state) => (state.status === 'watching' || state.status === 'placed' ? [{ pair: 'USDT_BTC', above: dec(0) }] : []),
  isRunning: (state) => state.status !== 'quarantined',
  quarantine: (state) => ({ ...state, status: 'quarantined' }),
  toJson: (state) => state,
  fromJson: (json) => json as CancellerState,
};

/**
 * Places a limit buy and cancels it in the same step, and again on each close, twenty times: in
 * memory, each close is heard in the batch that made it, so a batch goes round until it gives up.
 */
interface ChurnerState {
  placed: number;
  status: 'watching' | 'churning' | 'done';
}

const CHURNS = 20;

const churnerKind: AutomationKind<ChurnerState, { type: 'start' }> = {
  name: 'churner_test',
  orderIdPrefix: 'c',
  step(state, input: EngineInput | { type: 'start' }): StepResult<ChurnerState, never> {
    const result: StepResult<ChurnerState, never> = { state, commands: [], events: [], records: [] };
    const churn = (placed: number) => {
      result.state = { placed, status: 'churning' };
      result.commands.push(
        { type: 'place_order', key: `k${placed}`, pair: 'USDT_BTC', side: 'buy', orderType: 'limit', amount: dec('0.001'), price: dec('50000'), role: 'entry' },
        { type: 'cancel_order', key: `k${placed}` },
      );
    };
    if (input.type === 'tick' && state.status === 'watching') churn(1);
    else if (input.type === 'order_closed' && state.status === 'churning') {
      if (state.placed < CHURNS) churn(state.placed + 1);
      else result.state = { ...state, status: 'done' };
    }
    return result;
  },
  watches: (state) => (state.status === 'watching' ? [{ pair: 'USDT_BTC', above: dec(0) }] : []),
  isRunning: (state) => state.status !== 'done',
  toJson: (state) => state,
  fromJson: (json) => json as ChurnerState,
};

/**
 * Buys below the first price it hears and sells what it bought at once below the market when the
 * buy fills; notes in `ladderLog` what it heard. `watchesAlways`: it hears every tick, like a
 * SmartTrade trailing the price, where the other stops watching once its buy is placed.
 */
interface LadderState {
  name: string;
  watchesAlways: boolean;
  status: 'new' | 'buying' | 'selling' | 'done';
}

const ladderLog: string[] = [];

const ladderKind: AutomationKind<LadderState, { type: 'start' }> = {
  name: 'ladder_test',
  orderIdPrefix: 'l',
  step(state, input: EngineInput | { type: 'start' }): StepResult<LadderState, never> {
    const result: StepResult<LadderState, never> = { state, commands: [], events: [], records: [] };
    if (input.type === 'tick') {
      ladderLog.push(`${state.name} tick`);
      if (state.status !== 'new') return result;
      result.state = { ...state, status: 'buying' };
      result.commands.push({ type: 'place_order', key: 'b', pair: 'USDT_BTC', side: 'buy', orderType: 'limit', amount: dec('0.001'), price: input.price.minus(100), role: 'entry' });
    } else if (input.type === 'fill') {
      ladderLog.push(`${state.name} ${input.side === 'buy' ? 'bought' : 'sold'}`);
      if (input.side === 'sell') result.state = { ...state, status: 'done' };
      else {
        result.state = { ...state, status: 'selling' };
        result.commands.push({ type: 'place_order', key: 's', pair: 'USDT_BTC', side: 'sell', orderType: 'limit', amount: dec('0.0009'), price: input.price.minus(1000), role: 'exit' });
      }
    }
    return result;
  },
  watches: (state) => (state.watchesAlways || state.status === 'new' ? [{ pair: 'USDT_BTC', above: dec(0) }] : []),
  isRunning: (state) => state.status !== 'done',
  toJson: (state) => state,
  fromJson: (json) => json as LadderState,
};

/** The real store, noting the automations and the journal rows (with their status) of each batch it stores. */
class NotingStore extends SqlEngineRepository {
  readonly batches: Array<{ automations: number[]; rows: Array<[string, string, boolean]> }> = [];

  override async save(batch: EngineBatch): Promise<void> {
    await super.save(batch);
    this.batches.push({
      automations: batch.automations.map((change) => change.id),
      rows: batch.orders.map((order) => [order.clientOrderId, order.status, order.cancelRequested]),
    });
  }
}

const at = new Date(Date.UTC(2024, 0, 1));

describe('Paper orders placed and cancelled by the batch', () => {
  let db: Database;
  let userId: number;

  before(async () => {
    db = await openTestDatabase();
    const [user] = await db.query<{ id: number }>("INSERT INTO users (name) VALUES ('a') RETURNING id");
    userId = user!.id;
  });
  after(() => db.close());

  async function startProcess(store: EngineStore) {
    const p = await startPaperEngine(db, userId, store, { kinds: [cancellerKind, churnerKind, ladderKind], at, storeThrough: true });
    const createCanceller = (poisoned = false) =>
      p.engine.create(cancellerKind, { userId, accountId: p.accountId, state: { poisoned, status: 'watching' } }, { type: 'start' });
    return { ...p, createCanceller };
  }

  it('with the paper exchange stored in its batches, stores a cancellation ended with the batch that asks for it, refused or not', async () => {
    const store = new NotingStore(db);
    const p = await startProcess(store);
    const healthy = await p.createCanceller();
    const poisoned = await p.createCanceller(true);
    await p.tick('60000');
    await p.tick('60100');

    // One write of each row after its placement: asked to cancel and cancelled together.
    const rowsOf = (id: number) => store.batches.flatMap((batch) => batch.rows.filter(([clientOrderId]) => clientOrderId === `tlz${id}xb`));
    for (const { id } of [healthy, poisoned]) assert.deepEqual(rowsOf(id).map(([, status, asked]) => [status, asked]), [['open', false], ['cancelled', true]]);
    // The automation heard of it in the batch that stored it ended, so no restart can come between.
    assert.equal((await p.engine.get(cancellerKind, healthy.id))!.state.status, 'closed');
    const lastWrite = store.batches.findLast((batch) => batch.automations.includes(healthy.id));
    assert.deepEqual(lastWrite?.rows.map(([, status]) => status), ['cancelled']);
    // The refused one stopped at its last stored state, and its order is gone from the exchange as its row says.
    assert.equal((await p.engine.get(cancellerKind, poisoned.id))!.state.status, 'quarantined');
    for (const { id } of [healthy, poisoned]) {
      assert.deepEqual((await p.engine.orders(id)).map((o) => [o.key, o.status]), [['b', 'cancelled']]);
    }
    assert.deepEqual(await p.openOrders(), []);
    assert.deepEqual(await p.storedUsdt(), ['10000', '0']);
    await p.stop();
  });

  it('with the paper exchange stored in its batches, sends after the batch what an automation orders after eight rounds of hearing of its own cancellations', async () => {
    const store = new NotingStore(db);
    const p = await startProcess(store);
    const churner = await p.engine.create(churnerKind, { userId, accountId: p.accountId, state: { placed: 0, status: 'watching' } }, { type: 'start' });
    await p.tick('60000');

    assert.equal((await p.engine.get(churnerKind, churner.id))!.state.status, 'done');
    const orders = await p.engine.orders(churner.id);
    assert.equal(orders.length, CHURNS);
    assert.ok(orders.every((order) => order.status === 'cancelled'));
    const writes = (key: string) => store.batches.flatMap((batch) => batch.rows.filter(([clientOrderId]) => clientOrderId === `tlc${churner.id}x${key}`).map(([, status]) => status));
    // The first eight went and came back in the tick's batch, stored once each; the ninth was journaled and sent after it.
    for (let n = 1; n <= 8; n += 1) assert.deepEqual(writes(`k${n}`), ['cancelled'], `k${n}`);
    assert.equal(writes('k9').at(0), 'pending');
    assert.equal(writes('k9').at(-1), 'cancelled');
    assert.deepEqual(await p.openOrders(), []);
    assert.deepEqual(await p.storedUsdt(), ['10000', '0']);
    await p.stop();
  });

  it('places what the fills of a tick caused before stepping the automations the tick woke, each hearing its inputs in order', async () => {
    const p = await startProcess(new SqlEngineRepository(db));
    for (const [name, watchesAlways] of [['filled', false], ['trailing', true]] as const) {
      await p.engine.create(ladderKind, { userId, accountId: p.accountId, state: { name, watchesAlways, status: 'new' } }, { type: 'start' });
    }
    await p.tick('60000');
    ladderLog.length = 0;
    // Fills both buys; each sells at once, below the market, and hears its sale in the same batch.
    await p.tick('59800');
    assert.deepEqual(ladderLog, ['filled bought', 'filled sold', 'trailing tick', 'trailing bought', 'trailing sold']);
    assert.deepEqual(await p.openOrders(), []);
    await p.stop();
  });
});
