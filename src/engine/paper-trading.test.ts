import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PAPER_MARKETS } from '../exchanges/paper/paper-markets.ts';
import { PaperVenue } from '../exchanges/paper/paper-venue.ts';
import { ManualFeed } from '../market-data/manual-feed.ts';
import { dec } from '../shared/decimal.ts';
import { SqlPaperRepository } from '../store/paper.repository.ts';
import type { Database } from '../store/database.ts';
import { openTestDatabase } from '../../test/support/database.ts';
import { PaperTrading } from './paper-trading.ts';

const at = (minute: number) => new Date(Date.UTC(2024, 0, 1, 0, minute));
const tick = (price: string, minute: number, volume?: string) => ({
  pair: 'USDT_BTC',
  price: dec(price),
  at: at(minute),
  ...(volume === undefined ? {} : { volume: dec(volume) }),
});

/** A fresh process's view of the same database: new venue, new runtime, state loaded. */
async function restart(db: Database): Promise<PaperTrading> {
  const trading = new PaperTrading(new PaperVenue(PAPER_MARKETS), new SqlPaperRepository(db), new ManualFeed());
  await trading.start();
  return trading;
}

const snapshot = async (trading: PaperTrading, accountId: number) => {
  const exchange = await trading.exchange(accountId);
  return {
    balances: (await exchange.balances()).map((b) => `${b.currency}:${b.free.toFixed()}/${b.locked.toFixed()}`),
    open: (await exchange.openOrders()).map((o) => `${o.id}:${o.clientOrderId}:${o.filled.toFixed()}/${o.amount.toFixed()}`),
  };
};

