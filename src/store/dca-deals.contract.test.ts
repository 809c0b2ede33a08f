import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { openTestDatabase } from '../../test/support/database.ts';
import type { Database } from './database.ts';
import { dealSettings } from '../domain/dca-bot/test-support/fixtures.ts';
import { type Deal, newDeal } from '../domain/dca-bot/deal.ts';
import { dcaDealsContract } from './dca-deals.contract.ts';
import { dealLinePrefix } from '../domain/dca-bot/step-output.ts';
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
    log: (botId, lines) => logLines(db, botId, lines),
    userId: Number(user!.id),
    accountIds: [Number(accounts[0]!.id), Number(accounts[1]!.id)],
    botIds: [Number(bots[0]!.id), Number(bots[1]!.id)],
    dealIdBase: Number(last?.id ?? 0) + 100,
  };
});

/** A bot's lines as the engine's batch logs them: a row for each time, in the order logged. */
async function logLines(db: Database, botId: number, lines: Array<{ message: string; at: number }>): Promise<void> {
  const byTime = new Map<number, string[]>();
  for (const line of lines) byTime.set(line.at, [...(byTime.get(line.at) ?? []), line.message]);
  for (const [at, messages] of byTime) {
    await db.query('INSERT INTO automation_events (automation_id, messages, created_at) VALUES ($1, $2, $3)', [botId, messages, new Date(at)]);
  }
}

/** A new user with a paper account, and a deal id above every stored one. */
async function newOwner() {
  const db = await (database ??= openTestDatabase());
  const [user] = await db.query<{ id: number }>(`INSERT INTO users (name) VALUES ('dca-' || gen_random_uuid()) RETURNING id`);
  const [account] = await db.query<{ id: number }>(`INSERT INTO accounts (user_id, name, market_code) VALUES ($1, 'paper', 'paper_trading') RETURNING id`, [user!.id]);
  const [last] = await db.query<{ id: string | null }>('SELECT max(id) AS id FROM dca_deals');
  return { db, userId: Number(user!.id), accountId: Number(account!.id), dealId: Number(last?.id ?? 0) + 1 };
}

/** Writes the deals as a batch of the bot's records, in a transaction of their own. */
function writeDeals(db: Database, owner: { userId: number; accountId: number }, deals: Deal[], botId = 1): Promise<void> {
  const records = deals.map((deal) => ({ type: 'deal' as const, deal, botName: 'bot', ...owner }));
  return db.transaction((tx) => writeDcaRecords(tx, [{ automationId: botId, records }]));
}

dcaDealsContract('MemoryDcaStore', async () => {
  const logs = new Map<number, Array<{ message: string; createdAt: Date }>>();
  const store = new MemoryDcaStore(async (botId) => logs.get(botId) ?? []);
  return {
    store,
    write: async (batch) => store.write(batch),
    log: async (botId, lines) => {
      logs.set(botId, [...(logs.get(botId) ?? []), ...lines.map((line) => ({ message: line.message, createdAt: new Date(line.at) }))]);
    },
    userId: 1,
    accountIds: [1, 2],
    botIds: [1, 2],
    dealIdBase: 0,
  };
});

describe("SqlDcaRepository: a deal's lines once its bot is removed", () => {
  it('moves them out of the removed bot’s event rows, in order, and reads those written before 0085 and 0090', async () => {
    const { db, userId, accountId, dealId: first } = await newOwner();
    const [bot] = await db.query<{ id: string }>(
      `INSERT INTO automations (kind, user_id, account_id, running, state, created_at, updated_at) VALUES ('dca_bot', $1, $2, true, '{}', now(), now()) RETURNING id`,
      [userId, accountId],
    );
    const botId = Number(bot!.id);
    const ids = [first, first + 1];
    const at = Date.UTC(2024, 0, 1);
    const line = (id: number, message: string) => ({ message: `${dealLinePrefix('USDT_ETH', id)}${message}`, at });
    await logLines(db, botId, [line(ids[0]!, 'one'), { message: 'Bot started', at }, line(ids[1]!, 'x'), line(ids[0]!, 'two')]);
    const deals = ids.map((id) => newDeal({ id, no: 1, pair: 'USDT_ETH', base: 'ETH', quote: 'USDT', settings: dealSettings(), at }));
    await writeDeals(db, { userId, accountId }, deals, botId);
    await logLines(db, botId, [{ ...line(ids[0]!, 'three'), at: at + 1000 }]);
    const store = new SqlDcaRepository(db);
    const lines = async (id: number) => (await store.dealEvents(id)).map((event) => event.message);
    assert.deepEqual(await lines(ids[0]!), ['one', 'two', 'three']);

    await db.query('DELETE FROM automations WHERE id = $1', [botId]);
    assert.deepEqual(await lines(ids[0]!), ['one', 'two', 'three']);
    assert.deepEqual(await lines(ids[1]!), ['x']);
    assert.equal((await db.query('SELECT 1 FROM automation_events WHERE automation_id = $1', [botId])).length, 0);

    // Before 0085 a line had a row of its own.
    const dealId = 987_654_321;
    await db.query("INSERT INTO dca_deal_events (deal_id, message, created_at) VALUES ($1, 'old one', now()), ($1, 'old two', now())", [dealId]);
    await db.query("INSERT INTO dca_deal_events (deal_id, messages, created_at) VALUES ($1, ARRAY['new one', 'new two'], now())", [dealId]);
    assert.deepEqual(await lines(dealId), ['old one', 'old two', 'new one', 'new two']);
  });
});

