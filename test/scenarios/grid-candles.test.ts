/**
 * A BTC grid over seven months of real Coinbase 4h candles (2018-11-01 to 2019-06-01), each candle
 * walked open -> first extreme -> second extreme -> close and posted tick by tick to the paper
 * exchange of the running app. BTC starts near 6300, falls to 3129 and ends near 8550.
 *
 * What is compared, exactly. The grid (3300-5300, 21 lines, 150 USDT a line) starts above its
 * range, so every line is a buy and the bot holds no base of its own at start (no balancing); the
 * path ends above the range, so every buy that filled has had its sell filled too. A pair buys q
 * at P (fee q·0.1 % in BTC) and sells one line up what it brought in plus the remainder carried
 * from earlier buys, down to the lot step; what is left over (under one lot step) is carried on,
 * valued at its buy's price. Hence, to the last decimal:
 *   account BTC change  = the remainder carried at the end (under one lot step)
 *   account USDT change = Σ profit rows − that remainder at the price of the last buy
 * and the bot's current_profit equals the sum of its profit rows. The rows are also set next to
 * the reference's formula for each pair, q·(P' − P) − fee·q·P − fee·q·P': paid in BTC, the buy's
 * fee is BTC that is not sold one line up, so the grid earns fee·q·(P' − P) less per pair.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { intraCandlePath } from '../../src/domain/market/candle.ts';
import { candleDurationMs, MARKET_FIXTURES_DIR, readCandles } from '../../src/market-data/market-files.ts';
import { type Decimal, dec, ZERO } from '../../src/shared/decimal.ts';
import { newUser, postTicks, setPrices } from '../support/api.ts';
import { accountTotals, getJson, showGrid, startGrid } from '../support/grid-bots.ts';
import type { Credentials } from '../support/signing.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
let admin: Credentials;
before(async () => {
  // The server's clock stands at the path's start: the bot is created there, and the engine's
  // clock follows the ticks' times from then on.
  t = await startTestApp({}, { now: () => new Date(FROM) });
  admin = await t.createKey({ user: 'operator', permissions: ['ADMIN'] });
});
after(() => t.close());

const FILE = path.join(MARKET_FIXTURES_DIR, 'coinbase-BTCUSD-4h-2016-05_2025-10.csv.gz');
const FROM = Date.parse('2018-11-01T00:00:00Z');
const TO = Date.parse('2019-06-01T00:00:00Z');
const LOWER = 3300;
const STEP = 100;
const LINES = 21;
const FEE = dec('0.001');
const LOT = dec('0.00001');

interface OrderRow {
  order_id: number;
  order_type: string;
  status_string: string;
  quantity: string;
  rate: string;
}

/** The path's prices (on the paper market's 0.01 step), keeping each one that reaches a line. */
function pricePath(): Array<{ price: string; at: string }> {
  const candles = readCandles(FILE).filter((candle) => candle.time.getTime() >= FROM && candle.time.getTime() < TO);
  const duration = candleDurationMs(FILE);
  const lines = Array.from({ length: LINES }, (_, k) => LOWER + k * STEP);
  const points: Array<{ price: string; at: string }> = [];
  let last: number | undefined;
  for (const candle of candles) {
    for (const point of intraCandlePath(candle, duration)) {
      const price = point.price.toDecimalPlaces(2);
      const value = price.toNumber();
      // A move that stays strictly between two lines can neither fill an order nor change one.
      const reaches = last === undefined || lines.some((line) => line >= Math.min(last!, value) && line <= Math.max(last!, value));
      if (!reaches) continue;
      points.push({ price: price.toFixed(), at: point.at.toISOString() });
      last = value;
    }
  }
  return points;
}

it('reports a profit equal to its profit rows and to the paper account ledger', { timeout: 110_000 }, async () => {
  const user = await newUser(t);
  const points = pricePath();
  assert.ok(points.length > 500, `${points.length} ticks`);
  await setPrices(t, admin, { USDT_BTC: points[0]!.price });
  const before = await accountTotals(t, user.accountId);
  const bot = await startGrid(t, user, {
    upper_price: String(LOWER + STEP * (LINES - 1)), lower_price: String(LOWER), grids_quantity: LINES,
    quantity_per_grid: '150', order_currency_type: 'quote',
  });
  assert.equal(bot.grid_lines.filter((line: { side: string | null }) => line.side === 'buy').length, LINES - 1);
  assert.equal(bot.investment_base_currency, '0.0');

  for (const point of points.slice(1)) {
    const response = await postTicks(t, admin, [{ pair: 'USDT_BTC', ...point }]);
    assert.equal(response.status, 200, response.text);
  }

  const shown = await showGrid(t, user, bot.id);
  const rows: Array<{ profit: string; created_at: string; grid_line: { price: string } }> = await getJson(t, user, `/ver1/grid_bots/${bot.id}/profits`);
  const orders = await getJson(t, user, `/ver1/grid_bots/${bot.id}/market_orders?limit=1000`);
  const filled = (orders.grid_lines_orders as OrderRow[]).filter((order) => order.status_string === 'Filled');
  const buys = filled.filter((order) => order.order_type === 'BUY');
  const sells = filled.filter((order) => order.order_type === 'SELL');
  assert.ok(orders.grid_lines_orders.length < 1000, 'every order is on the page');
  assert.ok(rows.length > 100, `${rows.length} completed pairs`);
  assert.equal(buys.length, rows.length);
  assert.equal(sells.length, rows.length);
  assert.equal(shown.total_profits_count, String(rows.length));

  const sum = (values: Decimal[]) => values.reduce((total, value) => total.plus(value), ZERO);
  const profit = sum(rows.map((row) => dec(row.profit)));
  assert.equal(dec(shown.current_profit).toFixed(), profit.toFixed());

  const after = await accountTotals(t, user.accountId);
  const usdtChange = dec(after.USDT!).minus(dec(before.USDT!));
  const btcChange = dec(after.BTC!).minus(dec(before.BTC!));
  // The last buy the bot handled is the one below the last sell it created.
  const lastSell = sells.reduce((last, sell) => (sell.order_id > last.order_id ? sell : last));
  const lastBuyPrice = dec(lastSell.rate).minus(STEP);
  assert.ok(btcChange.gte(0) && btcChange.lt(LOT), btcChange.toFixed());
  assert.equal(usdtChange.toFixed(), profit.minus(btcChange.times(lastBuyPrice)).toFixed());

  const formula = sum(rows.map((row) => {
    const low = dec(row.grid_line.price);
    const high = low.plus(STEP);
    const q = dec(150).div(low).div(LOT).floor().times(LOT);
    return q.times(high.minus(low)).minus(FEE.times(q).times(low)).minus(FEE.times(q).times(high));
  }));
  const shortfall = formula.minus(profit).div(formula);
  assert.ok(shortfall.gt(0) && shortfall.lt('0.002'), `profit ${profit.toFixed()} against the formula's ${formula.toFixed()}`);
  assert.ok(profit.gt(0));

  // The rows carry the time of the fill that completed them: a window of the path selects its part.
  const march = await getJson(t, user, `/ver1/grid_bots/${bot.id}/profits?from=2019-03-01T00:00:00Z&to=2019-03-31T23:59:59Z`);
  const inMarch = rows.filter((row) => row.created_at >= '2019-03-01T00:00:00Z' && row.created_at <= '2019-03-31T23:59:59Z');
  assert.ok(inMarch.length > 0);
  assert.deepEqual(march, inMarch);
});
