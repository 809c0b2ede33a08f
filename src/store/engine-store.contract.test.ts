import { after } from 'node:test';
import { openTestDatabase } from '../../test/support/database.ts';
import type { Database } from './database.ts';
import type { KindRecords } from '../engine/engine-store.ts';
import { engineStoreContract } from './engine-store.contract.ts';
import { SqlEngineRepository } from './engine.repository.ts';
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
