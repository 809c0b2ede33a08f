import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { EngineInput, StepResult } from '../domain/automation.ts';
import type { Exchange } from '../exchanges/exchange.ts';
import { ExchangeError } from '../exchanges/exchange.ts';
import { PAPER_MARKETS } from '../exchanges/paper/paper-markets.ts';
import { PaperVenue } from '../exchanges/paper/paper-venue.ts';
import { ManualFeed } from '../market-data/manual-feed.ts';
import { dec } from '../shared/decimal.ts';
import type { Database } from '../store/database.ts';
import { SqlEngineRepository } from '../store/engine.repository.ts';
import { SqlPaperRepository } from '../store/paper.repository.ts';
import { openTestDatabase } from '../../test/support/database.ts';
import type { AutomationKind } from './automation-kind.ts';
import type { EngineBatch } from './engine-store.ts';
import { Engine } from './engine.ts';
import { engineHost, PaperTrading } from './paper-trading.ts';

/** A small automation for the runtime's tests: buy at market below a price, then sell at a limit. */
interface DipState {
  phase: 'watching' | 'buying' | 'selling' | 'done';
  buyBelow: string;
  sellAt: string;
  amount: string;
  ticksSeen: number;
}
type DipAction = { type: 'start' } | { type: 'bad' };

const dipKind: AutomationKind<DipState, DipAction, { profit: string }> = {
  name: 'dip_test',
  orderIdPrefix: 'z',
  step(state, input: EngineInput | DipAction, context): StepResult<DipState, { profit: string }> {
    const result = { state, commands: [], events: [], records: [] } as StepResult<DipState, { profit: string }>;
    const at = context.now;
    switch (input.type) {
      case 'start':
        result.events.push({ message: 'started', at });
        return result;
      case 'bad':
        throw new Error('refused');
      case 'tick':
        result.state = { ...state, ticksSeen: state.ticksSeen + 1 };
        if (state.phase === 'watching' && input.price.lte(state.buyBelow)) {
          result.state.phase = 'buying';
          result.commands.push({ type: 'place_order', key: 'b', pair: 'USDT_BTC', side: 'buy', orderType: 'market', amount: dec(state.amount), role: 'entry' });
        }
        return result;
      case 'fill':
        if (!input.orderFilled) return result;
        if (input.key === 'b') {
          result.state = { ...state, phase: 'selling' };
          const amount = dec(state.amount).minus(input.fee);
          result.commands.push({
            type: 'place_order', key: 's', pair: 'USDT_BTC', side: 'sell', orderType: 'limit',
            amount: amount.toDecimalPlaces(5, 1), price: dec(state.sellAt), role: 'exit',
          });
        } else {
          result.state = { ...state, phase: 'done' };
          result.records.push({ profit: input.price.toFixed() });
          result.events.push({ message: `sold at ${input.price.toFixed()}`, at });
        }
        return result;
      default:
        return result;
    }
  },
  watches: (state) => (state.phase === 'watching' ? [{ pair: 'USDT_BTC', below: dec(state.buyBelow) }] : []),
  isRunning: (state) => state.phase !== 'done',
  toJson: (state) => state,
  fromJson: (json) => json as DipState,
};

const at = (minute: number) => new Date(Date.UTC(2024, 0, 1, 0, minute));
const tick = (price: string, minute: number) => ({ pair: 'USDT_BTC', price: dec(price), at: at(minute) });

interface Process {
  paper: PaperTrading;
  engine: Engine;
  records: Array<{ automationId: number; records: unknown[] }>;
}

/** One server process over the shared database: a fresh venue and engine, state loaded from storage. */
async function startProcess(
  db: Database,
  wrap: (exchange: Exchange) => Exchange = (e) => e,
  storeThroughEngine = false,
  minute = 30,
  store = new SqlEngineRepository(db),
): Promise<Process> {
  const paper = new PaperTrading(new PaperVenue(PAPER_MARKETS), new SqlPaperRepository(db), new ManualFeed());
  const records: Process['records'] = [];
  const companion = storeThroughEngine
    ? paper.storeThrough(engineHost(() => engine))
    : undefined;
  const engine: Engine = new Engine({
    store,
    ...(companion ? { companion } : {}),
    exchangeFor: async (accountId) => wrap(await paper.exchange(accountId)),
    batchOrders: (work) => paper.batch(work),
    clock: () => at(minute),
    logger: { warn: () => {}, error: (object) => assert.fail(JSON.stringify(object)) },
    kinds: [dipKind],
  });
  engine.registerRecordWriter('dip_test', async (_sql, batch) => void records.push(...batch));
  await engine.start();
  await paper.start(() => engine.settled());
  return { paper, engine, records };
}

