/**
 * The backtest runs the code that trades live: a grid bot and a DCA bot, with the same settings
 * and the same week of real 1h candles, run once as a backtest and once through the running
 * server (manual paper feed, each tick of the same intra-candle path posted to ext/paper/ticks,
 * the server's clock at the tick's time) place the same orders, get the same fills and book the
 * same profit, to the last decimal.
 */
import assert from 'node:assert/strict';
import { afterEach, before, beforeEach, describe, it } from 'node:test';
import type { BacktestResult } from '../../src/backtest/backtest-result.ts';
import { prepareBacktest } from '../../src/backtest/backtest-request.ts';
import { type CandleSeries, shippedCandles } from '../../src/backtest/candle-series.ts';
import { runBacktest } from '../../src/backtest/runner.ts';
import { intraCandlePath } from '../../src/domain/market/candle.ts';
import { dec } from '../../src/shared/decimal.ts';
import { newUser, postJson, postTicks } from '../support/api.ts';
import type { Credentials } from '../support/signing.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const GRID = { lower_price: '3700', upper_price: '4100', grids_quantity: 12, quantity_per_grid: '0.01' };
const DCA = {
  name: 'parity', base_order_volume: '100', base_order_volume_type: 'quote_currency', start_order_type: 'market',
  take_profit: '1', take_profit_type: 'total', safety_order_volume: '50', safety_order_step_percentage: '1',
  martingale_volume_coefficient: '1.5', martingale_step_coefficient: '1.2', max_safety_orders: 4, active_safety_orders_count: 2,
  strategy_list: [{ strategy: 'nonstop', options: {} }],
};
const PERIOD = { pair: 'USDT_BTC', from: '2019-01-01', to: '2019-01-04' };

let now = new Date(0);
let t: TestApp;
let admin: Credentials;
let series: CandleSeries;
before(() => {
  series = shippedCandles(prepareBacktest({ kind: 'grid', settings: {}, ...PERIOD }).candles);
});
// Each test replays the same period, and a server's engine clock never goes back: one server each.
beforeEach(async () => {
  now = new Date(0);
  t = await startTestApp({ PAPER_BALANCES: 'USDT:10000', PAPER_FEE: '0.001', PAPER_SLIPPAGE_BPS: '5' }, { now: () => now });
  admin = await t.createKey({ user: 'operator', permissions: ['ADMIN'] });
});
afterEach(() => t.close());

const backtest = (kind: 'grid' | 'dca', settings: object) =>
  runBacktest({ ...prepareBacktest({ kind, settings, ...PERIOD }), series });

/** The same path the backtest walks, posted tick by tick; `start` runs after the first tick. */
async function replayThroughServer(start: () => Promise<void>): Promise<void> {
  const ticks = series.candles.flatMap((candle) => intraCandlePath(candle, series.timeframeMs));
  for (const [index, tick] of ticks.entries()) {
    now = tick.at;
    const response = await postTicks(t, admin, [{ pair: PERIOD.pair, price: tick.price.toFixed(), at: tick.at.toISOString() } as never]);
    assert.equal(response.status, 200, response.text);
    if (index === 0) await start();
  }
}

const orderLines = (orders: Array<{ createdAt: Date; role: string; side: string; orderType: string; price: string | null; amount: string; filled: string; status: string }>) =>
  orders.map((o) => `${o.createdAt.toISOString()} ${o.role} ${o.side} ${o.orderType} ${o.price} ${dec(o.amount).toFixed()} ${dec(o.filled).toFixed()} ${o.status}`);

const resultOrderLines = (result: BacktestResult) =>
  result.orders.map((o) => `${o.created_at} ${o.role} ${o.side} ${o.type} ${o.price} ${o.amount} ${o.filled} ${o.status}`);

