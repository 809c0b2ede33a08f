/**
 * A paper account's balances are logged with the event row of one of its automations when the
 * batch writes one, and written to the account's balances row only otherwise, or after so many
 * batches in a row (migration 0088). What is stored must read back as the venue holds it after
 * every batch, after the automation that logged them is removed, and in an engine started again.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../store/database.ts';
import { SqlPaperRepository } from '../store/paper.repository.ts';
import { openTestDatabase } from '../../test/support/database.ts';
import { type SqlGridProcess, SqlGridScenario } from '../../test/support/sql-grid-engine.ts';
import { gridBotKind } from './kinds/grid-bot.kind.ts';

const asText = (balances: ReadonlyArray<{ currency: string; free: { toFixed(): string }; locked: { toFixed(): string } }>) =>
  balances.map((b) => `${b.currency} ${b.free.toFixed()} ${b.locked.toFixed()}`).sort();

describe('paper balances logged with the event rows of a batch', () => {
  let db: Database;

  before(async () => {
    db = await openTestDatabase();
  });

  after(async () => {
    await db.close();
  });

  it('read back as the venue holds them after every batch, after their automation is removed, and once started again', async () => {
    const scenario = new SqlGridScenario(db);
    const first = await scenario.start();
    const { accountId, botId } = await scenario.gridBot(first);
    const stored = async () => asText((await new SqlPaperRepository(db).loadAccount(accountId))!.balances);
    const held = async (process: SqlGridProcess) => asText(await (await process.paper.exchange(accountId)).balances());
    const rowWrites = new Set<string>();
    const row = async () => {
      const [found] = await db.query<{ logged_after: string }>('SELECT logged_after::text FROM paper_account_balances WHERE account_id = $1', [accountId]);
      rowWrites.add(found!.logged_after);
    };

    await row();
    for (let swing = 0; swing < 50; swing += 1) {
      for (const price of [60000 + (swing % 7) * 350, 59000 - (swing % 5) * 300]) {
        await scenario.move(first, price);
        assert.deepEqual(await stored(), await held(first), `after the move to ${price} in swing ${swing}`);
        await row();
      }
    }
    const [logged] = await db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM automation_events WHERE automation_id = $1 AND balances IS NOT NULL',
      [botId],
    );
    assert.ok(logged!.count >= 70, `${logged!.count} event rows logged the balances`);
    // Written once when the account opened, then once after each run of 64 batches logged with events.
    assert.ok(rowWrites.size >= 2 && rowWrites.size <= 1 + Math.ceil(logged!.count / 64), `the balances row was written ${rowWrites.size} times`);

    await scenario.stop(first);
    const again = await scenario.start();
    assert.deepEqual(await held(again), await stored(), 'an engine started again holds what was stored');
    await scenario.move(again, 61500);
    assert.deepEqual(await stored(), await held(again));

    await again.engine.remove(gridBotKind, botId);
    const [events] = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM automation_events WHERE automation_id = $1', [botId]);
    assert.equal(events!.count, 0, 'the event rows left with their automation');
    assert.deepEqual(await stored(), await held(again), 'the balances they logged stayed');
    await scenario.stop(again);
  });
});