describe(PaperTrading.name, () => {
  let db: Database;
  let accountId: number;

  before(async () => {
    db = await openTestDatabase();
    const [user] = await db.query<{ id: number }>("INSERT INTO users (name) VALUES ('p') RETURNING id");
    const [account] = await db.query<{ id: number }>(
      "INSERT INTO accounts (user_id, name, market_code) VALUES ($1, 'paper', 'paper_trading') RETURNING id",
      [user!.id],
    );
    accountId = account!.id;
  });

  after(async () => {
    await db.close();
  });

  it('keeps balances, open orders and partial fills across a restart, and carries on trading', async () => {
    const first = await restart(db);
    const exchange = await first.openAccount(accountId, [
      { currency: 'USDT', free: dec('10000'), locked: dec(0) },
      { currency: 'BTC', free: dec('1'), locked: dec(0) },
    ]);
    await first.applyTicks([tick('60000', 0)]);
    await exchange.placeOrder({ clientOrderId: 'buy-1', pair: 'USDT_BTC', side: 'buy', type: 'limit', amount: dec('0.1'), price: dec('59000') });
    await exchange.placeOrder({ clientOrderId: 'sell-1', pair: 'USDT_BTC', side: 'sell', type: 'limit', amount: dec('0.5'), price: dec('61000') });
    await first.applyTicks([tick('61000', 1, '0.2')]);
    const before = await snapshot(first, accountId);
    assert.deepEqual(before.open, ['P1:buy-1:0/0.1', 'P2:sell-1:0.2/0.5']);

    const second = await restart(db);
    assert.deepEqual(await snapshot(second, accountId), before);

    const fills = await second.applyTicks([tick('58999', 2)]);
    assert.deepEqual(fills.map((u) => `${u.fill!.clientOrderId}:${u.fill!.amount.toFixed()}`), ['buy-1:0.1']);
    const next = await (await second.exchange(accountId)).placeOrder({
      clientOrderId: 'sell-2', pair: 'USDT_BTC', side: 'sell', type: 'limit', amount: dec('0.1'), price: dec('65000'),
    });
    assert.equal(next.id, 'P3');

    const third = await restart(db);
    assert.deepEqual(await snapshot(third, accountId), await snapshot(second, accountId));
    const [stored] = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM paper_trades WHERE account_id = $1', [accountId]);
    assert.equal(stored!.count, 2);
  });

  it('stores a placement before it returns', async () => {
    const trading = await restart(db);
    await (await trading.exchange(accountId)).placeOrder({
      clientOrderId: 'stored-at-once', pair: 'USDT_BTC', side: 'buy', type: 'limit', amount: dec('0.01'), price: dec('50000'),
    });
    const rows = await db.query("SELECT 1 FROM paper_orders WHERE client_order_id = 'stored-at-once'");
    assert.equal(rows.length, 1);
  });

  it('charges an account its own fees, also after a restart', async () => {
    const trading = await restart(db);
    assert.equal(await trading.setFees(accountId, { maker: dec('0.0002'), taker: dec('0.0004') }), true);
    assert.equal(await trading.setFees(accountId + 1000, { maker: dec(0), taker: dec(0) }), false);
    const again = await restart(db);
    await again.applyTicks([tick('60000', 10)]);
    await (await again.exchange(accountId)).placeOrder({
      clientOrderId: 'fee-check', pair: 'USDT_BTC', side: 'sell', type: 'limit', amount: dec('0.1'), price: dec('60010'),
    });
    const [fill] = await again.applyTicks([tick('60010', 11)]);
    assert.equal(fill!.fill!.fee.toFixed(), '1.2002'); // 0.1 × 60010 × 0.0002, as maker
  });

  it('keeps the starting balances of an account that never traded', async () => {
    const [account] = await db.query<{ id: number }>(
      "INSERT INTO accounts (user_id, name, market_code) SELECT id, 'idle', 'paper_trading' FROM users LIMIT 1 RETURNING id",
    );
    await (await restart(db)).openAccount(account!.id, [{ currency: 'USDT', free: dec('1000'), locked: dec(0) }]);
    assert.deepEqual((await snapshot(await restart(db), account!.id)).balances, ['USDT:1000/0']);
  });

  it('loads an account that another process sharing the database created later', async () => {
    const running = await restart(db);
    const [account] = await db.query<{ id: number }>(
      "INSERT INTO accounts (user_id, name, market_code) SELECT id, 'elsewhere', 'paper_trading' FROM users LIMIT 1 RETURNING id",
    );
    await (await restart(db)).openAccount(account!.id, [{ currency: 'USDT', free: dec('500'), locked: dec(0) }]);
    assert.deepEqual((await snapshot(running, account!.id)).balances, ['USDT:500/0']);
  });

  it('with the engine storing its changes, keeps a paper order row for an order placed from outside the engine, across a restart', async () => {
    const open = async () => {
      const trading = new PaperTrading(new PaperVenue(PAPER_MARKETS), new SqlPaperRepository(db), new ManualFeed());
      // The engine's part: each change taken is written in a transaction of its own here.
      const store = async () => {
        const write = companion.take();
        if (write) await db.transaction(write);
      };
      const companion = trading.storeThrough({ storeCompanion: store });
      await trading.start();
      return { trading, companion, store };
    };
    const [account] = await db.query<{ id: number }>(
      "INSERT INTO accounts (user_id, name, market_code) SELECT id, 'outside', 'paper_trading' FROM users LIMIT 1 RETURNING id",
    );
    const id = account!.id;
    const limitBuy = (clientOrderId: string, price: string) =>
      ({ clientOrderId, pair: 'USDT_BTC', side: 'buy' as const, type: 'limit' as const, amount: dec('0.001'), price: dec(price) });
    const rows = () => db.query<{ client_order_id: string; status: string }>('SELECT client_order_id, status FROM paper_orders WHERE account_id = $1', [id]);

    const first = await open();
    const exchange = await first.trading.openAccount(id, [{ currency: 'USDT', free: dec('10000'), locked: dec(0) }]);
    await first.trading.applyTicks([tick('60000', 0)]);
    await exchange.placeOrder(limitBuy('outside-1', '59000'));
    // The engine's own placement is recorded by its journal row alone (there is none in this test).
    assert.ok(first.companion.placeAtOnce(id, limitBuy('tlz1xo1', '58000')));
    await first.store();
    assert.deepEqual(await rows(), [{ client_order_id: 'outside-1', status: 'open' }]);

    const second = await open();
    await second.trading.applyTicks([tick('58990', 1)]);
    assert.deepEqual(await rows(), [{ client_order_id: 'outside-1', status: 'filled' }]);
  });

  it('with the engine storing its changes, keeps the fill and order rows of an order its journal does not hold', async () => {
    const trading = new PaperTrading(new PaperVenue(PAPER_MARKETS), new SqlPaperRepository(db), new ManualFeed());
    const held = new Set<string>();
    const companion = trading.storeThrough({
      storeCompanion: async () => {
        const write = companion.take();
        if (write) await db.transaction(write);
      },
      journals: (_accountId, clientOrderId) => held.has(clientOrderId),
    });
    await trading.start();
    const [account] = await db.query<{ id: number }>(
      "INSERT INTO accounts (user_id, name, market_code) SELECT id, 'unjournaled', 'paper_trading' FROM users LIMIT 1 RETURNING id",
    );
    const id = account!.id;
    await trading.openAccount(id, [{ currency: 'USDT', free: dec('10000'), locked: dec(0) }]);
    await trading.applyTicks([tick('60000', 0)]);
    const limitBuy = (clientOrderId: string, price: string) =>
      ({ clientOrderId, pair: 'USDT_BTC', side: 'buy' as const, type: 'limit' as const, amount: dec('0.001'), price: dec(price) });
    held.add('tlz2xo1');
    assert.ok(companion.placeAtOnce(id, limitBuy('tlz2xo1', '59000')));
    assert.ok(companion.placeAtOnce(id, limitBuy('tlz2xo2', '59000')));
    await trading.applyTicks([tick('58990', 1)]);
    const fills = await db.query<{ order_id: string }>('SELECT order_id FROM paper_fills WHERE account_id = $1', [id]);
    assert.equal(fills.length, 1, 'only the fill of the order no journal holds has a row');
    const orders = await db.query<{ client_order_id: string; status: string }>('SELECT client_order_id, status FROM paper_orders WHERE account_id = $1', [id]);
    assert.deepEqual(orders, [{ client_order_id: 'tlz2xo2', status: 'filled' }]);
    await trading.stop();
  });

  it('reserves the next block of order ids before one runs out when the engine stores its changes', async () => {
    const blocks = [{ from: 1_000, to: 1_002 }, { from: 5_000, to: 5_002 }, { from: 9_000, to: 9_002 }];
    const reserved: Array<{ from: number; to: number }> = [];
    const store = new SqlPaperRepository(db);
    store.reserveIds = async () => {
      const block = blocks.shift()!;
      reserved.push(block);
      return block;
    };
    const trading = new PaperTrading(new PaperVenue(PAPER_MARKETS), store, new ManualFeed());
    // The engine's part: each change taken is written in a transaction of its own here.
    const companion = trading.storeThrough({
      storeCompanion: async () => {
        const write = companion.take();
        if (write) await db.transaction(write);
      },
    });
    await trading.start();
    const [account] = await db.query<{ id: number }>(
      "INSERT INTO accounts (user_id, name, market_code) SELECT id, 'blocks', 'paper_trading' FROM users LIMIT 1 RETURNING id",
    );
    const exchange = await trading.openAccount(account!.id, [{ currency: 'USDT', free: dec('10000'), locked: dec(0) }]);
    await trading.applyTicks([tick('60000', 0)]);
    const ids: number[] = [];
    for (let index = 0; index < 4; index += 1) {
      const order = await exchange.placeOrder({ clientOrderId: `block-${index}`, pair: 'USDT_BTC', side: 'buy', type: 'limit', amount: dec('0.001'), price: dec('50000') });
      ids.push(Number(order.id.slice(1)));
    }
    assert.equal(new Set(ids).size, ids.length);
    for (const id of ids) assert.ok(reserved.some((block) => id >= block.from && id <= block.to), `order id ${id} is in no reserved block`);
  });
});
