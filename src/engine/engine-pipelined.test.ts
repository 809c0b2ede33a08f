import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { EngineInput, StepResult } from '../domain/automation.ts';
import { dec } from '../shared/decimal.ts';
import { StorageUnavailableError } from '../shared/errors.ts';
import type { Database } from '../store/database.ts';
import { SqlEngineRepository } from '../store/engine.repository.ts';
import { openTestDatabase } from '../../test/support/database.ts';
import { startPaperEngine } from '../../test/support/paper-engine-process.ts';
import type { AutomationKind } from './automation-kind.ts';
import type { EngineBatch } from './engine-store.ts';

/**
 * Places a limit buy 1,000 below each price it hears at or above `from` (key `b1`, `b2`, ...). A
 * poisoned one logs a text with a NUL character with its first order only, which PostgreSQL
 * refuses to store: its part of that batch fails, its part of a later one would not.
 */
interface LadderState {
  from: string;
  placed: number;
  poisoned: boolean;
  status: 'running' | 'quarantined';
}

const ladderKind: AutomationKind<LadderState, { type: 'start' }> = {
  name: 'ladder_test',
  orderIdPrefix: 'z',
  step(state, input: EngineInput | { type: 'start' }): StepResult<LadderState, never> {
    const result: StepResult<LadderState, never> = { state, commands: [], events: [], records: [] };
    if (input.type !== 'tick' || state.status !== 'running' || input.price.lt(state.from)) return result;
    const placed = state.placed + 1;
    result.state = { ...state, placed };
    result.commands.push({ type: 'place_order', key: `b${placed}`, pair: 'USDT_BTC', side: 'buy', orderType: 'limit', price: input.price.minus(1000), amount: dec('0.001'), role: 'entry' });
    result.events.push({ message: state.poisoned && placed === 1 ? 'placed\u0000' : 'placed', at: input.at });
    return result;
  },
  watches: (state) => (state.status === 'running' ? [{ pair: 'USDT_BTC', above: dec(state.from) }] : []),
  isRunning: (state) => state.status === 'running',
  quarantine: (state) => ({ ...state, status: 'quarantined' }),
  toJson: (state) => state,
  fromJson: (json) => json as LadderState,
};

/**
 * The real store, holding the first save that journals an order until `release`; with
 * `unreachable`, that save then fails as if storage were unreachable, and the engine tries again.
 */
class HeldStore extends SqlEngineRepository {
  readonly saved: string[][] = [];
  holding = false;
  unreachable = false;
  held: Promise<void> | undefined;
  release: () => void = () => {};
  private entered: () => void = () => {};
  readonly entering = new Promise<void>((resolve) => (this.entered = resolve));

  /**
   * The held batch then fails, and of its parts, stored one by one, the paper exchange's changes
   * fail again: the engine hears that the batch failed.
   */
  failCompanion = false;

  override async save(batch: EngineBatch): Promise<void> {
    if (this.failCompanion && batch.companion && batch.automations.length === 0) {
      this.failCompanion = false;
      throw new Error('the paper exchange changes could not be stored');
    }
    if (batch.orders.length > 0) this.saved.push(batch.orders.map((order) => `${order.clientOrderId} ${order.status}`));
    if (this.holding && batch.orders.length > 0) {
      this.holding = false;
      this.held = new Promise((resolve) => (this.release = resolve));
      this.entered();
      await this.held;
      if (this.unreachable) throw new StorageUnavailableError('connection refused');
      if (this.failCompanion) throw new Error('the batch failed: its parts are stored one by one');
    }
    return super.save(batch);
  }
}

const at = new Date(Date.UTC(2024, 0, 1));

