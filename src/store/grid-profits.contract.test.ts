import { after } from 'node:test';
import { openTestDatabase } from '../../test/support/database.ts';
import type { Database } from './database.ts';
import { gridProfitsContract } from './grid-profits.contract.ts';
import { SqlEngineRepository } from './engine.repository.ts';
import { gridProfitsLogged, SqlGridBotsRepository } from './grid-bots.repository.ts';
import { MemoryGridProfits } from './memory/memory-grid-profits.ts';

// One database for the file, new bots for each test: opening one costs a second or more.
let database: Promise<Database> | undefined;
after(async () => (await database)?.close());

gridProfitsContract('SqlGridBotsRepository', async () => {
  const db = await (database ??= openTestDatabase());
  const [user] = await db.query<{ id: number }>(`INSERT INTO users (name) VALUES ('grid-' || gen_random_uuid()) RETURNING id`);
  const [account] = await db.query<{ id: number }>(`INSERT INTO accounts (user_id, name, market_code) VALUES ($1, 'paper', 'paper_trading') RETURNING id`, [user!.id]);
  const bots = await db.query<{ id: string }>(
    `INSERT INTO automations (kind, user_id, account_id, running, state, created_at, updated_at)
     SELECT 'grid_bot', $1, $2, true, '{}', now(), now() FROM generate_series(1, 2) RETURNING id`,
    [user!.id, account!.id],
  );
  const engineStore = new SqlEngineRepository(db);
  engineStore.registerRecordWriter('grid_bot', gridProfitsLogged);
  return {
    store: new SqlGridBotsRepository(db),
    write: (batch) =>
      engineStore.save({ automations: [], events: [], orders: [], records: batch.map((entry) => ({ kind: 'grid_bot', ...entry })) }),
    botIds: [Number(bots[0]!.id), Number(bots[1]!.id)],
  };
});

gridProfitsContract('MemoryGridProfits', async () => {
  const store = new MemoryGridProfits();
  return { store, write: async (batch) => store.write(batch), botIds: [1, 2] };
});
