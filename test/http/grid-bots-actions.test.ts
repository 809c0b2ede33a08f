/**
 * The grid bot actions and logs over HTTP: PATCH manual, enable, disable, note, DELETE,
 * required_balances, events, market_orders and profits, with their error answers.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, assertRecordInvalid, newUser, postJson, setPrices } from '../support/api.ts';
import { getJson, type GridUser, openOrders, startGrid } from '../support/grid-bots.ts';
import type { Credentials } from '../support/signing.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
let admin: Credentials;
before(async () => {
  t = await startTestApp({ PAPER_SLIPPAGE_BPS: '0' });
  admin = await t.createKey({ user: 'operator', permissions: ['ADMIN'] });
  await setPrices(t, admin, { USDT_BTC: '60000' });
});
after(() => t.close());

const GRID = { upper_price: '62000', lower_price: '58000', grids_quantity: 5, quantity_per_grid: '100', order_currency_type: 'quote' };
const NOT_FOUND = { error: 'not_found', error_description: 'Not Found' };
const NOT_OWNED = { error: 'Forbidden', error_description: 'Account not owned by current user.' };

const patch = (user: GridUser, id: number | string, body: unknown) =>
  t.request({ method: 'PATCH', path: `/ver1/grid_bots/${id}/manual`, body: JSON.stringify(body), contentType: 'application/json', credentials: user.credentials });
const post = (user: GridUser, path: string, body: unknown = {}) => postJson(t, path, body, user.credentials);
const get = (user: GridUser, path: string) => t.request({ path, credentials: user.credentials });

/** Every route of one bot, for the 404 and 403 checks. */
const ROUTES = (id: number | string) => [
  ['GET', `/ver1/grid_bots/${id}`],
  ['PATCH', `/ver1/grid_bots/${id}/manual`],
  ['POST', `/ver1/grid_bots/${id}/enable`],
  ['POST', `/ver1/grid_bots/${id}/disable`],
  ['POST', `/ver1/grid_bots/${id}/note`],
  ['DELETE', `/ver1/grid_bots/${id}`],
  ['GET', `/ver1/grid_bots/${id}/required_balances`],
  ['GET', `/ver1/grid_bots/${id}/events`],
  ['GET', `/ver1/grid_bots/${id}/market_orders`],
  ['GET', `/ver1/grid_bots/${id}/profits`],
] as const;

function call(user: GridUser, method: string, path: string) {
  const body = method === 'PATCH' ? JSON.stringify(GRID) : method === 'POST' ? JSON.stringify({ note: 'n' }) : undefined;
  return t.request({ method, path, credentials: user.credentials, ...(body === undefined ? {} : { body, contentType: 'application/json' }) });
}

describe('a bot that is not there or not the caller’s', () => {
  it("answers 404 on every route for an unknown id and 403 for another user's bot", async () => {
    const owner = await newUser(t);
    const stranger = await newUser(t);
    const bot = await startGrid(t, owner, GRID);
    for (const [method, path] of ROUTES(999999)) assertError(await call(owner, method, path), 404, NOT_FOUND);
    for (const [method, path] of ROUTES(bot.id)) assertError(await call(stranger, method, path), 403, NOT_OWNED);
    assert.equal((await getJson(t, owner, `/ver1/grid_bots/${bot.id}`)).is_enabled, true);
  });
});

describe('PATCH /ver1/grid_bots/:id/manual', () => {
  it('re-plans the grid: orders cancelled and placed again on the new lines', async () => {
    const user = await newUser(t);
    const bot = await startGrid(t, user, GRID);
    const response = await patch(user, bot.id, { ...GRID, name: 'narrow', upper_price: 61000, lower_price: 59000, note: null, mode: null });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual([response.body.name, response.body.upper_price, response.body.lower_price, response.body.grid_price_step], ['narrow', '61000.0', '59000.0', '500.0']);
    assert.deepEqual(await openOrders(t, user.accountId), ['buy 59000 0.00169', 'buy 59500 0.00168', 'sell 60500 0.00165', 'sell 61000 0.00163']);
    assert.ok((await getJson(t, user, `/ver1/grid_bots/${bot.id}/events`)).some((event: { message: string }) => event.message === 'Cancelling 4 open orders'));
  });

  it('keeps the settings the body leaves out, requires the four grid fields and refuses a new pair', async () => {
    const user = await newUser(t);
    const bot = await startGrid(t, user, { ...GRID, name: 'kept', max_active_buy_lines: 1 });
    const response = await patch(user, bot.id, { ...GRID, grids_quantity: 3 });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual([response.body.name, response.body.max_active_buy_lines, response.body.grids_quantity], ['kept', '1', '3']);
    assertRecordInvalid(await patch(user, bot.id, { name: 'x' }), {
      upper_price: ['is missing'],
      lower_price: ['is missing'],
      quantity_per_grid: ['is missing'],
      grids_quantity: ['is missing'],
    });
    assertRecordInvalid(await patch(user, bot.id, { ...GRID, pair: 'USDT_ETH' }), { pair: ['cannot be changed'] });
    assertRecordInvalid(await patch(user, bot.id, { ...GRID, lower_price: '63000' }), { lower_price: ['must be less than upper_price'] });
    assertRecordInvalid(await patch(user, bot.id, { ...GRID, account_id: 'x', grid_type: 'spiral' }), { grid_type: ['does not have a valid value'] });
  });
});

