import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { SecretBox } from '../auth/secret-box.ts';
import type { Database } from '../store/database.ts';
import { SqlNotificationsRepository } from '../store/notifications.repository.ts';
import { openPostgres } from '../store/postgres-database.ts';
import { openTestDatabase } from '../../test/support/database.ts';
import { OutboxHook } from './outbox-hook.ts';

const AT = new Date(Date.UTC(2026, 2, 2, 10));

describe('OutboxHook', () => {
  let db: Database;
  let store: SqlNotificationsRepository;
  let hook: OutboxHook;
  const users: number[] = [];

  before(async () => {
    db = await openTestDatabase();
    store = new SqlNotificationsRepository(db);
    hook = new OutboxHook(store);
    for (const name of ['with_target', 'without_target']) {
      const [row] = await db.query<{ id: number }>('INSERT INTO users (name) VALUES ($1) RETURNING id', [name]);
      users.push(Number(row!.id));
    }
  });
  after(() => db.close());

  const quarantine = (userId: number, id: number) =>
    db.transaction((tx) =>
      hook.quarantineWriter()(tx, [{ automationId: id, records: [{ kind: 'grid_bot', userId, reason: 'Stopped: its changes could not be stored (refused)', at: AT }] }]),
    );
  const outbox = () => db.query<{ user_id: string; event: string; dedupe_key: string; payload: unknown }>('SELECT user_id, event, dedupe_key, payload FROM notification_outbox ORDER BY id');

  it('writes nothing while no target is enabled, then tells a stopped bot’s owner, and only an owner with a target', async () => {
    await hook.refresh();
    await quarantine(users[0]!, 11);
    assert.deepEqual(await outbox(), []);

    await store.insert({
      userId: users[0]!, kind: 'webhook', name: 'hook', url: 'http://127.0.0.1:9/', chatId: null,
      secretSealed: new SecretBox(randomBytes(32)).seal('a webhook secret!'), events: [], enabled: true, createdAt: AT,
    });
    await hook.refresh();
    await quarantine(users[0]!, 12);
    await quarantine(users[1]!, 13);
    const rows = await outbox();
    assert.deepEqual(
      rows.map((row) => [Number(row.user_id), row.event, row.dedupe_key, typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload]),
      [[users[0], 'bot_disabled', `bot_disabled:12:${AT.getTime()}`, { bot_id: 12, kind: 'grid_bot', reason: 'Stopped: its changes could not be stored (refused)' }]],
    );
  });

  it('hears targets another process adds or disables, on PostgreSQL, with no read per batch', { skip: process.env.DATABASE_URL ? false : 'needs PostgreSQL: set DATABASE_URL' }, async () => {
    const [{ schema }] = (await db.query<{ schema: string }>('SELECT current_schema() AS schema')) as [{ schema: string }];
    const other = await openPostgres(process.env.DATABASE_URL!, schema);
    // Its fallback read is far off: only what it hears can change its mind within the test.
    const elsewhere = new OutboxHook(new SqlNotificationsRepository(other), undefined, 3_600_000);
    const until = async (wanted: boolean) => {
      const deadline = Date.now() + 30_000;
      while (elsewhere.active !== wanted && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.equal(elsewhere.active, wanted);
    };
    try {
      await db.exec('UPDATE notification_targets SET enabled = false');
      await elsewhere.start();
      assert.equal(elsewhere.active, false);
      const [target] = await store.list(users[1]!);
      const added = target ?? (await store.insert({
        userId: users[1]!, kind: 'webhook', name: 'hook', url: 'http://127.0.0.1:9/', chatId: null,
        secretSealed: new SecretBox(randomBytes(32)).seal('a webhook secret!'), events: [], enabled: true, createdAt: AT,
      }));
      await store.update(users[1]!, added.id, { enabled: true }, AT);
      await until(true);
      await store.update(users[1]!, added.id, { enabled: false }, AT);
      await until(false);
    } finally {
      await elsewhere.stop();
      await other.close();
    }
  });
});