describe("SqlDcaRepository: a deal's settings in a column of their own", () => {
  it('writes them apart from the rest of the deal, and reads deals written either way', async () => {
    const owner = await newOwner();
    const { db } = owner;
    const deal = (id: number): Deal => ({
      ...newDeal({ id, no: 1, pair: 'USDT_ETH', base: 'ETH', quote: 'USDT', settings: { ...dealSettings(), takeProfit: '2.5' }, at: Date.UTC(2024, 0, 1) }),
      status: 'bought',
    });
    const written = deal(owner.dealId);
    await writeDeals(db, owner, [written]);
    const [row] = await db.query<{ data: string; settings: string }>('SELECT data, settings FROM dca_deals WHERE id = $1', [written.id]);
    assert.equal('settings' in (JSON.parse(row!.data) as object), false);
    assert.deepEqual(JSON.parse(row!.settings), JSON.parse(JSON.stringify(written.settings)));
    // A row written before the settings had their column: they are in its text.
    const before = deal(written.id + 1);
    await db.query(
      `INSERT INTO dca_deals (id, bot_id, bot_name, account_id, user_id, pair, base, quote, status, finished, profit_currency, note, created_at, updated_at, data)
       VALUES ($1, 1, 'bot', $2, $3, 'USDT_ETH', 'ETH', 'USDT', 'bought', false, 'USDT', '', now(), now(), $4)`,
      [before.id, owner.accountId, owner.userId, JSON.stringify(before)],
    );
    const store = new SqlDcaRepository(db);
    for (const expected of [written, before]) {
      const found = await store.findDeal(expected.id);
      assert.deepEqual(JSON.parse(JSON.stringify(found?.deal)), JSON.parse(JSON.stringify(expected)));
      assert.equal(found?.deal.settings.takeProfit, '2.5');
    }
  });
});

describe('SqlDcaRepository: an active deal rewritten', () => {
  it('keeps its text from its last change of status until it ends, with its columns current', async () => {
    const owner = await newOwner();
    const { db } = owner;
    const at = Date.UTC(2024, 0, 1);
    const opened = newDeal({ id: owner.dealId, no: 1, pair: 'USDT_ETH', base: 'ETH', quote: 'USDT', settings: dealSettings(), at });
    const write = (deal: Deal) => writeDeals(db, owner, [deal]);
    const stored = async () => {
      const [row] = await db.query<{ status: string; updated_at: Date; data: string }>('SELECT status, updated_at, data FROM dca_deals WHERE id = $1', [opened.id]);
      return { status: row!.status, updatedAt: new Date(row!.updated_at).getTime(), safetyCompleted: (JSON.parse(row!.data) as Deal).safetyCompleted };
    };
    await write({ ...opened, status: 'bought', updatedAt: at + 1 });
    await write({ ...opened, status: 'bought', safetyCompleted: 1, updatedAt: at + 2 });
    assert.deepEqual(await stored(), { status: 'bought', updatedAt: at + 2, safetyCompleted: 0 });
    await write({ ...opened, status: 'completed', safetyCompleted: 2, updatedAt: at + 3, closedAt: at + 3, finalProfit: '1' });
    assert.deepEqual(await stored(), { status: 'completed', updatedAt: at + 3, safetyCompleted: 2 });
  });
});

