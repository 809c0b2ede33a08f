/**
 * A grid bot's state as the store reads it back (its snapshot and the changes logged after it)
 * must equal the engine's running state after every batch, across several snapshots, and an
 * engine started again on the same database must resume from exactly that state, logging its next
 * changes on top of it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../store/database.ts';
import { SqlEngineRepository } from '../store/engine.repository.ts';
import { openTestDatabase } from '../../test/support/database.ts';
import { type SqlGridProcess, SqlGridScenario } from '../../test/support/sql-grid-engine.ts';
import type { EngineBatch } from './engine-store.ts';
import { gridBotKind } from './kinds/grid-bot.kind.ts';

/** The real store, counting the states it was given whole (snapshots) and as changes. */
class CountingStore extends SqlEngineRepository {
  whole = 0;
  changes = 0;

  override save(batch: EngineBatch): Promise<void> {
    for (const change of batch.automations) {
      if (change.changes) this.changes += 1;
      else this.whole += 1;
    }
    return super.save(batch);
  }
}

describe('a grid bot stored as a snapshot and a log of changes', () => {
  let db: Database;

  before(async () => {
    db = await openTestDatabase();
  });

  after(async () => {
    await db.close();
  });

  it('reads back the running state after every batch, and an engine started again resumes from it', async () => {
    const scenario = new SqlGridScenario(db);
    const firstStore = new CountingStore(db);
    const first = await scenario.start(firstStore);
    const { botId } = await scenario.gridBot(first);
    const reader = new SqlEngineRepository(db);
    const storedJson = async () => (await reader.get(gridBotKind.name, botId))!.state as { v: unknown };
    const runningJson = async (process: SqlGridProcess) =>
      JSON.parse(JSON.stringify(gridBotKind.toJson((await process.engine.get(gridBotKind, botId))!.state))) as unknown;

    // Swings across a few lines each way, again and again: each fill logs a few changed lines.
    for (let swing = 0; swing < 60; swing += 1) {
      for (const price of [60000 + (swing % 7) * 350, 59000 - (swing % 5) * 300]) {
        await scenario.move(first, price);
        assert.deepEqual((await storedJson()).v, await runningJson(first), `after the move to ${price} in swing ${swing}`);
      }
    }
    assert.ok(firstStore.whole >= 3, `${firstStore.whole} snapshots stored`);
    assert.ok(firstStore.changes > firstStore.whole * 5, `${firstStore.changes} changes logged`);

    await scenario.stop(first);
    const secondStore = new CountingStore(db);
    const second = await scenario.start(secondStore);
    assert.deepEqual(await runningJson(second), (await storedJson()).v);
    for (const price of [61000, 58500, 60500]) {
      await scenario.move(second, price);
      assert.deepEqual((await storedJson()).v, await runningJson(second), `after the move to ${price} once started again`);
    }
    // It knows what storage holds: its first batches log changes rather than store the state again.
    assert.deepEqual({ whole: secondStore.whole, changes: secondStore.changes }, { whole: 0, changes: 3 });
    await scenario.stop(second);
  });
});