describe('enable, disable and note', () => {
  let user: GridUser;
  let id: number;
  before(async () => {
    user = await newUser(t);
    id = (await startGrid(t, user, GRID)).id;
  });

  it('disable answers 201 with the stopped bot, and again when it is already off', async () => {
    const first = await post(user, `/ver1/grid_bots/${id}/disable`);
    assert.equal(first.status, 201, first.text);
    assert.deepEqual([first.body.is_enabled, first.body.editable, first.body.current_profit_loss], [false, false, null]);
    assert.ok(first.body.grid_lines.every((line: { side: unknown; order_placed: boolean }) => line.side === null && !line.order_placed));
    const again = await post(user, `/ver1/grid_bots/${id}/disable`);
    assert.equal(again.status, 201, again.text);
    assert.equal(again.body.is_enabled, false);
    assert.deepEqual(await openOrders(t, user.accountId), []);
  });

  it('required_balances answers 500 grid_lines_not_marked while the lines are unmarked', async () => {
    assertError(await get(user, `/ver1/grid_bots/${id}/required_balances`), 500, {
      error: 'grid_lines_not_marked',
      error_description: 'Grid lines empty or not marked',
    });
  });

  it('enable answers 201 with the running bot, and again when it already runs', async () => {
    const first = await post(user, `/ver1/grid_bots/${id}/enable`);
    assert.equal(first.status, 201, first.text);
    assert.deepEqual([first.body.is_enabled, first.body.editable], [true, true]);
    assert.equal((await openOrders(t, user.accountId)).length, 4);
    const again = await post(user, `/ver1/grid_bots/${id}/enable`);
    assert.equal(again.status, 201, again.text);
    assert.equal((await openOrders(t, user.accountId)).length, 4);
  });

  it('note sets the note (an empty one clears it) and refuses one over 300 characters', async () => {
    const set = await post(user, `/ver1/grid_bots/${id}/note`, { note: 'hold through the halving' });
    assert.equal(set.status, 201, set.text);
    assert.equal(set.body.note, 'hold through the halving');
    assert.equal((await post(user, `/ver1/grid_bots/${id}/note`, { note: '' })).body.note, null);
    assertRecordInvalid(await post(user, `/ver1/grid_bots/${id}/note`, { note: 'x'.repeat(301) }), { note: ['too long. Max is 300 symbols'] });
    assertRecordInvalid(await post(user, `/ver1/grid_bots/${id}/note`, {}), { note: ['is missing'] });
  });
});

describe('DELETE /ver1/grid_bots/:id', () => {
  it('cancels the orders, answers 200 with the bot as it ended and forgets it', async () => {
    const user = await newUser(t);
    const bot = await startGrid(t, user, GRID);
    const response = await t.request({ method: 'DELETE', path: `/ver1/grid_bots/${bot.id}`, credentials: user.credentials });
    assert.equal(response.status, 200, response.text);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(response.body.id, bot.id);
    assert.equal(response.body.is_enabled, false);
    assert.deepEqual(await openOrders(t, user.accountId), []);
    assertError(await get(user, `/ver1/grid_bots/${bot.id}`), 404, NOT_FOUND);
    assert.deepEqual(await getJson(t, user, '/ver1/grid_bots'), []);
  });
});

