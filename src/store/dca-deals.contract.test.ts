import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { openTestDatabase } from '../../test/support/database.ts';
import type { Database } from './database.ts';
import { dcaDealsContract } from './dca-deals.contract.ts';
import { SqlDcaRepository, writeDcaRecords } from './dca.repository.ts';
import { MemoryDcaStore } from './memory/memory-dca-store.ts';

// One database for the file, a new user for each test: opening one costs a second or more.
let database: Promise<Database> | undefined;
after(async () => (await database)?.close());

dcaDealsContract('SqlDcaRepository', async () => {
  const db = await (database ??= openTestDatabase());
  const [user] = await db.query<{ id: number }>(`INSERT INTO users (name) VALUES ('dca-' || gen_random_uuid()) RETURNING id`);
  const accounts = await db.query<{ id: number }>(
    `INSERT INTO accounts (user_id, name, market_code) SELECT $1, 'paper ' || n, 'paper_trading' FROM generate_series(1, 2) n RETURNING id`,
    [user!.id],
  );
  const bots = await db.query<{ id: string }>(
    `INSERT INTO automations (kind, user_id, account_id, running, state, created_at, updated_at)
     SELECT 'dca_bot', $1, $2, true, '{}', now(), now() FROM generate_series(1, 2) RETURNING id`,
    [user!.id, accounts[0]!.id],
  );
  const [last] = await db.query<{ id: string | null }>('SELECT max(id) AS id FROM dca_deals');
  return {
    store: new SqlDcaRepository(db),
    write: (batch) => db.transaction((tx) => writeDcaRecords(tx, batch)),
    userId: Number(user!.id),
    accountIds: [Number(accounts[0]!.id), Number(accounts[1]!.id)],
    botIds: [Number(bots[0]!.id), Number(bots[1]!.id)],
    dealIdBase: Number(last?.id ?? 0) + 100,
  };
});

dcaDealsContract('MemoryDcaStore', async () => {
  const store = new MemoryDcaStore();
  return { store, write: async (batch) => store.write(batch), userId: 1, accountIds: [1, 2], botIds: [1, 2], dealIdBase: 0 };
});

describe('SqlDcaRepository, deal log lines stored one to a row before migration 0085', () => {
  it('reads them in order with the lines stored a batch to a row after them', async () => {
    const db = await (database ??= openTestDatabase());
    const dealId = 987_654_321;
    await db.query("INSERT INTO dca_deal_events (deal_id, message, created_at) VALUES ($1, 'old one', now()), ($1, 'old two', now())", [dealId]);
    await db.transaction((tx) =>
      writeDcaRecords(tx, [{ automationId: 1, records: [{ type: 'deal_event', dealId, message: 'new one', at: 0 }, { type: 'deal_event', dealId, message: 'new two', at: 0 }] }]),
    );
    const lines = (await new SqlDcaRepository(db).dealEvents(dealId)).map((event) => event.message);
    assert.deepEqual(lines, ['old one', 'old two', 'new one', 'new two']);
  });
});
