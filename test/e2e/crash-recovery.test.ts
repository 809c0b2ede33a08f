/**
 * Kills the real server with SIGKILL while grid bots trade, starts it again on the same data
 * directory and trades on; kills it again while it stores a batch of many fills, and again while
 * batches wait to be stored behind one another, and trades on. Afterwards the stored state must
 * tell one consistent story: every bot still runs, every order on the exchange is one the engine
 * journaled (once), the journal's fill totals equal the exchange's, and each balance equals the
 * starting balance plus its fills.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { dec, ZERO, type Decimal } from '../../src/shared/decimal.ts';
import { openPglite } from '../../src/store/pglite-database.ts';
import { ProcessClient, type ProcessKey } from '../support/process-client.ts';
import { serverEnv, TradeloopProcesses, type RunningServer } from '../support/tradeloop-process.ts';

const STARTING = { USDT: '10000', BTC: '0.1', ETH: '2' } as const;

/** A price path that swings across every bot's range again and again. */
function pricePath(count: number): Array<{ pair: string; price: string }> {
  return Array.from({ length: count }, (_, index) => {
    const swing = Math.sin(index / 6);
    return index % 2 === 0
      ? { pair: 'USDT_BTC', price: (60000 + Math.round(swing * 5600)).toFixed(2) }
      : { pair: 'USDT_ETH', price: (3000 + Math.round(swing * 180)).toFixed(2) };
  });
}

