import { after } from 'node:test';
import { openTestDatabase } from '../../test/support/database.ts';
import { accountsContract } from './accounts.contract.ts';
import { SqlAccountsRepository } from './accounts.repository.ts';
import type { Database } from './database.ts';
import { MemoryAccountsRepository } from './memory/memory-accounts.repository.ts';

// One database for the file, a new user for each test: opening one costs a second or more.
let database: Promise<Database> | undefined;
after(async () => (await database)?.close());

accountsContract('SqlAccountsRepository', async () => {
  const db = await (database ??= openTestDatabase());
  const [user] = await db.query<{ id: number }>(`INSERT INTO users (name) VALUES ('accounts-' || gen_random_uuid()) RETURNING id`);
  return { accounts: new SqlAccountsRepository(db), userId: Number(user!.id) };
});

accountsContract('MemoryAccountsRepository', async () => ({ accounts: new MemoryAccountsRepository(), userId: 1 }));
