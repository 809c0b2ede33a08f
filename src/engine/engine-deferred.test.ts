import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dec } from '../shared/decimal.ts';
import type { Database } from '../store/database.ts';
import { SqlEngineRepository } from '../store/engine.repository.ts';
import { SqlPaperRepository } from '../store/paper.repository.ts';
import { openTestDatabase } from '../../test/support/database.ts';
import { startPaperAndEngine } from '../../test/support/paper-and-engine.ts';
import { trailKind, type TrailState } from '../../test/support/trail-kind.ts';
import { until } from '../../test/support/until.ts';
import type { EngineBatch } from './engine-store.ts';
import type { Engine } from './engine.ts';
import { PaperTrading } from './paper-trading.ts';

interface Process {
  paper: PaperTrading;
  engine: Engine;
  /** The engine's clock, moved by the test. */
  clock: { now: number };
}

/** The real store, failing once the next batch that logs ticks: whole, then its part without automations. */
class LogFailingStore extends SqlEngineRepository {
  failures = 0;

  override async save(batch: EngineBatch): Promise<void> {
    if (this.failures > 0 && batch.ticks) {
      this.failures -= 1;
      throw new Error('the tick log could not be stored');
    }
    return super.save(batch);
  }
}

async function startProcess(db: Database, store = new SqlEngineRepository(db), errors?: string[]): Promise<Process> {
  const clock = { now: Date.UTC(2024, 0, 1) };
  const { paper, engine } = await startPaperAndEngine(new SqlPaperRepository(db), {
    store,
    clock: () => new Date(clock.now),
    logger: { warn: () => {}, error: (object, message) => (errors ? void errors.push(message) : assert.fail(JSON.stringify(object))) },
    kinds: [trailKind],
    deferredChangesMs: 60_000,
  });
  return { paper, engine, clock };
}

describe('changes of quiet tick steps, stored later', () => {
  let db: Database;
  let userId: number;

  before(async () => {
    db = await openTestDatabase();
    const [user] = await db.query<{ id: number }>("INSERT INTO users (name) VALUES ('d') RETURNING id");
    userId = user!.id;
  });

  after(async () => {
    await db.close();
  });

  const move = async (process: Process, price: string) => {
    process.clock.now += 1_000;
    await process.paper.applyTicks([{ pair: 'USDT_BTC', price: dec(price), at: new Date(process.clock.now) }]);
    await process.engine.settled();
  };

  const stored = async (id: number) => {
    return (await new SqlEngineRepository(db).get(trailKind.name, id))!.state as { v: TrailState };
  };
  const logged = async () => Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM engine_ticks'))[0]!.n);

  async function trailing(process: Process): Promise<number> {
    const [account] = await db.query<{ id: number }>(
      "INSERT INTO accounts (user_id, name, market_code) VALUES ($1, 'paper', 'paper_trading') RETURNING id",
      [userId],
    );
    await process.paper.openAccount(account!.id, [{ currency: 'BTC', free: dec(1), locked: dec(0) }]);
    await move(process, '100');
    const created = await process.engine.create(trailKind, { userId, accountId: account!.id, state: { high: '100', sold: false } }, { type: 'start' });
    return created.id;
  }

  it('logs the ticks instead of storing each change, and after a crash steps the automation on them again', async () => {
    const first = await startProcess(db);
    const id = await trailing(first);
    for (const price of ['104', '111', '120', '118']) await move(first, price);
    assert.equal((await first.engine.get(trailKind, id))!.state.high, '120');
    assert.equal((await stored(id)).v.high, '100', 'the quiet changes wait');
    assert.equal(await logged(), 3);

    // The process dies here: nothing more is stored. A new one replays the logged ticks.
    const second = await startProcess(db);
    assert.equal((await second.engine.get(trailKind, id))!.state.high, '120');
    assert.equal((await stored(id)).v.high, '120');
    assert.equal(await logged(), 0, 'the replayed batches are no longer needed');

    // 113 is past the stop of the highest price (114) though not of the stored one (95).
    await move(second, '113');
    const after = (await second.engine.get(trailKind, id))!;
    assert.equal(after.state.sold, true);
    assert.deepEqual((await second.engine.orders(id)).map((order) => [order.side, order.status]), [['sell', 'filled']]);
    await second.paper.stop();
    await second.engine.stop();
  });

  it('stores with the next batch, whole, a quiet change whose logged ticks failed to be stored', async () => {
    const store = new LogFailingStore(db);
    const errors: string[] = [];
    const process = await startProcess(db, store, errors);
    const id = await trailing(process);
    store.failures = 2;
    await move(process, '104').catch(() => undefined);
    assert.equal(store.failures, 0);
    assert.equal((await stored(id)).v.high, '100');
    await move(process, '105');
    assert.equal((await stored(id)).v.high, '105', 'stored, not left waiting on a log that was lost');
    await process.paper.stop();
    await process.engine.stop();
  });

  it('stores a change once it waited long enough, when a step does anything else, and at a stop', async () => {
    const process = await startProcess(db);
    const waiting = await trailing(process);
    const other = await trailing(process);
    await move(process, '105');
    assert.equal((await stored(waiting)).v.high, '100');

    // Sixty seconds after the first unstored change, the next batch stores it.
    process.clock.now += 60_000;
    await move(process, '106');
    assert.equal((await stored(waiting)).v.high, '106');

    await move(process, '107');
    assert.equal((await stored(other)).v.high, '106');

    // With no tick coming, the engine's own timer stores a change once it is due.
    process.clock.now += 60_000;
    await until('the waiting change is stored without a tick', async () => ((await stored(waiting)).v.high === '107' ? true : undefined));
    assert.equal((await stored(other)).v.high, '107');
    await move(process, '108');
    await process.paper.stop();
    await process.engine.stop();
    assert.equal((await stored(waiting)).v.high, '108');
    assert.equal((await stored(other)).v.high, '108');

    const again = await startProcess(db);
    assert.equal((await again.engine.get(trailKind, waiting))!.state.high, '108');
    await move(again, '101');
    assert.equal((await again.engine.get(trailKind, waiting))!.state.sold, true, 'a step that orders is stored with its batch');
    assert.equal((await stored(waiting)).v.sold, true);
    await again.paper.stop();
    await again.engine.stop();
  });
});
