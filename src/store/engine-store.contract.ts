/**
 * The contract every implementation of the engine's store port passes: the SQL store (PGlite or
 * PostgreSQL) and the in-memory store of backtests. A setup gives a store and a new user with two
 * accounts that automations may refer to (the store may hold other users' automations); records
 * of the kind `recorded` must be accepted (a writer or sink registered), of any other kind refused.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { EngineOrder } from '../engine/automation-kind.ts';
import type { AutomationChange, EngineStore } from '../engine/engine-store.ts';
import { type PackedChanges, packChanges } from '../engine/state-changes.ts';

export interface EngineStoreSubject {
  store: EngineStore;
  userId: number;
  accountIds: [number, number];
  /** The records of kind `recorded` the store kept, per automation. */
  recorded(): Promise<Array<{ automationId: number; records: unknown[] }>>;
  close?(): Promise<void>;
}

const at = (minute: number) => new Date(Date.UTC(2024, 0, 1, 0, minute));

export function engineStoreContract(name: string, setup: () => Promise<EngineStoreSubject>): void {
  describe(`${name} honours the engine store contract`, () => {
    let subject: EngineStoreSubject;
    let store: EngineStore;
    /** Journal ids of this test are base + k: ids are unique across a shared store. */
    let base: number;

    beforeEach(async () => {
      subject = await setup();
      store = subject.store;
      base = (await store.reserveIds(1))[0]! * 100;
    });
    afterEach(async () => {
      await subject.close?.();
    });

    const insert = (kind = 'grid_bot', running = true, accountId = subject.accountIds[0]) =>
      store.insert({ kind, userId: subject.userId, accountId, running, state: { v: { n: 1, text: 'a' } }, at: at(0) });

    const order = (automationId: number, k: number, changes: Partial<EngineOrder> = {}): EngineOrder => ({
      id: base + k,
      automationId,
      key: `line-${k}`,
      clientOrderId: `g${automationId}-${k}`,
      accountId: subject.accountIds[0],
      pair: 'USDT_BTC',
      role: 'grid',
      side: 'buy',
      orderType: 'limit',
      timeInForce: 'gtc',
      price: '59000.5',
      amount: '0.01',
      filled: '0',
      filledTotal: '0',
      fee: '0',
      status: 'open',
      cancelRequested: false,
      exchangeOrderId: null,
      feeCurrency: null,
      filledAt: null,
      createdAt: at(1),
      updatedAt: at(1),
      ...changes,
    });

    const emptyBatch = { automations: [], events: [], orders: [], records: [] };

    it('inserts an automation and reads it back through JSON', async () => {
      const inserted = await insert();
      const read = await store.get('grid_bot', inserted.id);
      assert.deepEqual(read, inserted);
      assert.deepEqual(read?.state, { v: { n: 1, text: 'a' } });
      assert.equal(read?.createdAt.getTime(), at(0).getTime());
      assert.equal(await store.get('dca_bot', inserted.id), undefined);
    });

    it('saves state changes, journal rows, events and records of a batch', async () => {
      const bot = await insert();
      await store.save({
        automations: [{ id: bot.id, running: true, state: { v: { n: 2 } }, updatedAt: at(2) }],
        events: [{ automationId: bot.id, message: 'first', at: at(2) }, { automationId: bot.id, message: 'second', at: at(2) }],
        orders: [order(bot.id, 10), order(bot.id, 7)],
        records: [{ kind: 'recorded', automationId: bot.id, records: [{ profit: '1.5' }] }],
      });
      const read = await store.get('grid_bot', bot.id);
      assert.deepEqual(read?.state, { v: { n: 2 } });
      assert.equal(read?.updatedAt.getTime(), at(2).getTime());
      assert.deepEqual((await store.orders(bot.id)).map((o) => o.id - base), [7, 10]);
      assert.deepEqual((await store.events(bot.id, { limit: 10, offset: 0 })).map((e) => e.message), ['first', 'second']);
      assert.deepEqual((await store.events(bot.id, { limit: 1, offset: 1 })).map((e) => e.message), ['second']);
      assert.deepEqual(await subject.recorded(), [{ automationId: bot.id, records: [{ profit: '1.5' }] }]);
    });

    it('reads a state stored as changes as its snapshot with every change logged after it applied in order', async () => {
      const bot = await insert();
      const other = await insert();
      const saveState = (change: { state: unknown } | { changes: PackedChanges }, minute: number, events: string[] = []) =>
        store.save({
          ...emptyBatch,
          automations: [{ id: bot.id, running: true, ...change, updatedAt: at(minute) } as AutomationChange],
          events: events.map((message) => ({ automationId: bot.id, message, at: at(minute) })),
        });
      const running = async () => (await store.loadRunning()).automations.find((a) => a.id === bot.id)?.state;
      await saveState({ state: { v: { lines: [[1, 'a'], [2, 'b']], n: 1 } } }, 1, ['made']);
      await saveState({ changes: packChanges([[['v', 'lines', 0, 1], 'x']]) }, 2, ['moved']);
      await store.save({ ...emptyBatch, automations: [{ id: other.id, running: true, changes: packChanges([[['v', 'n'], 9]]), updatedAt: at(2) }] });
      await saveState({ changes: packChanges([[['v', 'lines', 0, 1], 'z'], [['v', 'lines', 1, 1], 'y'], [['v', 'n']], [['v', 'added'], true]]) }, 3);
      const expected = { v: { lines: [[1, 'z'], [2, 'y']], added: true } };
      const read = await store.get('grid_bot', bot.id);
      assert.deepEqual(read?.state, expected);
      assert.equal(read?.updatedAt.getTime(), at(3).getTime());
      assert.deepEqual(await running(), expected);
      assert.deepEqual((await store.list('grid_bot', { accountId: bot.accountId })).find((a) => a.id === bot.id)?.state, expected);
      assert.deepEqual((await store.get('grid_bot', other.id))?.state, { v: { n: 9, text: 'a' } });
      // A new snapshot takes the place of the changes before it; those after it apply to it.
      await saveState({ state: { v: { n: 5 } } }, 4, ['stopped']);
      assert.deepEqual(await running(), { v: { n: 5 } });
      await saveState({ changes: packChanges([[['v', 'n'], 6]]) }, 5);
      assert.deepEqual(await running(), { v: { n: 6 } });
      assert.equal((await store.get('grid_bot', bot.id))?.updatedAt.getTime(), at(5).getTime());
      assert.deepEqual((await store.events(bot.id, { limit: 10, offset: 0 })).map((e) => e.message), ['made', 'moved', 'stopped']);
    });

    it('stops and restarts an automation by changes that set its running flag', async () => {
      const bot = await insert();
      const setRunning = (running: boolean, n: number, minute: number) =>
        store.save({ ...emptyBatch, automations: [{ id: bot.id, running, changes: packChanges([[['v', 'n'], n]]), setsRunning: true, updatedAt: at(minute) }] });
      const isLoaded = async () => (await store.loadRunning()).automations.some((a) => a.id === bot.id);
      await setRunning(false, 2, 2);
      assert.equal(await isLoaded(), false);
      const stopped = await store.get('grid_bot', bot.id);
      assert.deepEqual([stopped?.running, stopped?.state], [false, { v: { n: 2, text: 'a' } }]);
      await setRunning(true, 3, 3);
      assert.equal(await isLoaded(), true);
      assert.deepEqual((await store.get('grid_bot', bot.id))?.state, { v: { n: 3, text: 'a' } });
    });

    it('pages the events of several batches in the order they were logged', async () => {
      const bot = await insert();
      const other = await insert();
      const event = (automationId: number, message: string, minute: number) => ({ automationId, message, at: at(minute) });
      await store.save({ ...emptyBatch, events: [event(bot.id, 'a', 1), event(other.id, 'x', 1), event(bot.id, 'b', 1)] });
      await store.save({ ...emptyBatch, events: [event(bot.id, 'c', 2), event(bot.id, 'd', 2), event(bot.id, 'e', 2)] });
      const page = async (offset: number, limit: number) =>
        (await store.events(bot.id, { limit, offset })).map((e) => `${e.message}${e.createdAt.getUTCMinutes()}`);
      assert.deepEqual(await page(0, 10), ['a1', 'b1', 'c2', 'd2', 'e2']);
      assert.deepEqual(await page(1, 3), ['b1', 'c2', 'd2']);
      assert.deepEqual(await page(4, 3), ['e2']);
      assert.deepEqual(await page(5, 3), []);
      assert.deepEqual((await store.events(other.id, { limit: 10, offset: 0 })).map((e) => e.message), ['x']);
    });

    it('upserts journal rows by id, changing only what an order can change', async () => {
      const bot = await insert();
      await store.save({ ...emptyBatch, orders: [order(bot.id, 1)] });
      const changed = order(bot.id, 1, {
        filled: '0.01', filledTotal: '590.005', fee: '0.00001', status: 'filled', cancelRequested: true, updatedAt: at(5),
        exchangeOrderId: 'P17', feeCurrency: 'BTC', filledAt: at(4), price: '1', amount: '9', role: 'other',
      });
      await store.save({ ...emptyBatch, orders: [changed] });
      const [row] = await store.orders(bot.id);
      assert.deepEqual(row, {
        ...order(bot.id, 1),
        filled: '0.01', filledTotal: '590.005', fee: '0.00001', status: 'filled', cancelRequested: true, updatedAt: at(5),
        exchangeOrderId: 'P17', feeCurrency: 'BTC', filledAt: at(4),
      });
    });

    it('refuses a batch with records of a kind it cannot store, and keeps none of it', async () => {
      const bot = await insert();
      await assert.rejects(
        store.save({
          automations: [{ id: bot.id, running: false, state: { v: 'changed' }, updatedAt: at(3) }],
          events: [{ automationId: bot.id, message: 'lost', at: at(3) }],
          orders: [order(bot.id, 1)],
          records: [{ kind: 'unknown_kind', automationId: bot.id, records: [{}] }],
        }),
      );
      assert.deepEqual((await store.get('grid_bot', bot.id))?.state, { v: { n: 1, text: 'a' } });
      assert.deepEqual(await store.orders(bot.id), []);
      assert.deepEqual(await store.events(bot.id, { limit: 10, offset: 0 }), []);
    });

    it('loads running automations with their pending and open orders only', async () => {
      const running = await insert();
      const stopped = await insert('grid_bot', false);
      await store.save({
        ...emptyBatch,
        orders: [
          order(running.id, 1),
          order(running.id, 2, { status: 'pending' }),
          order(running.id, 3, { status: 'filled' }),
          order(running.id, 4, { status: 'cancelled' }),
          order(stopped.id, 5),
        ],
      });
      const loaded = await store.loadRunning();
      const mine = new Set([running.id, stopped.id]);
      assert.deepEqual(loaded.automations.filter((a) => mine.has(a.id)).map((a) => a.id), [running.id]);
      assert.deepEqual(loaded.liveOrders.filter((o) => mine.has(o.automationId)).map((o) => o.id - base), [1, 2]);
    });

    it('lists automations of a kind, by user and account, in id order', async () => {
      const [a, b, c] = [await insert(), await insert('grid_bot', true, subject.accountIds[1]), await insert('dca_bot')];
      assert.deepEqual((await store.list('grid_bot', { userId: subject.userId })).map((x) => x.id), [a.id, b.id]);
      assert.deepEqual((await store.list('grid_bot', { accountId: subject.accountIds[1] })).map((x) => x.id), [b.id]);
      assert.deepEqual((await store.list('dca_bot', { userId: subject.userId })).map((x) => x.id), [c.id]);
      assert.deepEqual(await store.list('grid_bot', { userId: subject.userId + 1000 }), []);
    });

    it('removes an automation with its journal and events', async () => {
      const bot = await insert();
      const kept = await insert();
      await store.save({ ...emptyBatch, orders: [order(bot.id, 1), order(kept.id, 2)], events: [{ automationId: bot.id, message: 'x', at: at(1) }] });
      await store.remove(bot.id);
      assert.equal(await store.get('grid_bot', bot.id), undefined);
      assert.deepEqual(await store.orders(bot.id), []);
      assert.deepEqual(await store.events(bot.id, { limit: 10, offset: 0 }), []);
      assert.deepEqual((await store.orders(kept.id)).map((o) => o.id - base), [2]);
    });

    it('reserves ids that are never handed out twice', async () => {
      const ids = [...(await store.reserveIds(3)), ...(await store.reserveIds(2))];
      assert.equal(new Set(ids).size, 5);
      assert.deepEqual([...ids].sort((x, y) => x - y), ids);
    });
  });
}
