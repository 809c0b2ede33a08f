/**
 * Grid bots on the paper exchange, through the real app: a scripted price path in (manual feed),
 * the exact orders, fills, profit rows, events and balances out. Paper fees are 0.1 % maker and
 * taker, taken in base on buys and in quote on sells; market orders fill at the touch (no slippage).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newUser, postJson, setPrices } from '../support/api.ts';
import { accountTotals, getJson, gridMessages, gridOrders, type GridUser, lineTable, openOrders, showGrid, startGrid, FIVE_LINES } from '../support/grid-bots.ts';
import type { Credentials } from '../support/signing.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
let admin: Credentials;
before(async () => {
  t = await startTestApp({ PAPER_SLIPPAGE_BPS: '0' });
  admin = await t.createKey({ user: 'operator', permissions: ['ADMIN'] });
});
after(() => t.close());

const btc = (price: string) => setPrices(t, admin, { USDT_BTC: price });


describe('a grid bot trading a scripted price path', () => {
  let user: GridUser;
  let id: number;

  before(async () => {
    user = await newUser(t);
    await btc('60000');
    id = (await startGrid(t, user, FIVE_LINES)).id;
  });

  it('starts with no order on the line nearest the price, buys below and sells above', async () => {
    const bot = await showGrid(t, user, id);
    assert.deepEqual(lineTable(bot), ['62000.0 sell placed', '61000.0 sell placed', '60000.0 -', '59000.0 buy placed', '58000.0 buy placed']);
    // floor(100 / price) on the 0.00001 BTC lot step: 0.00172 + 0.00169 cost 199.47 USDT; 0.00163 + 0.00161 BTC to sell.
    assert.deepEqual(await openOrders(t, user.accountId), ['buy 58000 0.00172', 'buy 59000 0.00169', 'sell 61000 0.00163', 'sell 62000 0.00161']);
    assert.equal(bot.investment_quote_currency, '199.47');
    assert.equal(bot.investment_base_currency, '0.00324');
    assert.equal(bot.start_price, '60000.0');
  });

  it('answers each fill with the counter order one line away and books each buy -> sell pair', async () => {
    await btc('58900'); // the buy at 59000 fills: a sell for what it brought in goes on 60000
    await btc('60100'); // that sell fills: profit, and a buy goes back on 59000
    await btc('61500'); // the sell at 61000 (base the account held at start) fills: a buy goes on 60000
    await btc('59900'); // that buy fills: a sell for it on 61000
    await btc('61000'); // and that sell fills at its limit: the second profit
    assert.deepEqual(await gridOrders(t, user, id), [
      'BUY 59000.0 0.00169 Filled',
      'SELL 61000.0 0.00163 Filled',
      'BUY 58000.0 0.00172 Active',
      'SELL 62000.0 0.00161 Active',
      'SELL 60000.0 0.00168 Filled',
      'BUY 59000.0 0.00169 Active',
      'BUY 60000.0 0.00166 Filled',
      'SELL 61000.0 0.00166 Filled',
      'BUY 60000.0 0.00166 Active',
    ]);
    assert.deepEqual(lineTable(await showGrid(t, user, id)), [
      '62000.0 sell placed',
      '61000.0 -',
      '60000.0 buy placed',
      '59000.0 buy placed',
      '58000.0 buy placed',
    ]);
  });

  it('sells what each buy brought in, carrying the lot-step remainder of its fee into the next sell', async () => {
    const profits = await getJson(t, user, `/ver1/grid_bots/${id}/profits`);
    // The buy of 0.00169 at 59000 nets 0.00168831 BTC after its fee, so 0.00168 (lot step) sells at
    // 60000 and 0.00000831 BTC (worth 0.49029 at 59000) is carried: 100.8 − 0.1008 fee
    // − (0.00169 − 0.00000831) × 59000 = 1.47949. Then 0.00166 bought at 60000 nets 0.00165834,
    // with the carry 0.00166665, so the sell at 61000 takes the line's whole 0.00166 and 0.00000665
    // (0.399 at 60000) is carried on: 101.26 − 0.10126 − 0.49029 − (0.00166 − 0.00000665) × 60000 = 1.46745.
    assert.deepEqual(
      profits.map((row: Record<string, unknown>) => [row.profit, row.usd_profit, (row.grid_line as { price: string }).price]),
      [
        ['1.46745', '1.46745', '60000.0'],
        ['1.47949', '1.47949', '59000.0'],
      ],
    );
    const bot = await showGrid(t, user, id);
    assert.equal(bot.current_profit, '2.94694');
    assert.equal(bot.current_profit_usd, '2.94694');
    assert.equal(bot.total_profits_count, '2');
    assert.equal(bot.bought_volume, '199.31');
    assert.equal(bot.sold_volume, '301.49');
  });

  it('moves the account exactly by the fills: 10000 USDT and 0.1 BTC at start', async () => {
    // USDT: −99.71 + (100.8 − 0.1008) + (99.43 − 0.09943) − 99.6 + (101.26 − 0.10126)
    // BTC: +0.00168831 − 0.00168 − 0.00163 + 0.00165834 − 0.00166 (buys net of their fee)
    assert.deepEqual(await accountTotals(t, user.accountId), { BTC: '0.09837665', ETH: '2', USDT: '10101.87851' });
    // The profit rows are the pairs' USDT change plus the change of the carried remainder's value:
    // 1.47949 + 1.46745 = (100.6992 − 99.71) + (101.15874 − 99.6) + 0.399 (0.00000665 BTC at 60000)
  });

  it('logs the life of the bot in the reference words', async () => {
    assert.deepEqual(await gridMessages(t, user, id), [
      'Start command received',
      'Bot is turned on',
      'Creating LIMIT BUY order, Price: 59000.0 USDT, Size: 99.71 USDT (0.00169 BTC), Current price: 60000.0 USDT.',
      'Creating LIMIT SELL order, Price: 61000.0 USDT, Size: 99.43 USDT (0.00163 BTC), Current price: 60000.0 USDT.',
      'Creating LIMIT BUY order, Price: 58000.0 USDT, Size: 99.76 USDT (0.00172 BTC), Current price: 60000.0 USDT.',
      'Creating LIMIT SELL order, Price: 62000.0 USDT, Size: 99.82 USDT (0.00161 BTC), Current price: 60000.0 USDT.',
      'LIMIT BUY order filled, Price: 59000.0 USDT, Size: 99.71 USDT (0.00169 BTC).',
      'Creating LIMIT SELL order, Price: 60000.0 USDT, Size: 100.8 USDT (0.00168 BTC), Current price: 58900.0 USDT.',
      'LIMIT SELL order filled, Price: 60000.0 USDT, Size: 100.8 USDT (0.00168 BTC), Profit: 1.47949 USDT.',
      'Creating LIMIT BUY order, Price: 59000.0 USDT, Size: 99.71 USDT (0.00169 BTC), Current price: 60100.0 USDT.',
      'LIMIT SELL order filled, Price: 61000.0 USDT, Size: 99.43 USDT (0.00163 BTC).',
      'Creating LIMIT BUY order, Price: 60000.0 USDT, Size: 99.6 USDT (0.00166 BTC), Current price: 61500.0 USDT.',
      'LIMIT BUY order filled, Price: 60000.0 USDT, Size: 99.6 USDT (0.00166 BTC).',
      'Creating LIMIT SELL order, Price: 61000.0 USDT, Size: 101.26 USDT (0.00166 BTC), Current price: 59900.0 USDT.',
      'LIMIT SELL order filled, Price: 61000.0 USDT, Size: 101.26 USDT (0.00166 BTC), Profit: 1.46745 USDT.',
      'Creating LIMIT BUY order, Price: 60000.0 USDT, Size: 99.6 USDT (0.00166 BTC), Current price: 61000.0 USDT.',
    ]);
  });
});

describe('max active lines', () => {
  it('keeps only that many orders per side and slides the window as lines fill', async () => {
    const user = await newUser(t);
    await btc('58000');
    const { id } = await startGrid(t, user, {
      upper_price: '62000', lower_price: '54000', grids_quantity: 9, quantity_per_grid: '100', order_currency_type: 'quote',
      max_active_buy_lines: 2, max_active_sell_lines: 2,
    });
    assert.deepEqual(await openOrders(t, user.accountId), ['buy 56000 0.00178', 'buy 57000 0.00175', 'sell 59000 0.00169', 'sell 60000 0.00166']);

    // The buy at 57000 fills: its sell goes on 58000, the highest sell (60000) is withdrawn, and the
    // next buy down (55000) joins the window.
    await btc('56900');
    assert.deepEqual(await openOrders(t, user.accountId), ['buy 55000 0.00181', 'buy 56000 0.00178', 'sell 58000 0.00174', 'sell 59000 0.00169']);
    assert.deepEqual(lineTable(await showGrid(t, user, id)), [
      '62000.0 sell', '61000.0 sell', '60000.0 sell', '59000.0 sell placed', '58000.0 sell placed',
      '57000.0 -', '56000.0 buy placed', '55000.0 buy placed', '54000.0 buy',
    ]);

    // Back up through 58000: that sell fills, a buy returns to 57000, the lowest buy leaves and 60000 sells again.
    await btc('58100');
    assert.deepEqual(await openOrders(t, user.accountId), ['buy 56000 0.00178', 'buy 57000 0.00175', 'sell 59000 0.00169', 'sell 60000 0.00166']);
    assert.deepEqual(await gridOrders(t, user, id), [
      'BUY 57000.0 0.00175 Filled',
      'SELL 59000.0 0.00169 Active',
      'BUY 56000.0 0.00178 Active',
      'SELL 60000.0 0.00166 Cancelled',
      'SELL 58000.0 0.00174 Filled',
      'BUY 55000.0 0.00181 Cancelled',
      'BUY 57000.0 0.00175 Active',
      'SELL 60000.0 0.00166 Active',
    ]);
    // 0.00174 × 58000 − 0.10092 fee − (0.00174 + 0.00000175 fee) × 57000
    const profits = await getJson(t, user, `/ver1/grid_bots/${id}/profits`);
    assert.deepEqual(profits.map((row: { profit: string }) => row.profit), ['1.53933']);
  });
});

describe('balancing', () => {
  it('buys only the missing base at market before the limit orders go out', async () => {
    const user = await newUser(t);
    await btc('60000');
    // Nine sell lines of 1000 USDT need 0.13864 BTC; the account holds 0.1.
    const bot = await startGrid(t, user, { upper_price: '69000', lower_price: '59000', grids_quantity: 11, quantity_per_grid: '1000', order_currency_type: 'quote' });
    assert.equal(bot.investment_base_currency, '0.13864');
    // 0.03864 BTC missing, grossed up by the 0.1 % taker fee taken in BTC and rounded up to the lot step.
    assert.deepEqual(await gridOrders(t, user, bot.id, 'balancing_orders'), ['BUY 60000.0 0.03868 Filled']);
    const messages = await gridMessages(t, user, bot.id);
    assert.deepEqual(messages.slice(0, 5), [
      'Start command received',
      'Bot is turned on',
      'Creating balancing order, Price: 60000.0 USDT, Size: 2320.8 USDT (0.03868 BTC).',
      'Balancing order filled, Price: 60000.0 USDT, Size: 2320.8 USDT (0.03868 BTC).',
      'Creating LIMIT BUY order, Price: 59000.0 USDT, Size: 999.46 USDT (0.01694 BTC), Current price: 60000.0 USDT.',
    ]);
    assert.equal(messages.filter((message) => message.startsWith('Creating LIMIT SELL')).length, 9);
    assert.equal((await openOrders(t, user.accountId)).length, 10);
    // Every sell is funded: what is left free is the balancing fill less the fee, less what the sells hold.
    const [btcBalance] = (await (await t.core.paper.exchange(user.accountId)).balances()).filter((b) => b.currency === 'BTC');
    assert.deepEqual([btcBalance!.free.toFixed(), btcBalance!.locked.toFixed()], ['0.00000132', '0.13864']);
    const required = await getJson(t, user, `/ver1/grid_bots/${bot.id}/required_balances`);
    assert.deepEqual(required.required_balance, { base: { quantity: '0.13864', currency: 'BTC' }, quote: { quantity: '999.46', currency: 'USDT' } });
    assert.equal(required.need_balancing, false);
  });
});

describe('disable, enable and edit', () => {
  let user: GridUser;
  let id: number;

  before(async () => {
    user = await newUser(t);
    await btc('60000');
    id = (await startGrid(t, user, FIVE_LINES)).id;
    await btc('58900');
    await btc('60100'); // one completed pair: 1.47949 USDT
  });

  it('disable cancels every order and unmarks the lines; the profit history stays', async () => {
    const response = await postJson(t, `/ver1/grid_bots/${id}/disable`, {}, user.credentials);
    assert.equal(response.status, 201, response.text);
    const bot = response.body;
    assert.equal(bot.is_enabled, false);
    assert.equal(bot.editable, false);
    assert.deepEqual(lineTable(bot), ['62000.0 -', '61000.0 -', '60000.0 -', '59000.0 -', '58000.0 -']);
    assert.deepEqual([bot.investment_base_currency, bot.investment_quote_currency], ['0.0', '0.0']);
    assert.deepEqual([bot.current_profit, bot.total_profits_count], ['1.47949', '1']);
    assert.deepEqual(await openOrders(t, user.accountId), []);
    assert.deepEqual((await gridMessages(t, user, id)).slice(-3), ['Stop command received', 'Cancelling 4 open orders', 'Bot is turned off']);
    // Prices move while it is off: nothing trades.
    await btc('57000');
    assert.deepEqual(await openOrders(t, user.accountId), []);
  });

  it('enable starts again from the current price', async () => {
    await btc('59400');
    const response = await postJson(t, `/ver1/grid_bots/${id}/enable`, {}, user.credentials);
    assert.equal(response.status, 201, response.text);
    assert.equal(response.body.is_enabled, true);
    assert.equal(response.body.start_price, '59400.0');
    assert.deepEqual(lineTable(response.body), ['62000.0 sell placed', '61000.0 sell placed', '60000.0 sell placed', '59000.0 -', '58000.0 buy placed']);
    assert.deepEqual(await openOrders(t, user.accountId), ['buy 58000 0.00172', 'sell 60000 0.00166', 'sell 61000 0.00163', 'sell 62000 0.00161']);
  });

  it('an edit places the grid again at the current price and keeps the profit history', async () => {
    const response = await t.request({
      method: 'PATCH',
      path: `/ver1/grid_bots/${id}/manual`,
      body: JSON.stringify({ name: 'wider', upper_price: 61500, lower_price: 57500, grids_quantity: 5, quantity_per_grid: 100 }),
      contentType: 'application/json',
      credentials: user.credentials,
    });
    assert.equal(response.status, 200, response.text);
    const bot = response.body;
    assert.equal(bot.name, 'wider');
    assert.deepEqual(lineTable(bot), ['61500.0 sell placed', '60500.0 sell placed', '59500.0 -', '58500.0 buy placed', '57500.0 buy placed']);
    assert.deepEqual(await openOrders(t, user.accountId), ['buy 57500 0.00173', 'buy 58500 0.0017', 'sell 60500 0.00165', 'sell 61500 0.00162']);
    assert.deepEqual([bot.current_profit, bot.total_profits_count, bot.is_enabled], ['1.47949', '1', true]);
    assert.equal((await getJson(t, user, `/ver1/grid_bots/${id}/profits`)).length, 1);
  });
});
