import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openTestDatabase } from '../../test/support/database.ts';
import type { Database } from './database.ts';
import { SqlPaperRepository } from './paper.repository.ts';

describe('SqlPaperRepository.loadAccounts', () => {
  let db: Database;
  let userId: number;

  before(async () => {
    db = await openTestDatabase();
    const [user] = await db.query<{ id: number }>(`INSERT INTO users (name) VALUES ('load-' || gen_random_uuid()) RETURNING id`);
    userId = user!.id;
  });
  after(() => db.close());

  const account = async (marketCode: string) => {
    // A real account keeps its sealed credentials: a placeholder is enough here.
    const [row] = await db.query<{ id: number }>(
      'INSERT INTO accounts (user_id, name, market_code, sealed_credentials) VALUES ($1, $2, $2, $3) RETURNING id',
      [userId, marketCode, marketCode === 'paper_trading' ? null : 'sealed'],
    );
    return Number(row!.id);
  };
  const automation = async (accountId: number) => {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO automations (kind, user_id, account_id, running, state, created_at, updated_at) VALUES ('grid_bot', $1, $2, true, '{}', now(), now()) RETURNING id`,
      [userId, accountId],
    );
    return Number(row!.id);
  };
  let nextId = 1_000_000;
  const journalRow = async (automationId: number, accountId: number, key: string, status: string, exchangeOrderId: string | null) => {
    nextId += 1;
    await db.query(
      `INSERT INTO engine_orders (id, automation_id, order_key, client_order_id, account_id, pair, role, side, order_type, price, amount,
         filled, filled_total, fee, status, exchange_order_id, fee_currency, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, 'USDT_BTC', 'grid_line', 'buy', 'limit', 59000, 0.001, 0, 0, 0, $6, $7, 'BTC', now(), now())`,
      [nextId, automationId, key, `tlg${automationId}x${key}`, accountId, status, exchangeOrderId],
    );
  };

  it('reads the open orders of the paper accounts among those asked for: their own rows and the journal rows that are their only record', async () => {
    const paper = await account('paper_trading');
    const real = await account('binance');
    const [onPaper, onReal] = [await automation(paper), await automation(real)];
    await journalRow(onPaper, paper, 'o1', 'open', 'P901');
    await journalRow(onPaper, paper, 'o2', 'filled', 'P902');
    await journalRow(onPaper, paper, 'o3', 'pending', null);
    // Stored by the paper exchange itself before the journal was the record: its own row wins.
    await journalRow(onPaper, paper, 'o4', 'open', 'P904');
    await db.query(
      `INSERT INTO paper_orders (id, sequence, account_id, client_order_id, pair, side, type, price, amount, filled, filled_total, fee,
         fee_currency, status, created_at, updated_at)
       VALUES ('P904', 904, $1, $2, 'USDT_BTC', 'buy', 'limit', 59000, 0.001, 0.001, 59, 0.000001, 'BTC', 'filled', now(), now())`,
      [paper, `tlg${onPaper}xo4`],
    );
    await journalRow(onReal, real, 'o1', 'open', '12345');

    const loaded = await new SqlPaperRepository(db).loadAccounts([paper, real]);
    assert.deepEqual(
      loaded.map((stored) => [stored.accountId, stored.openOrders.map((order) => order.id), stored.journaled]),
      [[paper, ['P901'], ['P901']]],
    );

    // The whole state reads every paper account not deleted the same way.
    const deleted = await account('paper_trading');
    await journalRow(await automation(deleted), deleted, 'o1', 'open', 'P905');
    await db.query('UPDATE accounts SET deleted_at = now() WHERE id = $1', [deleted]);
    const state = await new SqlPaperRepository(db).load();
    assert.deepEqual(
      state.accounts.filter((stored) => [paper, real, deleted].includes(stored.accountId)).map((stored) => [stored.accountId, stored.openOrders.map((order) => order.id)]),
      [[paper, ['P901']]],
    );
  });
});
