import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { dec } from '../shared/decimal.ts';
import { openTestDatabase } from '../../test/support/database.ts';
import type { Database } from './database.ts';
import type { KindRecords } from '../engine/engine-store.ts';
import { engineStoreContract } from './engine-store.contract.ts';
import { SqlEngineRepository } from './engine.repository.ts';
import { gridProfitsLogged } from './grid-bots.repository.ts';
import { packChanges } from '../engine/state-changes.ts';
import { MemoryEngineStore } from './memory/memory-engine-store.ts';

// One database for the file, a new user for each test: opening one costs a second or more.
let database: Promise<Database> | undefined;
after(async () => (await database)?.close());

engineStoreContract('SqlEngineRepository', async () => {
  const db = await (database ??= openTestDatabase());
  const [user] = await db.query<{ id: number }>(`INSERT INTO users (name) VALUES ('contract-' || gen_random_uuid()) RETURNING id`);
  const accounts = await db.query<{ id: number }>(
    `INSERT INTO accounts (user_id, name, market_code) SELECT $1, 'paper ' || n, 'paper_trading' FROM generate_series(1, 2) n RETURNING id`,
    [user!.id],
  );
  const recorded: KindRecords = [];
  const store = new SqlEngineRepository(db);
  store.registerRecordWriter('recorded', async (_sql, batch) => {
    recorded.push(...batch);
  });
  return {
    store,
    userId: Number(user!.id),
    accountIds: [Number(accounts[0]!.id), Number(accounts[1]!.id)],
    recorded: async () => recorded,
  };
});

engineStoreContract('MemoryEngineStore', async () => {
  const recorded: KindRecords = [];
  return {
    store: new MemoryEngineStore({ recorded: (batch) => recorded.push(...batch) }),
    userId: 1,
    accountIds: [1, 2],
    recorded: async () => recorded,
  };
});

describe('SqlEngineRepository, removing automations', () => {
  it("removes a deleted user's automations with their journal, events and grid profit rows, and no one else's", async () => {
    const db = await (database ??= openTestDatabase());
    const store = new SqlEngineRepository(db);
    store.registerRecordWriter('grid_bot', gridProfitsLogged);
    const owners = await db.query<{ id: number }>(`INSERT INTO users (name) SELECT 'removed-' || gen_random_uuid() FROM generate_series(1, 2) RETURNING id`);
    const bots: number[] = [];
    for (const owner of owners) {
      const [account] = await db.query<{ id: number }>("INSERT INTO accounts (user_id, name, market_code) VALUES ($1, 'paper', 'paper_trading') RETURNING id", [owner.id]);
      const at = new Date(Date.UTC(2024, 0, 1));
      const bot = await store.insert({ kind: 'grid_bot', userId: Number(owner.id), accountId: Number(account!.id), running: true, state: { v: {} }, at });
      const [id] = await store.reserveIds(1);
      await store.save({
        automations: [],
        events: [{ automationId: bot.id, message: 'filled', at }],
        orders: [{
          id: id!, automationId: bot.id, key: 'b1', clientOrderId: `tlg${bot.id}xb1`, accountId: Number(account!.id), pair: 'USDT_BTC', role: 'grid',
          side: 'buy', orderType: 'limit', timeInForce: null, price: '100', amount: '1', filled: '1', filledTotal: '100', fee: '0', status: 'filled',
          cancelRequested: false, exchangeOrderId: null, feeCurrency: null, filledAt: at, createdAt: at, updatedAt: at,
        }],
        records: [{ kind: 'grid_bot', automationId: bot.id, records: [{ lineId: 1, linePrice: dec(100), side: 'sell', orderPlaced: true, profit: dec(1), at }] }],
      });
      bots.push(bot.id);
    }
    const count = async (table: string, id: number) =>
      (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE automation_id = $1`, [id]))[0]!.n;
    const history = async (id: number) => [await count('engine_orders', id), await count('automation_events', id), await count('grid_profits', id)];
    assert.deepEqual(await history(bots[0]!), [1, 1, 1]);
    await db.query('DELETE FROM users WHERE id = $1', [owners[0]!.id]);
    assert.deepEqual(await history(bots[0]!), [0, 0, 0]);
    assert.deepEqual(await history(bots[1]!), [1, 1, 1]);
  });
});

describe('SqlEngineRepository, states stored before their changes were logged', () => {
  it('reads a state stored with changes of the old form, then the changes logged after it', async () => {
    const db = await (database ??= openTestDatabase());
    const store = new SqlEngineRepository(db);
    const [user] = await db.query<{ id: number }>(`INSERT INTO users (name) VALUES ('old-' || gen_random_uuid()) RETURNING id`);
    const [account] = await db.query<{ id: number }>("INSERT INTO accounts (user_id, name, market_code) VALUES ($1, 'paper', 'paper_trading') RETURNING id", [user!.id]);
    const at = new Date(Date.UTC(2024, 0, 1));
    const bot = await store.insert({ kind: 'grid_bot', userId: Number(user!.id), accountId: Number(account!.id), running: true, state: { v: { a: 1, b: [1, 2] } }, at });
    // As a batch before migration 0081 left it: everything that differed from the snapshot, in the row.
    await db.query('UPDATE automations SET changes = $2 WHERE id = $1', [bot.id, JSON.stringify(packChanges([[['v', 'a'], 2], [['v', 'b', 1], 3]]))]);
    assert.deepEqual((await store.get('grid_bot', bot.id))?.state, { v: { a: 2, b: [1, 3] } });
    await store.save({
      automations: [{ id: bot.id, running: true, changes: packChanges([[['v', 'b', 0], 9]]), updatedAt: at }],
      events: [],
      orders: [],
      records: [],
    });
    assert.deepEqual((await store.get('grid_bot', bot.id))?.state, { v: { a: 2, b: [9, 3] } });
  });
});
