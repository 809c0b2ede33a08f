/**
 * A grid bot's state as the store reads it back (its snapshot and the changes logged after it)
 * must equal the engine's running state after every batch, across several snapshots, and an
 * engine started again on the same database must resume from exactly that state, logging its next
 * changes on top of it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildGridConfig } from '../domain/grid-bot/config-validation.ts';
import { newGridBot } from '../domain/grid-bot/grid-bot-state.ts';
import { parsePair } from '../domain/market/pair.ts';
import { PAPER_MARKETS } from '../exchanges/paper/paper-markets.ts';
import { PaperVenue } from '../exchanges/paper/paper-venue.ts';
import { ManualFeed } from '../market-data/manual-feed.ts';
import { dec, ZERO } from '../shared/decimal.ts';
import type { Database } from '../store/database.ts';
import { SqlEngineRepository } from '../store/engine.repository.ts';
import { gridProfitsLogged } from '../store/grid-bots.repository.ts';
import { SqlPaperRepository } from '../store/paper.repository.ts';
import { openTestDatabase } from '../../test/support/database.ts';
import type { EngineBatch } from './engine-store.ts';
import { Engine } from './engine.ts';
import { gridBotKind } from './kinds/grid-bot.kind.ts';
import { PaperTrading } from './paper-trading.ts';

const FEE_RATE = dec('0.001');
const at = (second: number) => new Date(Date.UTC(2024, 0, 1) + second * 1000);

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

async function startProcess(db: Database, clock: () => Date) {
  const store = new CountingStore(db);
  const paper = new PaperTrading(new PaperVenue(PAPER_MARKETS), new SqlPaperRepository(db), new ManualFeed());
  const companion = paper.storeThrough({ storeCompanion: () => engine.storeCompanion(), journals: (a, c) => engine.journals(a, c) });
  const engine: Engine = new Engine({
    store,
    companion,
    exchangeFor: (accountId) => paper.exchange(accountId),
    batchOrders: (work) => paper.batch(work),
    clock,
    logger: { warn: () => {}, error: (object) => assert.fail(JSON.stringify(object)) },
    kinds: [gridBotKind],
  });
  engine.registerRecordWriter(gridBotKind.name, gridProfitsLogged);
  await engine.start();
  await paper.start(() => engine.settled());
  return { store, paper, engine };
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
    let second = 0;
    const clock = () => at(second);
    const first = await startProcess(db, clock);
    const [user] = await db.query<{ id: number }>("INSERT INTO users (name) VALUES ('log') RETURNING id");
    const [account] = await db.query<{ id: number }>(
      "INSERT INTO accounts (user_id, name, market_code) VALUES ($1, 'paper', 'paper_trading') RETURNING id",
      [user!.id],
    );
    const accountId = account!.id;
    await first.paper.openAccount(accountId, [
      { currency: 'USDT', free: dec('100000'), locked: ZERO },
      { currency: 'BTC', free: dec('2'), locked: ZERO },
    ]);
    const market = PAPER_MARKETS.find((m) => m.pair === 'USDT_BTC')!;
    const move = async (process: typeof first, price: number) => {
      second += 1;
      await process.paper.applyTicks([{ pair: 'USDT_BTC', price: dec(price), at: at(second) }]);
      await process.engine.settled();
    };
    await move(first, 60000);
    const config = buildGridConfig(
      { pair: 'USDT_BTC', lower_price: '50000', upper_price: '70000', grids_quantity: 40, quantity_per_grid: '200', order_currency_type: 'quote' },
      parsePair('USDT_BTC')!,
      market.rules,
      FEE_RATE,
    );
    assert.ok(config.ok);
    const bot = await first.engine.create(
      gridBotKind,
      { userId: user!.id, accountId, state: newGridBot(config.config, market.rules.priceStep) },
      { type: 'start', funds: { base: dec('2'), quote: dec('100000') }, feeRate: FEE_RATE },
    );
    const reader = new SqlEngineRepository(db);
    const storedJson = async () => (await reader.get(gridBotKind.name, bot.id))!.state as { v: unknown };
    const runningJson = async (process: typeof first) =>
      JSON.parse(JSON.stringify(gridBotKind.toJson((await process.engine.get(gridBotKind, bot.id))!.state))) as unknown;

    // Swings across a few lines each way, again and again: each fill logs a few changed lines.
    for (let swing = 0; swing < 60; swing += 1) {
      for (const price of [60000 + (swing % 7) * 350, 59000 - (swing % 5) * 300]) {
        await move(first, price);
        assert.deepEqual((await storedJson()).v, await runningJson(first), `after the move to ${price} in swing ${swing}`);
      }
    }
    assert.ok(first.store.whole >= 3, `${first.store.whole} snapshots stored`);
    assert.ok(first.store.changes > first.store.whole * 5, `${first.store.changes} changes logged`);

    await first.engine.stop();
    await first.paper.stop();
    const second_ = await startProcess(db, clock);
    assert.deepEqual(await runningJson(second_), (await storedJson()).v);
    for (const price of [61000, 58500, 60500]) {
      await move(second_, price);
      assert.deepEqual((await storedJson()).v, await runningJson(second_), `after the move to ${price} once started again`);
    }
    // It knows what storage holds: its first batches log changes rather than store the state again.
    assert.deepEqual({ whole: second_.store.whole, changes: second_.store.changes }, { whole: 0, changes: 3 });
    await second_.engine.stop();
    await second_.paper.stop();
  });
});
