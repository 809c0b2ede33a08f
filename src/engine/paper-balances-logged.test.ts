/**
 * A paper account's balances are logged with the event row of one of its automations when the
 * batch writes one, and written to the account's balances row only otherwise, or after so many
 * batches in a row (migration 0088). What is stored must read back as the venue holds it after
 * every batch, after the automation that logged them is removed, and in an engine started again.
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
import { Engine } from './engine.ts';
import { gridBotKind } from './kinds/grid-bot.kind.ts';
import { PaperTrading } from './paper-trading.ts';

const FEE_RATE = dec('0.001');
const at = (second: number) => new Date(Date.UTC(2024, 0, 1) + second * 1000);

async function startProcess(db: Database, clock: () => Date) {
  const paper = new PaperTrading(new PaperVenue(PAPER_MARKETS), new SqlPaperRepository(db), new ManualFeed());
  const companion = paper.storeThrough({ storeCompanion: () => engine.storeCompanion(), journals: (a, c) => engine.journals(a, c) });
  const engine: Engine = new Engine({
    store: new SqlEngineRepository(db),
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
  return { paper, engine };
}

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
    let second = 0;
    const clock = () => at(second);
    const first = await startProcess(db, clock);
    const [user] = await db.query<{ id: number }>("INSERT INTO users (name) VALUES ('balances') RETURNING id");
    const [account] = await db.query<{ id: number }>(
      "INSERT INTO accounts (user_id, name, market_code) VALUES ($1, 'paper', 'paper_trading') RETURNING id",
      [user!.id],
    );
    const accountId = Number(account!.id);
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
    const stored = async () => asText((await new SqlPaperRepository(db).loadAccount(accountId))!.balances);
    const held = async (process: typeof first) => asText(await (await process.paper.exchange(accountId)).balances());
    const rowWrites = new Set<string>();
    const row = async () => {
      const [found] = await db.query<{ logged_after: string }>('SELECT logged_after::text FROM paper_account_balances WHERE account_id = $1', [accountId]);
      rowWrites.add(found!.logged_after);
    };

    await row();
    for (let swing = 0; swing < 50; swing += 1) {
      for (const price of [60000 + (swing % 7) * 350, 59000 - (swing % 5) * 300]) {
        await move(first, price);
        assert.deepEqual(await stored(), await held(first), `after the move to ${price} in swing ${swing}`);
        await row();
      }
    }
    const [logged] = await db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM automation_events WHERE automation_id = $1 AND balances IS NOT NULL',
      [bot.id],
    );
    assert.ok(logged!.count >= 70, `${logged!.count} event rows logged the balances`);
    // Written once when the account opened, then once after each run of 64 batches logged with events.
    assert.ok(rowWrites.size >= 2 && rowWrites.size <= 1 + Math.ceil(logged!.count / 64), `the balances row was written ${rowWrites.size} times`);

    await first.engine.stop();
    await first.paper.stop();
    const again = await startProcess(db, clock);
    assert.deepEqual(await held(again), await stored(), 'an engine started again holds what was stored');
    await move(again, 61500);
    assert.deepEqual(await stored(), await held(again));

    await again.engine.remove(gridBotKind, bot.id);
    const [events] = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM automation_events WHERE automation_id = $1', [bot.id]);
    assert.equal(events!.count, 0, 'the event rows left with their automation');
    assert.deepEqual(await stored(), await held(again), 'the balances they logged stayed');
    await again.engine.stop();
    await again.paper.stop();
  });
});