/** Lets the engine run until `done` holds, or gives up after many turns of the event loop. */
async function turnsUntil(done: () => Promise<boolean>): Promise<boolean> {
  for (let turn = 0; turn < 2000; turn += 1) {
    if (await done()) return true;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return false;
}

const never = async () => false;

/**
 * Ticks at `first`, then at each later price while the first tick's batch is held in storage,
 * each once the order placed by the one before rests on the exchange (so each is a batch of its
 * own); returns then, with the ticks' handling (wrapped: returned bare, the caller would wait for it).
 */
async function laterWhileHeld(
  p: { tick(price: string): Promise<void>; openOrders(): Promise<string[]> },
  store: HeldStore,
  first: string,
  later: Array<[price: string, placed: string]>,
): Promise<{ ticks: Promise<unknown> }> {
  store.holding = true;
  const ticks = [p.tick(first)];
  await store.entering;
  for (const [price, placed] of later) {
    ticks.push(p.tick(price));
    assert.ok(await turnsUntil(async () => (await p.openOrders()).includes(placed)), `${placed} was not placed while the first batch was stored`);
  }
  return { ticks: Promise.all(ticks) };
}

const secondWhileHeld = (
  p: Parameters<typeof laterWhileHeld>[0],
  store: HeldStore,
  [first, second]: [string, string],
  placed: string,
) => laterWhileHeld(p, store, first, [[second, placed]]);

describe('Engine, inputs that come while a batch is stored', () => {
  let db: Database;
  let userId: number;

  before(async () => {
    db = await openTestDatabase();
    const [user] = await db.query<{ id: number }>("INSERT INTO users (name) VALUES ('p') RETURNING id");
    userId = user!.id;
  });
  after(() => db.close());

  /** `on`: a database of its own, where no automation of another test runs. */
  async function startProcess(store: SqlEngineRepository, on = { db, userId }) {
    const p = await startPaperEngine(on.db, on.userId, store, { kinds: [ladderKind], at, storeThrough: true });
    const create = (from: string, poisoned = false) =>
      p.engine.create(ladderKind, { userId: on.userId, accountId: p.accountId, state: { from, placed: 0, poisoned, status: 'running' } }, { type: 'start' });
    return { ...p, create };
  }

  /** A process on a database of its own, its store set up by `prepare` before the engine starts. */
  async function startAlone(prepare: (store: HeldStore) => void = () => {}) {
    const own = await openTestDatabase();
    const [user] = await own.query<{ id: number }>("INSERT INTO users (name) VALUES ('alone') RETURNING id");
    const store = new HeldStore(own);
    prepare(store);
    const p = await startProcess(store, { db: own, userId: user!.id });
    const stop = async () => {
      await p.stop();
      await own.close();
    };
    return { store, p, stop };
  }

  it('are stepped and their orders placed while it is stored, and stored after it', async () => {
    const store = new HeldStore(db);
    const p = await startProcess(store);
    const early = await p.create('50000');
    const late = await p.create('65000');
    // The second tick's orders rest on the exchange while the first tick's batch is still held.
    const lateOrder = `tlz${late.id}xb1`;
    const { ticks } = await secondWhileHeld(p, store, ['60000', '70000'], lateOrder);
    assert.deepEqual(store.saved, [[`tlz${early.id}xb1 open`]]);
    const whatCameFirst = await Promise.race([
      p.engine.stepped().then(() => 'stepped'),
      p.engine.settled().then(() => 'settled'),
      turnsUntil(never).then(() => 'neither'),
    ]);
    assert.equal(whatCameFirst, 'stepped');
    const storedWhileHeld = await Promise.race([p.engine.stored().then(() => 'stored'), turnsUntil(never).then(() => 'held')]);
    assert.equal(storedWhileHeld, 'held');

    store.release();
    await p.engine.stored();
    assert.equal(store.saved.length, 2);
    await ticks;
    assert.deepEqual(store.saved, [[`tlz${early.id}xb1 open`], [`tlz${early.id}xb2 open`, `${lateOrder} open`]]);
    assert.deepEqual((await p.engine.orders(late.id)).map((order) => [order.key, order.status]), [['b1', 'open']]);
    assert.deepEqual(await p.storedUsdt(), ['9803', '197']);
    await p.stop();
  });

  it('have their changes found while it is stored, not once it is', async () => {
    const store = new HeldStore(db);
    // The ladders of the tests before run here too: this one's states are told apart by their `from`.
    const encoded: string[] = [];
    const counted = { ...ladderKind, toJson: (state: LadderState) => (encoded.push(`${state.from} ${state.placed}`), state) };
    const p = await startPaperEngine(db, userId, store, { kinds: [counted], at, storeThrough: true });
    const ladder = await p.engine.create(counted, { userId, accountId: p.accountId, state: { from: '50001', placed: 0, poisoned: false, status: 'running' } }, { type: 'start' });
    const { ticks } = await secondWhileHeld(p, store, ['60000', '61000'], `tlz${ladder.id}xb2`);
    assert.ok(encoded.includes('50001 2'), `the second tick's state was not encoded while the first batch was held: ${encoded.join(', ')}`);
    store.release();
    await ticks;
    assert.deepEqual((await p.engine.orders(ladder.id)).map((order) => [order.key, order.status]), [['b1', 'open'], ['b2', 'open']]);
    await p.stop();
  });

  it('are stored with the next batch when the batch before fails', async () => {
    const { store, p, stop } = await startAlone();
    const ladder = await p.create('50000');
    const { ticks } = await secondWhileHeld(p, store, ['60000', '61000'], `tlz${ladder.id}xb2`);
    store.failCompanion = true;
    store.release();
    await ticks;
    await p.tick('62000');
    const stored = (await p.engine.orders(ladder.id)).map((order) => [order.key, order.status]);
    assert.deepEqual(stored, [['b1', 'open'], ['b2', 'open'], ['b3', 'open']]);
    await stop();
  });

  it('do not change the rows of the batch before, which is stored again as it was taken', async () => {
    const { store, p, stop } = await startAlone((held) => (held.unreachable = true));
    const ladder = await p.create('50000');
    // The second tick fills the first order while its batch is held, and places the next.
    const { ticks } = await secondWhileHeld(p, store, ['60000', '59000'], `tlz${ladder.id}xb2`);

    store.release();
    await ticks;
    const b1 = `tlz${ladder.id}xb1`;
    assert.deepEqual(store.saved, [[`${b1} open`], [`${b1} open`], [`${b1} filled`, `tlz${ladder.id}xb2 open`]]);
    assert.deepEqual((await p.engine.orders(ladder.id)).map((order) => [order.key, order.status]), [['b1', 'filled'], ['b2', 'open']]);
    await stop();
  });

  it('leave out the part of an automation whose part of the batch before storage refused', async () => {
    const store = new HeldStore(db);
    const p = await startProcess(store);
    const healthy = await p.create('50000');
    const poisoned = await p.create('50000', true);
    const { ticks } = await secondWhileHeld(p, store, ['60000', '61000'], `tlz${poisoned.id}xb2`);

    store.release();
    await ticks;
    // Its second order, placed while its first part was being refused, is taken back unstored,
    // and it stays stopped at its last stored state: the next batch did not store it running.
    const stopped = (await p.engine.get(ladderKind, poisoned.id))!;
    assert.deepEqual([stopped.state.status, stopped.state.placed], ['quarantined', 0]);
    const [row] = await db.query<{ running: boolean }>('SELECT running FROM automations WHERE id = $1', [poisoned.id]);
    assert.equal(row!.running, false);
    assert.deepEqual(await p.engine.orders(poisoned.id), []);
    assert.deepEqual((await p.engine.orders(healthy.id)).map((order) => [order.key, order.status]), [['b1', 'open'], ['b2', 'open']]);
    await p.tick('61000');
    assert.deepEqual(await p.openOrders(), [`tlz${healthy.id}xb1`, `tlz${healthy.id}xb2`, `tlz${healthy.id}xb3`]);
    assert.deepEqual(await p.storedUsdt(), ['9821', '179']);
    assert.deepEqual(p.errors, ['automation quarantined']);
    await p.stop();
  });

  it('are stepped as batches of their own, several while it is stored, and stored in order after it', async () => {
    const store = new HeldStore(db);
    const p = await startProcess(store);
    const ladder = await p.create('50002');
    const order = (n: number) => `tlz${ladder.id}xb${n}`;
    const { ticks } = await laterWhileHeld(p, store, '60000', [['61000', order(2)], ['62000', order(3)], ['63000', order(4)]]);
    store.release();
    await ticks;
    const own = store.saved.map((batch) => batch.filter((row) => row.startsWith(`tlz${ladder.id}x`))).filter((batch) => batch.length > 0);
    assert.deepEqual(own, [[`${order(1)} open`], [`${order(2)} open`], [`${order(3)} open`], [`${order(4)} open`]]);
    await p.stop();
  });

  it('queued behind a batch that fails are stored with the next batch, in order', async () => {
    const { store, p, stop } = await startAlone();
    const ladder = await p.create('50000');
    const order = (n: number) => `tlz${ladder.id}xb${n}`;
    const { ticks } = await laterWhileHeld(p, store, '60000', [['61000', order(2)], ['62000', order(3)]]);
    store.failCompanion = true;
    store.release();
    await ticks;
    await p.tick('63000');
    assert.deepEqual(store.saved.at(-1), [`${order(2)} open`, `${order(3)} open`, `${order(4)} open`]);
    const stored = (await p.engine.orders(ladder.id)).map((entry) => [entry.key, entry.status]);
    assert.deepEqual(stored, [['b1', 'open'], ['b2', 'open'], ['b3', 'open'], ['b4', 'open']]);
    const storedState = (await store.get(ladderKind.name, ladder.id))!.state as { v: LadderState };
    assert.equal(storedState.v.placed, 4);
    await stop();
  });

  it('leave out the part of an automation refused before them from every batch queued', async () => {
    const { store, p, stop } = await startAlone();
    const healthy = await p.create('50000');
    const poisoned = await p.create('50000', true);
    const { ticks } = await laterWhileHeld(p, store, '60000', [['61000', `tlz${poisoned.id}xb2`], ['62000', `tlz${poisoned.id}xb3`]]);
    store.release();
    await ticks;
    const stopped = (await p.engine.get(ladderKind, poisoned.id))!;
    assert.deepEqual([stopped.state.status, stopped.state.placed], ['quarantined', 0]);
    assert.deepEqual(await p.engine.orders(poisoned.id), []);
    await p.tick('63000');
    assert.deepEqual(await p.openOrders(), [1, 2, 3, 4].map((n) => `tlz${healthy.id}xb${n}`));
    assert.deepEqual(p.errors, ['automation quarantined']);
    await stop();
  });
});
