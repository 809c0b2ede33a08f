import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { openTestDatabase, openUnmigratedDatabase } from '../../test/support/database.ts';
import { SqlPaperRepository } from './paper.repository.ts';
import type { Database } from './database.ts';
import { loadMigrations, migrate } from './migrate.ts';

describe('migrate', () => {
  let db: Database;
  let extraDir: string;

  before(async () => {
    db = await openTestDatabase();
    // The real migrations plus one more, so that applying can be seen on an already migrated database.
    extraDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradeloop-migrations-'));
    fs.cpSync(fileURLToPath(new URL('migrations', import.meta.url)), extraDir, { recursive: true });
    fs.writeFileSync(
      path.join(extraDir, '9001_extra_table.sql'),
      '-- a comment; with a semicolon\nCREATE TABLE extra (id integer PRIMARY KEY);\nINSERT INTO extra (id) VALUES (1);\n',
    );
  });

  after(async () => {
    await db?.close();
    if (extraDir) fs.rmSync(extraDir, { recursive: true, force: true });
  });

  it('records every migration file once in schema_migrations', async () => {
    const rows = await db.query<{ version: number; name: string }>(
      'SELECT version, name FROM schema_migrations ORDER BY version',
    );
    assert.deepEqual(rows, loadMigrations().map(({ version, name }) => ({ version, name })));
    assert.ok(rows.some((row) => row.version === 1 && row.name === 'users_and_api_keys'));
  });

  it('applies nothing when every migration is recorded', async () => {
    assert.deepEqual(await migrate(db), []);
    assert.deepEqual(await migrate(db), []);
  });

  it('applies a new migration once and only once', async () => {
    assert.deepEqual(await migrate(db, loadMigrations(extraDir)), [9001]);
    assert.deepEqual(await migrate(db, loadMigrations(extraDir)), []);
    const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM extra');
    assert.equal(rows[0]?.n, 1);
    const recorded = await db.query('SELECT 1 FROM schema_migrations WHERE version = 9001');
    assert.equal(recorded.length, 1);
  });

  it('rolls back a failing migration and does not record it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradeloop-migrations-'));
    try {
      fs.writeFileSync(
        path.join(dir, '9002_broken.sql'),
        'CREATE TABLE half_done (id integer);\nSELECT no_such_column FROM half_done;\n',
      );
      await assert.rejects(migrate(db, loadMigrations(dir)));
      const recorded = await db.query('SELECT 1 FROM schema_migrations WHERE version = 9002');
      assert.equal(recorded.length, 0);
      await assert.rejects(db.query('SELECT 1 FROM half_done'), /half_done/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('only reads files named NNNN_name.sql, in order', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradeloop-migrations-'));
    try {
      for (const file of ['0002_b.sql', '0001_a.sql', 'README.md', '3_bad.sql', '0003_Upper.sql']) {
        fs.writeFileSync(path.join(dir, file), 'SELECT 1;');
      }
      assert.deepEqual(
        loadMigrations(dir).map((m) => [m.version, m.name]),
        [[1, 'a'], [2, 'b']],
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the paper state stored before balances became one row per account and orders were keyed by sequence', async () => {
    const old = await openUnmigratedDatabase();
    try {
      await migrate(old, loadMigrations().filter((migration) => migration.version <= 63));
      const [user] = await old.query<{ id: number }>("INSERT INTO users (name) VALUES ('kept') RETURNING id");
      const [account] = await old.query<{ id: number }>(
        "INSERT INTO accounts (user_id, name, market_code) VALUES ($1, 'paper', 'paper_trading') RETURNING id",
        [user!.id],
      );
      const accountId = Number(account!.id);
      await old.query(
        `INSERT INTO paper_balances (account_id, currency, free, locked) VALUES ($1, 'USDT', 10.50, 590), ($1, 'BTC', 0.1, 0)`,
        [accountId],
      );
      await old.query(
        `INSERT INTO paper_orders (id, sequence, account_id, client_order_id, pair, side, type, price, amount, filled,
           filled_total, fee, fee_currency, status, created_at, updated_at)
         VALUES ('P7', 7, $1, 'b1', 'USDT_BTC', 'buy', 'limit', 59000, 0.01, 0, 0, 0, 'BTC', 'open', now(), now())`,
        [accountId],
      );
      await migrate(old);
      const stored = await new SqlPaperRepository(old).loadAccount(accountId);
      assert.deepEqual(
        stored?.balances.map((b) => [b.currency, b.free.toFixed(), b.locked.toFixed()]),
        [['BTC', '0.1', '0'], ['USDT', '10.5', '590']],
      );
      assert.deepEqual(stored?.openOrders.map((o) => [o.id, o.clientOrderId, o.price?.toFixed()]), [['P7', 'b1', '59000']]);
      assert.equal((await new SqlPaperRepository(old).load()).lastSequence, 7);
    } finally {
      await old.close();
    }
  });
});