describe('a server killed with SIGKILL while bots trade', { concurrency: 1, timeout: 300_000 }, () => {
  const processes = new TradeloopProcesses();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradeloop-crash-'));
  const env = serverEnv(dataDir);
  const path_ = pricePath(240);
  /** Where the second kill lands, during a burst: after the first kill and its replay. */
  const BURST_AT = 200;
  let server: RunningServer;
  let admin: ProcessClient;
  let trader: ProcessKey;
  let accountId: number;
  const botIds: number[] = [];

  const connect = (running: RunningServer) => {
    const key = JSON.parse(fs.readFileSync(path.join(dataDir, 'admin-key.json'), 'utf8'));
    admin = new ProcessClient(running.port, { apiKey: key.api_key, secret: key.secret });
    return new ProcessClient(running.port, trader);
  };
  const tick = (ticks: Array<{ pair: string; price: string }>) => admin.call('POST', '/ext/paper/ticks', { market_code: 'paper_trading', ticks });

  before(async () => {
    server = await processes.serve(env);
    connect(server);
    assert.equal((await admin.call('POST', '/ext/users', { name: 'trader' })).status, 201);
    const key = await admin.call('POST', '/ext/api_keys', { user: 'trader', name: 'bots', permissions: 'BOTS_READ,BOTS_WRITE,ACCOUNTS_READ' });
    assert.equal(key.status, 201, JSON.stringify(key.body));
    trader = { apiKey: key.body.api_key, secret: key.body.secret };
    const client = connect(server);
    const accounts = await client.call('GET', '/ver1/accounts');
    accountId = accounts.body[0].id;
    assert.equal((await tick([{ pair: 'USDT_BTC', price: '60000' }, { pair: 'USDT_ETH', price: '3000' }])).status, 200);
    const bots = [
      { pair: 'USDT_BTC', lower_price: '55000', upper_price: '65000', grids_quantity: '21', quantity_per_grid: '0.001' },
      { pair: 'USDT_BTC', lower_price: '56000', upper_price: '64000', grids_quantity: '17', quantity_per_grid: '40', order_currency_type: 'quote' },
      { pair: 'USDT_ETH', lower_price: '2850', upper_price: '3150', grids_quantity: '13', quantity_per_grid: '0.05' },
    ];
    for (const bot of bots) {
      const created = await client.call('POST', '/ver1/grid_bots/manual', { account_id: accountId, ...bot });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      botIds.push(created.body.id);
    }
  });

  after(() => {
    processes.killAll();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('resumes every bot and keeps orders, fills and balances consistent', async (context) => {
    // Trade until the kill lands in the middle of a batch of ticks.
    let sent = 0;
    const killAt = 60 + Math.floor(Math.random() * 60);
    const trading = (async () => {
      for (; sent < path_.length; sent += 1) {
        const ticking = tick([path_[sent]!]).catch(() => undefined);
        if (sent === killAt) {
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
          return;
        }
        await ticking;
      }
    })();
    await trading;
    await server.stop('SIGKILL');

    server = await processes.serve(env);
    connect(server);
    const trade = async (from: number, to: number) => {
      for (let index = from; index < to; index += 1) {
        const response = await tick([path_[index]!]);
        assert.equal(response.status, 200, JSON.stringify(response.body));
      }
    };
    await trade(sent, BURST_AT);
    // A second kill while a large batch is stored: one tick crosses many lines of every bot at
    // once, and their fills, the counter-orders' journal rows and the paper changes are one
    // transaction. The request takes some tens of milliseconds here: the kill lands before,
    // during or after its batch is stored, and the diagnostic says whether it was answered.
    let answered = false;
    const burst = tick([{ pair: 'USDT_BTC', price: '54500' }, { pair: 'USDT_ETH', price: '2820' }]).then(
      (response) => void (answered = response.status === 200),
      () => undefined,
    );
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 50));
    await server.stop('SIGKILL');
    await burst;
    context.diagnostic(`the burst was ${answered ? 'answered before' : 'cut by'} the kill`);

    server = await processes.serve(env);
    connect(server);
    // A third kill while batches wait to be stored behind one another: ticks sent together, each
    // crossing lines, are stepped as batches of their own while the one before is stored.
    const together = [65500, 3155, 64100, 3105, 62700, 3055, 61300, 3005].map((price) => [
      { pair: price > 10000 ? 'USDT_BTC' : 'USDT_ETH', price: price.toFixed(2) },
    ]);
    const sentTogether = together.map((ticks) => tick(ticks).catch(() => undefined));
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 30));
    await server.stop('SIGKILL');
    await Promise.all(sentTogether);

    server = await processes.serve(env);
    const client = connect(server);
    await trade(BURST_AT, path_.length);
    const listed = await client.call('GET', '/ver1/grid_bots?limit=100');
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body.map((bot: { id: number }) => bot.id).sort(), [...botIds].sort());
    assert.ok(listed.body.every((bot: { is_enabled: boolean }) => bot.is_enabled));
    assert.equal(await server.stop('SIGTERM'), 0);

    const db = await openPglite({ dataDir: path.join(dataDir, 'pgdata') });
    try {
      const journal = await db.query<{ automation_id: string; client_order_id: string; status: string; filled: string }>(
        'SELECT automation_id, client_order_id, status, filled::text FROM engine_orders WHERE account_id = $1',
        [accountId],
      );
      // The paper exchange's records: its own rows, and the journal rows of the orders the engine
      // placed while it stored the paper exchange's changes (their only record).
      const exchange = await db.query<{ client_order_id: string; status: string; filled: string }>(
        `SELECT client_order_id, status, filled::text FROM paper_orders WHERE account_id = $1
         UNION ALL
         SELECT o.client_order_id, o.status, o.filled::text FROM engine_orders o
         WHERE o.account_id = $1 AND o.exchange_order_id IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM paper_orders p WHERE p.account_id = o.account_id AND p.client_order_id = o.client_order_id)`,
        [accountId],
      );
      const onExchange = new Map(exchange.map((order) => [order.client_order_id, order]));
      assert.equal(onExchange.size, exchange.length, 'a client order id placed twice');
      const journaled = new Set(journal.map((order) => order.client_order_id));
      for (const order of exchange) assert.ok(journaled.has(order.client_order_id), `${order.client_order_id} is not journaled`);
      for (const order of journal) {
        const placed = onExchange.get(order.client_order_id);
        if (order.status === 'rejected') continue;
        assert.ok(placed, `${order.client_order_id} (${order.status}) never reached the exchange`);
        assert.equal(order.status, placed.status, order.client_order_id);
        assert.equal(dec(order.filled).toFixed(), dec(placed.filled).toFixed(), order.client_order_id);
      }
      const fills = journal.filter((order) => dec(order.filled).gt(0));
      for (const id of botIds) {
        assert.ok(fills.some((order) => Number(order.automation_id) === id), `bot ${id} never traded`);
      }

      const totals = new Map<string, Decimal>(Object.entries(STARTING).map(([currency, amount]) => [currency, dec(amount)]));
      const add = (currency: string, amount: Decimal) => totals.set(currency, (totals.get(currency) ?? ZERO).plus(amount));
      const paperFills = await db.query<{ pair: string; side: string; price: string; amount: string; fee: string; fee_currency: string }>(
        'SELECT pair, side, price::text, amount::text, fee::text, fee_currency FROM paper_trades WHERE account_id = $1',
        [accountId],
      );
      for (const fill of paperFills) {
        const [quote, base] = fill.pair.split('_') as [string, string];
        const total = dec(fill.price).times(fill.amount);
        add(base, fill.side === 'buy' ? dec(fill.amount) : dec(fill.amount).neg());
        add(quote, fill.side === 'buy' ? total.neg() : total);
        add(fill.fee_currency, dec(fill.fee).neg());
      }
      const balances = await db.query<{ currency: string; free: string; locked: string }>(
        'SELECT currency, free::text, locked::text FROM paper_balances WHERE account_id = $1',
        [accountId],
      );
      for (const balance of balances) {
        assert.equal(dec(balance.free).plus(balance.locked).toFixed(), (totals.get(balance.currency) ?? ZERO).toFixed(), balance.currency);
      }
      const running = await db.query<{ id: string }>('SELECT id FROM automations WHERE running ORDER BY id');
      assert.deepEqual(running.map((row) => Number(row.id)), [...botIds].sort((a, b) => a - b));
    } finally {
      await db.close();
    }
  });
});