const move = async (process: Process, price: string, minute: number) => {
  await process.paper.applyTicks([tick(price, minute)]);
  await process.engine.settled();
};

/** The real store, noting each journal row's status as each batch stores it. */
class StatusesSaved extends SqlEngineRepository {
  saved: Array<{ automationId: number; key: string; status: string; batch: number }> = [];
  private batches = 0;

  override save(batch: EngineBatch): Promise<void> {
    this.batches += 1;
    for (const { automationId, key, status } of batch.orders) this.saved.push({ automationId, key, status, batch: this.batches });
    return super.save(batch);
  }
}

describe(Engine.name, () => {
  let db: Database;
  let userId: number;

  before(async () => {
    db = await openTestDatabase();
    const [user] = await db.query<{ id: number }>("INSERT INTO users (name) VALUES ('e') RETURNING id");
    userId = user!.id;
  });

  after(async () => {
    await db.close();
  });

  async function newAccount(process: Process, usdt = '10000'): Promise<number> {
    const [account] = await db.query<{ id: number }>(
      "INSERT INTO accounts (user_id, name, market_code) VALUES ($1, 'paper', 'paper_trading') RETURNING id",
      [userId],
    );
    await process.paper.openAccount(account!.id, [{ currency: 'USDT', free: dec(usdt), locked: dec(0) }]);
    return account!.id;
  }

  const start = (process: Process, accountId: number) =>
    process.engine.create(dipKind, { userId, accountId, state: { phase: 'watching', buyBelow: '50000', sellAt: '52000', amount: '0.01', ticksSeen: 0 } }, { type: 'start' });

  it('wakes an automation only when the price crosses its watch, and runs its orders to the end', async () => {
    const process = await startProcess(db);
    const accountId = await newAccount(process);
    await move(process, '60000', 0);
    const created = await start(process, accountId);
    await move(process, '55000', 1);
    assert.equal((await process.engine.get(dipKind, created.id))!.state.ticksSeen, 0);
    await move(process, '49990', 2);
    const selling = (await process.engine.get(dipKind, created.id))!;
    assert.equal(selling.state.phase, 'selling');
    assert.equal(selling.state.ticksSeen, 1);
    await move(process, '52000', 3);
    const done = (await process.engine.get(dipKind, created.id))!;
    assert.equal(done.state.phase, 'done');
    const orders = await process.engine.orders(created.id);
    assert.deepEqual(
      orders.map((o) => [o.key, o.clientOrderId, o.role, o.status, o.filled]),
      [
        ['b', `tlz${created.id}xb`, 'entry', 'filled', '0.01'],
        ['s', `tlz${created.id}xs`, 'exit', 'filled', '0.00999'],
      ],
    );
    const events = await process.engine.events(created.id, { limit: 10, offset: 0 });
    assert.deepEqual(events.map((e) => e.message), ['started', 'sold at 52000']);
    assert.deepEqual(process.records, [{ automationId: created.id, records: [{ profit: '52000' }] }]);
    const balances = await (await process.paper.exchange(accountId)).balances();
    const usdt = balances.find((b) => b.currency === 'USDT')!;
    // Bought 0.01 at 49990 (0.1% fee in BTC), sold 0.00999 at 52000 (0.1% fee in USDT).
    assert.equal(usdt.free.toFixed(), dec('10000').minus('499.9').plus(dec('519.48').times('0.999')).toFixed());
    await process.paper.stop();
    await process.engine.stop();
  });

  it('dates everything a batch does by one clock, never before what it dates was created', async () => {
    // The engine's clock (minute 30) is ahead of the ticks' times (minutes 0 to 3).
    const process = await startProcess(db);
    const accountId = await newAccount(process);
    await move(process, '60000', 0);
    const created = await start(process, accountId);
    await move(process, '49990', 2);
    await move(process, '52000', 3);
    const orders = await process.engine.orders(created.id);
    assert.deepEqual(
      orders.map((o) => [o.key, o.createdAt.toISOString(), o.updatedAt.toISOString()]),
      [
        ['b', at(30).toISOString(), at(30).toISOString()],
        ['s', at(30).toISOString(), at(30).toISOString()],
      ],
    );
    const events = await process.engine.events(created.id, { limit: 10, offset: 0 });
    for (const event of events) assert.ok(event.createdAt >= created.createdAt, event.message);
    await process.paper.stop();
    await process.engine.stop();
  });

  it('refuses a user action its step refuses and changes nothing', async () => {
    const process = await startProcess(db);
    const accountId = await newAccount(process);
    const created = await start(process, accountId);
    await assert.rejects(process.engine.act(dipKind, created.id, { type: 'bad' }), /refused/);
    assert.deepEqual((await process.engine.get(dipKind, created.id))!.state, created.state);
    await process.paper.stop();
    await process.engine.stop();
  });

  it('with the paper exchange stored in its batches, keeps one record of each order it placed, its journal row', async () => {
    const first = await startProcess(db, undefined, true);
    const accountId = await newAccount(first);
    await move(first, '60000', 0);
    const created = await start(first, accountId);
    await move(first, '49000', 1);
    const rows = () =>
      db.query<{ order_key: string; status: string; exchange_order_id: string | null; fee_currency: string | null }>(
        'SELECT order_key, status, exchange_order_id, fee_currency FROM engine_orders WHERE automation_id = $1 ORDER BY id',
        [created.id],
      );
    const [bought, selling] = await rows();
    assert.deepEqual([bought?.order_key, bought?.status, bought?.fee_currency], ['b', 'filled', 'BTC']);
    assert.deepEqual([selling?.order_key, selling?.status], ['s', 'open']);
    assert.match(selling?.exchange_order_id ?? '', /^P\d+$/);
    const paperRows = async () => {
      const count = async (table: string) => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE account_id = $1`, [accountId]))[0]!.n;
      return [await count('paper_orders'), await count('paper_fills'), await count('paper_trades')];
    };
    assert.deepEqual(await paperRows(), [0, 1, 1]);
    await first.paper.stop();
    await first.engine.stop();

    // A new process finds the resting sell in the journal, and the market fills it once.
    const second = await startProcess(db, undefined, true);
    assert.deepEqual((await (await second.paper.exchange(accountId)).openOrders()).map((o) => o.id), [selling!.exchange_order_id]);
    await move(second, '53000', 2);
    await move(second, '53000', 3);
    assert.equal((await second.engine.get(dipKind, created.id))!.state.phase, 'done');
    assert.deepEqual((await rows()).map((row) => row.status), ['filled', 'filled']);
    // The sell filled whole as a maker: its journal row records that fill, with the fill's time.
    assert.deepEqual(await paperRows(), [0, 1, 2]);
    const [sold] = await db.query<{ price: string; amount: string; maker: boolean; at: Date }>(
      "SELECT price::text, amount::text, maker, at FROM paper_trades WHERE account_id = $1 AND side = 'sell'",
      [accountId],
    );
    assert.deepEqual(sold, { price: '52000', amount: '0.00999', maker: true, at: at(2) });
    const balances = await db.query<{ currency: string; free: string; locked: string }>(
      'SELECT currency, free::text, locked::text FROM paper_balances WHERE account_id = $1 ORDER BY currency',
      [accountId],
    );
    assert.deepEqual(
      balances.map((b) => [b.currency, b.locked]),
      [['BTC', '0'], ['USDT', '0']],
    );
    await second.paper.stop();
    await second.engine.stop();
  });

  it('with the paper exchange stored in its batches, stores an order as placing it did at once, in the batch that journals it', async () => {
    const store = new StatusesSaved(db);
    const process = await startProcess(db, undefined, true, 30, store);
    const accountId = await newAccount(process);
    await move(process, '60000', 0);
    const created = await start(process, accountId);
    await move(process, '49000', 1);
    await move(process, '53000', 2);
    const saved = (key: string) => store.saved.filter((order) => order.automationId === created.id && order.key === key).map((order) => order.status);
    // The market buy filled at once, and the automation heard of its fill in the same batch:
    // the limit sell it placed then rested at once, and that batch stored both.
    assert.deepEqual(saved('b'), ['filled']);
    assert.deepEqual(saved('s'), ['open', 'filled']);
    const batchOf = (key: string, status: string) => store.saved.find((order) => order.automationId === created.id && order.key === key && order.status === status)?.batch;
    assert.equal(batchOf('b', 'filled'), batchOf('s', 'open'));
    assert.equal((await process.engine.get(dipKind, created.id))!.state.phase, 'done');
    await process.paper.stop();
    await process.engine.stop();
  });

  it('with the paper exchange stored in its batches, runs an automation on a paper account that holds nothing yet', async () => {
    const process = await startProcess(db, undefined, true);
    const [account] = await db.query<{ id: number }>(
      "INSERT INTO accounts (user_id, name, market_code) VALUES ($1, 'empty', 'paper_trading') RETURNING id",
      [userId],
    );
    const created = await start(process, account!.id);
    assert.equal((await process.engine.get(dipKind, created.id))!.state.phase, 'watching');
    await process.paper.stop();
    await process.engine.stop();
  });

  it('after a crash, delivers the fills that happened while it was down', async () => {
    const first = await startProcess(db);
    const accountId = await newAccount(first);
    await move(first, '60000', 0);
    const created = await start(first, accountId);
    await move(first, '49000', 1);
    assert.equal((await first.engine.get(dipKind, created.id))!.state.phase, 'selling');

    // The exchange fills the resting sell while no engine runs.
    const paperOnly = new PaperTrading(new PaperVenue(PAPER_MARKETS), new SqlPaperRepository(db), new ManualFeed());
    await paperOnly.start();
    await paperOnly.applyTicks([tick('53000', 2)]);

    const second = await startProcess(db);
    await second.engine.settled();
    const after = (await second.engine.get(dipKind, created.id))!;
    assert.equal(after.state.phase, 'done');
    assert.ok(second.records.some((r) => r.automationId === created.id));
    const orders = await second.engine.orders(created.id);
    assert.deepEqual(orders.map((o) => o.status), ['filled', 'filled']);
    await second.paper.stop();
    await second.engine.stop();
  });

  it('after a restart, stores nothing again for orders the exchange shows as journaled', async () => {
    const first = await startProcess(db);
    const accountId = await newAccount(first);
    await move(first, '60000', 0);
    const created = await start(first, accountId);
    await move(first, '49000', 1);
    const journaled = () =>
      db.query<{ id: string; status: string; updated_at: Date }>('SELECT id, status, updated_at FROM engine_orders WHERE automation_id = $1 ORDER BY id', [created.id]);
    const before = await journaled();
    assert.deepEqual(before.map((row) => row.status), ['filled', 'open']);

    // A later clock: a row stored again would carry it.
    const second = await startProcess(db, undefined, false, 40);
    await second.engine.settled();
    assert.deepEqual(await journaled(), before);
    await second.paper.stop();
    await second.engine.stop();
  });

  it('sends an order that was journaled but never reached the exchange, once', async () => {
    const unreachable = (exchange: Exchange): Exchange => ({
      ...exchange,
      markets: () => exchange.markets(),
      placeOrder: async () => {
        throw new ExchangeError('unavailable', 'connection reset');
      },
    });
    const first = await startProcess(db, unreachable);
    const accountId = await newAccount(first);
    await move(first, '60000', 0);
    const created = await start(first, accountId);
    await move(first, '49000', 1);
    assert.deepEqual((await first.engine.orders(created.id)).map((o) => o.status), ['pending']);

    // The new process has no price until the feed ticks: the order goes out at the first tick.
    const second = await startProcess(db);
    await second.engine.settled();
    assert.deepEqual((await second.engine.orders(created.id)).map((o) => o.status), ['pending']);
    await move(second, '49000', 2);
    assert.equal((await second.engine.get(dipKind, created.id))!.state.phase, 'selling');
    const paperOrders = await db.query<{ n: string }>(
      'SELECT count(*) AS n FROM paper_orders WHERE account_id = $1 AND client_order_id = $2',
      [accountId, `tlz${created.id}xb`],
    );
    assert.equal(Number(paperOrders[0]!.n), 1);

    const third = await startProcess(db);
    await third.engine.settled();
    assert.deepEqual((await third.engine.orders(created.id)).map((o) => o.status), ['filled', 'open']);
    await second.paper.stop();
    await third.paper.stop();
  });

  it('turns an order the exchange refuses into a rejection the automation hears', async () => {
    const process = await startProcess(db);
    const accountId = await newAccount(process, '100');
    await move(process, '60000', 0);
    const created = await start(process, accountId);
    await move(process, '49000', 1);
    const orders = await process.engine.orders(created.id);
    assert.deepEqual(orders.map((o) => o.status), ['rejected']);
    await process.paper.stop();
  });
});