async function serverFills(accountId: number): Promise<string[]> {
  const rows = await t.core.db.query<{ side: string; price: string; amount: string; fee: string; at: Date }>(
    'SELECT side, price::text, amount::text, fee::text, at FROM paper_trades WHERE account_id = $1',
    [accountId],
  );
  // Fills recorded by their order's row come without the order of fills within an instant: sorted.
  return rows.map((row) => `${row.at.toISOString()} ${row.side} ${dec(row.price).toFixed()} ${dec(row.amount).toFixed()} ${dec(row.fee).toFixed()}`).sort();
}

const resultFills = (result: BacktestResult) => result.fills.map((f) => `${f.at} ${f.side} ${f.price} ${f.amount} ${f.fee}`).sort();

async function serverBalances(accountId: number): Promise<string[]> {
  const balances = await (await t.core.accounts.exchangeForId(accountId)).balances();
  return balances.map((b) => `${b.currency} ${b.free.plus(b.locked).toFixed()}`).sort();
}

const resultBalances = (result: BacktestResult) => result.end_balances.map((b) => `${b.currency} ${b.amount}`).sort();

describe('a backtest and the running server', { concurrency: 1 }, () => {
  it('run a grid bot to the same orders, fills, profit rows and balances', { timeout: 120_000 }, async () => {
    const expected = await backtest('grid', GRID);
    assert.ok(expected.figures.grid_cycles > 3, `${expected.figures.grid_cycles} grid cycles: the period must trade`);
    const user = await newUser(t);
    let botId = 0;
    await replayThroughServer(async () => {
      const created = await postJson(t, '/ver1/grid_bots/manual', { ...GRID, account_id: user.accountId, pair: PERIOD.pair }, user.credentials);
      assert.equal(created.status, 201, created.text);
      botId = created.body.id;
    });
    assert.deepEqual(orderLines(await t.core.engine.orders(botId)), resultOrderLines(expected));
    assert.deepEqual(await serverFills(user.accountId), resultFills(expected));
    assert.deepEqual(await serverBalances(user.accountId), resultBalances(expected));
    const profits = await t.request({ path: `/ver1/grid_bots/${botId}/profits`, credentials: user.credentials });
    assert.equal(profits.body.length, expected.figures.grid_cycles);
    const booked = profits.body.reduce((sum: ReturnType<typeof dec>, row: { profit: string }) => sum.plus(row.profit), dec(0));
    assert.equal(booked.toFixed(), expected.figures.realised_profit);
  });

  it('run a DCA bot to the same orders, fills, deals and balances', { timeout: 120_000 }, async () => {
    const expected = await backtest('dca', DCA);
    assert.ok(expected.figures.deals > 2, `${expected.figures.deals} deals: the period must trade`);
    const user = await newUser(t);
    let botId = 0;
    await replayThroughServer(async () => {
      const created = await postJson(t, '/ver1/bots/create_bot', { ...DCA, account_id: user.accountId, pairs: [PERIOD.pair] }, user.credentials);
      assert.equal(created.status, 201, created.text);
      botId = created.body.id;
      const enabled = await postJson(t, `/ver1/bots/${botId}/enable`, {}, user.credentials);
      assert.equal(enabled.status, 201, enabled.text);
    });
    assert.deepEqual(orderLines(await t.core.engine.orders(botId)), resultOrderLines(expected));
    assert.deepEqual(await serverFills(user.accountId), resultFills(expected));
    assert.deepEqual(await serverBalances(user.accountId), resultBalances(expected));
    const deals = await t.request({ path: `/ver1/deals?bot_id=${botId}&limit=1000&order_direction=asc`, credentials: user.credentials });
    assert.deepEqual(
      deals.body.map((deal: { status: string; final_profit: string; 'finished?': boolean }) => `${deal.status} ${deal['finished?'] ? dec(deal.final_profit).toFixed() : 'open'}`),
      expected.deals.map((deal) => `${deal.status} ${deal.closed_at ? deal.profit : 'open'}`),
    );
  });
});
