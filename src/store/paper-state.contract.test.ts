import { after } from 'node:test';
import { openTestDatabase } from '../../test/support/database.ts';
import type { Database } from './database.ts';
import { MemoryPaperStore } from './memory/memory-paper-store.ts';
import { SqlPaperRepository } from './paper.repository.ts';
import { paperStateContract } from './paper-state.contract.ts';

// One database for the file, new accounts for each test: opening one costs a second or more.
let database: Promise<Database> | undefined;
after(async () => (await database)?.close());

paperStateContract('SqlPaperRepository', async () => {
  const db = await (database ??= openTestDatabase());
  const [user] = await db.query<{ id: number }>(`INSERT INTO users (name) VALUES ('paper-' || gen_random_uuid()) RETURNING id`);
  const accounts = await db.query<{ id: number }>(
    `INSERT INTO accounts (user_id, name, market_code) SELECT $1, 'paper ' || n, 'paper_trading' FROM generate_series(1, 2) n RETURNING id`,
    [user!.id],
  );
  const store = new SqlPaperRepository(db);
  return {
    store,
    accountIds: [Number(accounts[0]!.id), Number(accounts[1]!.id)],
    sequenceBase: (await store.load()).lastSequence,
  };
});

paperStateContract('MemoryPaperStore', async () => ({ store: new MemoryPaperStore(), accountIds: [1, 2], sequenceBase: 0 }));
