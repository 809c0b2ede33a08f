import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openTestDatabase } from '../../test/support/database.ts';
import type { GridProfitRecord } from '../domain/grid-bot/grid-output.ts';
import { dec } from '../shared/decimal.ts';
import type { Database } from './database.ts';
import { SqlEngineRepository } from './engine.repository.ts';
import { gridProfitsLogged, SqlGridBotsRepository } from './grid-bots.repository.ts';

describe(SqlGridBotsRepository.name, () => {
  let db: Database;
  let repository: SqlGridBotsRepository;
  let botId: number;
  let otherBotId: number;

  const record = (lineId: number, profit: string, at: string, usd: string | null = profit): GridProfitRecord => ({
    lineId,
    linePrice: dec('59000.5'),
    side: 'buy',
    orderPlaced: true,
    profit: dec(profit),
    usdProfit: usd === null ? null : dec(usd),
    at: new Date(at),
  });

  before(async () => {
    db = await openTestDatabase();
    repository = new SqlGridBotsRepository(db);
    const [user] = await db.query<{ id: number }>(`INSERT INTO users (name) VALUES ('grid') RETURNING id`);
    const [account] = await db.query<{ id: number }>(
      `INSERT INTO accounts (user_id, name, market_code) VALUES ($1, 'paper', 'paper_trading') RETURNING id`,
      [user!.id],
    );
    const bots = await db.query<{ id: string }>(
      `INSERT INTO automations (kind, user_id, account_id, running, state, created_at, updated_at)
       SELECT 'grid_bot', $1, $2, true, '{}', now(), now() FROM generate_series(1, 2) RETURNING id`,
      [user!.id, account!.id],
    );
    [botId, otherBotId] = bots.map((bot) => Number(bot.id)) as [number, number];
  });

  after(async () => {
    await db?.close();
  });

  it('stores the records of a batch with the engine and reads them newest first, exactly', async () => {
    const engineStore = new SqlEngineRepository(db);
    engineStore.registerRecordWriter('grid_bot', gridProfitsLogged);
    await engineStore.save({
      automations: [],
      events: [],
      orders: [],
      records: [
        {
          kind: 'grid_bot',
          automationId: botId,
          records: [record(7, '1.47949', '2024-03-01T10:00:00Z'), record(8, '0.000000000000000001', '2024-03-02T10:00:00Z', null)],
        },
        { kind: 'grid_bot', automationId: otherBotId, records: [record(1, '5', '2024-03-01T12:00:00Z')] },
      ],
    });
    assert.deepEqual(await repository.profits(botId, {}), [
      { lineId: 8, linePrice: '59000.5', side: 'buy', orderPlaced: true, profit: '0.000000000000000001', usdProfit: null, createdAt: new Date('2024-03-02T10:00:00Z') },
      { lineId: 7, linePrice: '59000.5', side: 'buy', orderPlaced: true, profit: '1.47949', usdProfit: '1.47949', createdAt: new Date('2024-03-01T10:00:00Z') },
    ]);
  });

  it('bounds the rows by booking time, both ends inclusive', async () => {
    const lines = async (from?: string, to?: string) =>
      (await repository.profits(botId, { ...(from ? { from: new Date(from) } : {}), ...(to ? { to: new Date(to) } : {}) })).map((row) => row.lineId);
    assert.deepEqual(await lines('2024-03-01T10:00:00Z', '2024-03-02T10:00:00Z'), [8, 7]);
    assert.deepEqual(await lines('2024-03-01T10:00:00.001Z'), [8]);
    assert.deepEqual(await lines(undefined, '2024-03-02T09:59:59Z'), [7]);
    assert.deepEqual(await lines('2024-03-03T00:00:00Z'), []);
  });

  it('reads a paper account’s own taker fee, none when it pays the default', async () => {
    const [account] = await db.query<{ id: number }>('SELECT id FROM accounts LIMIT 1');
    assert.equal(await repository.paperTakerFee(account!.id), undefined);
    await db.query('INSERT INTO paper_fees (account_id, maker, taker) VALUES ($1, 0.0002, 0.00075)', [account!.id]);
    assert.equal((await repository.paperTakerFee(account!.id))?.toFixed(), '0.00075');
  });

  it('loses the rows with their bot', async () => {
    await db.query('DELETE FROM automations WHERE id = $1', [otherBotId]);
    assert.deepEqual(await repository.profits(otherBotId, {}), []);
    assert.equal((await repository.profits(botId, {})).length, 2);
  });
});
