import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stdSerializers } from 'pino';
import { openTestDatabase } from '../../test/support/database.ts';
import type { Database } from './database.ts';
import { StatementError, statementName } from './statement-error.ts';

describe(statementName.name, () => {
  const cases: Array<[string, string]> = [
    ['SELECT bot_id, data FROM dca_deals WHERE user_id = $1', 'SELECT dca_deals'],
    ['  INSERT INTO api_keys (name) VALUES ($1) RETURNING id', 'INSERT api_keys'],
    ['UPDATE users SET mode = $2 WHERE id = $1', 'UPDATE users'],
    ['DELETE FROM automations WHERE id = $1', 'DELETE automations'],
    ['SELECT 1', 'SELECT'],
  ];
  for (const [sql, name] of cases) it(name, () => assert.equal(statementName(sql), name));
});

describe('a failing statement, as the logs see it', () => {
  const SECRET = 'note-7f3a9-that-must-not-be-logged';
  let db: Database;
  before(async () => {
    db = await openTestDatabase();
  });
  after(() => db?.close());

  async function failure(run: () => Promise<unknown>): Promise<StatementError> {
    const error = await run().then(() => undefined, (caught: unknown) => caught);
    assert.ok(error instanceof StatementError, `got ${String(error)}`);
    // What pino writes for `{ err }`, as the error handler and the engine log it.
    const logged = JSON.stringify(stdSerializers.err(error));
    assert.ok(!logged.includes(SECRET), logged);
    return error;
  }

  it('names the statement and its SQLSTATE, never a parameter value', async () => {
    const error = await failure(() => db.query('SELECT id FROM users WHERE id = $1::bigint', [SECRET]));
    assert.equal(error.statement, 'SELECT users');
    assert.equal(error.code, '22P02');
  });

  it('keeps the code and constraint of a unique violation, inside a transaction too', async () => {
    await db.query('INSERT INTO users (name) VALUES ($1)', [SECRET]);
    const error = await failure(() => db.transaction((tx) => tx.query('INSERT INTO users (name) VALUES ($1)', [SECRET])));
    assert.equal(error.statement, 'INSERT users');
    assert.equal(error.code, '23505');
    assert.equal(error.constraint, 'users_name_key');
  });
});