describe('logs of a bot', () => {
  let user: GridUser;
  let id: number;
  before(async () => {
    user = await newUser(t);
    await setPrices(t, admin, { USDT_BTC: '60000' });
    id = (await startGrid(t, user, GRID)).id;
    await setPrices(t, admin, { USDT_BTC: '58900' });
    await setPrices(t, admin, { USDT_BTC: '60100' });
  });

  it('required_balances answers what the lines need against the account', async () => {
    const body = await getJson(t, user, `/ver1/grid_bots/${id}/required_balances`);
    assert.deepEqual(body, {
      missing_balance: { base: { quantity: '0.0', currency: 'BTC' }, quote: { quantity: '0.0', currency: 'USDT' } },
      required_balance: { base: { quantity: '0.00324', currency: 'BTC' }, quote: { quantity: '199.47', currency: 'USDT' } },
      need_balancing: false,
      balancing_available: true,
      necessary_quantities: { quantity: '0.0', currency: 'USDT' },
    });
  });

  it('events come oldest first, paged by page and per_page', async () => {
    const all = await getJson(t, user, `/ver1/grid_bots/${id}/events`);
    assert.ok(all.length >= 10);
    assert.deepEqual(Object.keys(all[0]), ['message', 'created_at']);
    assert.deepEqual(all.slice(0, 2).map((event: { message: string }) => event.message), ['Start command received', 'Bot is turned on']);
    assert.deepEqual(await getJson(t, user, `/ver1/grid_bots/${id}/events?page=2&per_page=3`), all.slice(3, 6));
    assertRecordInvalid(await get(user, `/ver1/grid_bots/${id}/events?page=0&per_page=101`), {
      page: ['must be greater than or equal to 1'],
      per_page: ['must be less than or equal to 100'],
    });
  });

  it('market_orders answers grid line and balancing orders, newest first, paged by limit and offset', async () => {
    const body = await getJson(t, user, `/ver1/grid_bots/${id}/market_orders`);
    assert.deepEqual(Object.keys(body), ['grid_lines_orders', 'balancing_orders']);
    assert.deepEqual(body.balancing_orders, []);
    const orders = body.grid_lines_orders;
    assert.equal(orders.length, 6);
    assert.deepEqual(Object.keys(orders[0]).sort(), [
      'average_price', 'created_at', 'order_id', 'order_type', 'quantity', 'quantity_remaining', 'rate', 'status_string', 'total', 'updated_at',
    ]);
    assert.ok(orders[0].order_id > orders[1].order_id);
    const filledBuy = orders.find((order: Record<string, string>) => order.order_type === 'BUY' && order.status_string === 'Filled');
    assert.deepEqual(
      [filledBuy.quantity, filledBuy.quantity_remaining, filledBuy.total, filledBuy.rate, filledBuy.average_price],
      ['0.00169', '0.0', '99.71', '59000.0', '59000.0'],
    );
    const open = orders.find((order: Record<string, string>) => order.status_string === 'Active');
    assert.deepEqual([open.quantity_remaining, open.total, open.average_price], [open.quantity, '0.0', '0.0']);
    assert.deepEqual((await getJson(t, user, `/ver1/grid_bots/${id}/market_orders?limit=2&offset=1`)).grid_lines_orders, orders.slice(1, 3));
    assertRecordInvalid(await get(user, `/ver1/grid_bots/${id}/market_orders?limit=1001`), { limit: ['must be less than or equal to 1000'] });
  });

  it('profits answers one row per completed pair, filtered by from and to', async () => {
    const rows = await getJson(t, user, `/ver1/grid_bots/${id}/profits`);
    assert.equal(rows.length, 1);
    const [row] = rows;
    assert.deepEqual(Object.keys(row), ['grid_line_id', 'profit', 'usd_profit', 'created_at', 'grid_line']);
    assert.equal(row.profit, row.usd_profit);
    assert.deepEqual(row.grid_line, { id: row.grid_line_id, price: '59000.0', side: 'buy', order_placed: true });
    const at = Date.parse(row.created_at);
    const around = (from: number, to: number) =>
      getJson(t, user, `/ver1/grid_bots/${id}/profits?from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`);
    assert.equal((await around(at, at)).length, 1);
    assert.equal((await around(at + 1, at + 60_000)).length, 0);
    assert.equal((await around(at - 60_000, at - 1)).length, 0);
    assertRecordInvalid(await get(user, `/ver1/grid_bots/${id}/profits?from=yesterday&to=2024-13-01`), { from: ['is invalid'], to: ['is invalid'] });
    assertRecordInvalid(await get(user, `/ver1/grid_bots/${id}/profits?to=2024-13-01`), { to: ['is invalid'] });
  });
});
