/** POST /ver1/grid_bots/manual, GET /ver1/grid_bots and GET /ver1/grid_bots/:id against the running server. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, assertRecordInvalid, newUser, postJson, setPrices } from '../support/api.ts';
import { createGrid, getJson, type GridUser, startGrid } from '../support/grid-bots.ts';
import type { Credentials } from '../support/signing.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
let admin: Credentials;
before(async () => {
  t = await startTestApp({ PAPER_SLIPPAGE_BPS: '0' });
  admin = await t.createKey({ user: 'operator', permissions: ['ADMIN'] });
  await setPrices(t, admin, { USDT_BTC: '60000', USDT_ETH: '3000' });
});
after(() => t.close());

/** A small valid grid around 60000; tests override what they exercise. */
const GRID = { upper_price: '62000', lower_price: '58000', grids_quantity: 5, quantity_per_grid: '100', order_currency_type: 'quote' };

const ENTITY_FIELDS = [
  'id', 'account_id', 'account_name', 'is_enabled', 'grids_quantity', 'created_at', 'updated_at', 'strategy_type',
  'upper_stop_loss_enabled', 'lower_stop_loss_enabled', 'note', 'editable', 'lower_price', 'lower_stop_loss_price',
  'lower_stop_loss_action', 'upper_price', 'upper_stop_loss_price', 'upper_stop_loss_action', 'quantity_per_grid',
  'leverage_type', 'leverage_custom_value', 'name', 'pair', 'start_price', 'grid_price_step', 'current_profit',
  'current_profit_usd', 'total_profits_count', 'bought_volume', 'sold_volume', 'profit_percentage', 'current_price',
  'max_active_buy_lines', 'max_active_sell_lines', 'order_currency_type', 'profit_currency_type', 'trailing_up_enabled',
  'trailing_down_enabled', 'grid_type', 'investment_base_currency', 'investment_quote_currency', 'unrealized_profit_loss',
  'current_profit_loss', 'current_profit_loss_percent', 'orderbook_price_currency', 'expansion_down_enabled',
  'expansion_down_stop_price', 'expansion_up_enabled', 'expansion_up_stop_price', 'grid_lines', 'mode',
  // not in the reference: why a bot cannot trade
  'status', 'error',
];

describe('POST /ver1/grid_bots/manual', () => {
  let user: GridUser;
  before(async () => {
    user = await newUser(t);
  });

  it("creates and starts the reference's example bot, answering its entity", async () => {
    await setPrices(t, admin, { USDT_BTC: '65229.37' });
    const response = await createGrid(t, user, {
      name: 'USDT_BTC EXAMPLE', upper_price: 72000, lower_price: 56000, grids_quantity: 50, quantity_per_grid: 15,
      order_currency_type: 'quote', profit_currency_type: 'quote', trailing_up_enabled: true, grid_type: 'arithmetic',
      expansion_down_enabled: true, expansion_down_stop_price: 54000, upper_stop_loss_enabled: true, upper_stop_loss_price: 75000,
      upper_stop_loss_action: 'stop_bot', lower_stop_loss_enabled: true, lower_stop_loss_price: 50000,
      lower_stop_loss_action: 'stop_bot_and_sell', note: 'Example bot',
    });
    await setPrices(t, admin, { USDT_BTC: '60000' });
    assert.equal(response.status, 201, response.text);
    const bot = response.body;
    assert.deepEqual(Object.keys(bot).sort(), [...ENTITY_FIELDS].sort());
    assert.equal(typeof bot.id, 'number');
    assert.equal(bot.account_id, user.accountId);
    assert.equal(bot.account_name, 'Paper trading account');
    assert.deepEqual(
      [bot.is_enabled, bot.editable, bot.strategy_type, bot.grids_quantity, bot.grid_type, bot.pair, bot.name, bot.note],
      [true, true, 'manual', '50', 'arithmetic', 'USDT_BTC', 'USDT_BTC EXAMPLE', 'Example bot'],
    );
    // 16000 / 49, printed as the reference prints it.
    assert.equal(bot.grid_price_step, '326.530612244897959183673469387755102041');
    assert.deepEqual([bot.lower_price, bot.upper_price, bot.quantity_per_grid], ['56000.0', '72000.0', '15.0']);
    assert.deepEqual([bot.start_price, bot.current_price, bot.orderbook_price_currency], ['65229.37', '65229.37', 'USDT']);
    assert.deepEqual(
      [bot.upper_stop_loss_enabled, bot.upper_stop_loss_price, bot.upper_stop_loss_action, bot.lower_stop_loss_price, bot.lower_stop_loss_action],
      [true, '75000.0', 'stop_bot', '50000.0', 'stop_bot_and_sell'],
    );
    assert.deepEqual(
      [bot.trailing_up_enabled, bot.trailing_down_enabled, bot.expansion_down_enabled, bot.expansion_down_stop_price, bot.expansion_up_enabled],
      ['true', 'false', 'true', '54000.0', 'false'],
    );
    assert.deepEqual([bot.max_active_buy_lines, bot.max_active_sell_lines, bot.leverage_type, bot.leverage_custom_value, bot.mode], ['50', '50', 'not_specified', null, null]);
    assert.deepEqual(
      [bot.current_profit, bot.current_profit_usd, bot.total_profits_count, bot.bought_volume, bot.sold_volume, bot.profit_percentage],
      ['0.0', '0.0', '0', '0.0', '0.0', '0.0'],
    );
    // As in the reference's example: 65142.86 waits, 28 lines below buy, 21 above sell.
    const lines: Array<{ id: number; price: string; side: string | null; order_placed: boolean }> = bot.grid_lines;
    assert.equal(lines.length, 50);
    assert.deepEqual(lines[0], { id: lines[0]!.id, price: '65142.86', side: null, order_placed: false });
    assert.deepEqual(lines.find((line) => line.price === '64816.33')?.side, 'buy');
    assert.deepEqual(lines.find((line) => line.price === '72000.0')?.side, 'sell');
    assert.equal(lines.filter((line) => line.side === 'buy' && line.order_placed).length, 28);
    assert.equal(lines.filter((line) => line.side === 'sell' && line.order_placed).length, 21);
    assert.equal(new Set(lines.map((line) => line.id)).size, 50);
  });

  it('reports the ratio of a geometric grid as its grid_price_step', async () => {
    await setPrices(t, admin, { BTC_ETH: '0.0224' });
    // The reference's geometric example: (0.022503 / 0.016352)^(1/80).
    const bot = await startGrid(t, user, {
      pair: 'BTC_ETH', upper_price: '0.022503', lower_price: '0.016352', grids_quantity: 81, grid_type: 'geometric',
      quantity_per_grid: '0.0002', order_currency_type: 'quote',
    });
    assert.equal(bot.grid_price_step, '1.00399920581210916146041542739112586576');
    assert.equal(bot.grid_lines.length, 81);
  });

  it('names every missing required field', async () => {
    const response = await postJson(t, '/ver1/grid_bots/manual', {}, user.credentials);
    assertRecordInvalid(response, {
      account_id: ['is missing'],
      pair: ['is missing'],
      upper_price: ['is missing'],
      lower_price: ['is missing'],
      quantity_per_grid: ['is missing'],
      grids_quantity: ['is missing'],
    });
  });

  it('refuses values of the wrong type, unknown enumeration values and over-long text', async () => {
    assertRecordInvalid(
      await createGrid(t, user, {
        ...GRID,
        name: 'n'.repeat(41),
        upper_price: 'high',
        grids_quantity: 4.5,
        grid_type: 'linear',
        order_currency_type: 'usd',
        profit_currency_type: 'usd',
      }),
      {
        name: ['too long. Max is 40 symbols'],
        upper_price: ['is invalid'],
        grids_quantity: ['is invalid'],
        grid_type: ['does not have a valid value'],
        order_currency_type: ['does not have a valid value'],
        profit_currency_type: ['does not have a valid value'],
      },
    );
    assertRecordInvalid(
      await createGrid(t, user, {
        ...GRID,
        upper_stop_loss_action: 'stop_bot_and_close_position',
        lower_stop_loss_enabled: 'maybe',
        leverage_type: 'custom',
        mode: 'sideways',
        note: 'x'.repeat(301),
        max_active_buy_lines: 'all',
      }),
      {
        upper_stop_loss_action: ['does not have a valid value'],
        lower_stop_loss_enabled: ['is invalid'],
        leverage_type: ['does not have a valid value'],
        mode: ['does not have a valid value'],
        note: ['too long. Max is 300 symbols'],
        max_active_buy_lines: ['is invalid'],
      },
    );
  });

  it('checks prices against the market and against each other', async () => {
    assertRecordInvalid(await createGrid(t, user, { ...GRID, upper_price: '2000000', lower_price: '0.001' }), {
      upper_price: ['must be less than or equal to 1000000'],
      lower_price: ['must be greater than or equal to 0.01'],
    });
    assertRecordInvalid(await createGrid(t, user, { ...GRID, lower_price: '62000' }), { lower_price: ['must be less than upper_price'] });
    assertRecordInvalid(await createGrid(t, user, { ...GRID, quantity_per_grid: '0' }), { quantity_per_grid: ['must be greater than 0'] });
  });

  it('checks the grid count, the per-grid amount and the settings that depend on other fields', async () => {
    assertRecordInvalid(await createGrid(t, user, { ...GRID, grids_quantity: 1 }), { grids_quantity: ['must be greater than or equal to 2'] });
    assertRecordInvalid(await createGrid(t, user, { ...GRID, grids_quantity: 202 }), { grids_quantity: ['must be less than or equal to 201'] });
    assertRecordInvalid(await createGrid(t, user, { ...GRID, upper_price: '58000.05', grids_quantity: 10 }), {
      grids_quantity: ['is too large for the price range: grid lines would share a price'],
    });
    assertRecordInvalid(await createGrid(t, user, { ...GRID, quantity_per_grid: '4' }), {
      quantity_per_grid: ['gives an order at 58000 below the minimum total of 5 USDT'],
    });
    assertRecordInvalid(await createGrid(t, user, { ...GRID, order_currency_type: 'base', quantity_per_grid: '0.000001' }), {
      quantity_per_grid: ['gives an order below the minimum amount of 0.00001 BTC'],
    });
    assertRecordInvalid(
      await createGrid(t, user, {
        ...GRID,
        order_currency_type: 'base',
        quantity_per_grid: '0.001',
        trailing_up_enabled: true,
        upper_stop_loss_enabled: true,
        upper_stop_loss_price: '61000',
        lower_stop_loss_enabled: true,
        expansion_up_enabled: true,
        expansion_up_stop_price: '60000',
        expansion_down_enabled: true,
      }),
      {
        trailing_up_enabled: ['is available only with order_currency_type quote'],
        upper_stop_loss_price: ['must be greater than upper_price'],
        lower_stop_loss_price: ['is missing'],
        expansion_up_stop_price: ['must be greater than upper_price'],
        expansion_down_stop_price: ['is missing'],
      },
    );
    assertRecordInvalid(await createGrid(t, user, { ...GRID, lower_stop_loss_enabled: true, lower_stop_loss_price: '58000', expansion_down_enabled: true, expansion_down_stop_price: '59000' }), {
      lower_stop_loss_price: ['must be less than lower_price'],
      expansion_down_stop_price: ['must be less than lower_price'],
    });
  });

  it('refuses a grid the account cannot fund, unless told to ignore warnings', async () => {
    const poor = await newUser(t);
    // 4 buys of 5000 USDT need 20000 USDT; the account has 10000 and only 0.1 BTC to sell.
    const big = { ...GRID, upper_price: '64000', lower_price: '56000', grids_quantity: 9, quantity_per_grid: '5000' };
    const refused = await createGrid(t, poor, big);
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.body.error, 'record_invalid');
    assert.match(refused.body.error_attributes.quantity_per_grid[0], /^Insufficient funds/);
    assert.deepEqual((await getJson(t, poor, '/ver1/grid_bots')).length, 0);
    const forced = await createGrid(t, poor, { ...big, ignore_warnings: true });
    assert.equal(forced.status, 201, forced.text);
    assert.equal(forced.body.is_enabled, true);
  });

  it("answers 403 for another user's account, 404 for an unknown one and names an unknown pair", async () => {
    const other = await newUser(t);
    assertError(await createGrid(t, user, { ...GRID, account_id: other.accountId }), 403, {
      error: 'Forbidden',
      error_description: 'Account not owned by current user.',
    });
    assertError(await createGrid(t, user, { ...GRID, account_id: 999999 }), 404, { error: 'not_found', error_description: 'Not Found' });
    assertRecordInvalid(await createGrid(t, user, { ...GRID, pair: 'USDT_DOGE' }), { pair: ['does not have a valid value'] });
  });
});

describe('GET /ver1/grid_bots', () => {
  let alice: GridUser;
  let bob: GridUser;
  let ids: { btc: number; eth: number; off: number };
  let second: GridUser;

  const list = async (who: GridUser, query = '') => (await getJson(t, who, `/ver1/grid_bots${query}`)) as Array<Record<string, any>>;
  const idsOf = (bots: Array<Record<string, any>>) => bots.map((bot) => bot.id);

  before(async () => {
    alice = await newUser(t);
    bob = await newUser(t);
    const account = await postJson(t, '/ver1/accounts/new', { type: 'paper_trading', name: 'second' }, alice.credentials);
    assert.equal(account.status, 201, account.text);
    second = { credentials: alice.credentials, accountId: account.body.id };
    const btc = await startGrid(t, alice, { ...GRID, name: 'b btc' });
    const eth = await startGrid(t, second, {
      ...GRID, name: 'a eth', pair: 'USDT_ETH', upper_price: '3100', lower_price: '2900', quantity_per_grid: '50',
    });
    const off = await startGrid(t, alice, { ...GRID, name: 'c off' });
    assert.equal((await postJson(t, `/ver1/grid_bots/${off.id}/disable`, {}, alice.credentials)).status, 201);
    await startGrid(t, bob, GRID);
    ids = { btc: btc.id, eth: eth.id, off: off.id };
  });

  it("lists only the caller's bots, newest first, 10 by default", async () => {
    const bots = await list(alice);
    assert.deepEqual(idsOf(bots), [ids.off, ids.eth, ids.btc]);
    assert.deepEqual(Object.keys(bots[0]!).sort(), [...ENTITY_FIELDS].sort());
    assert.equal((await list(bob)).length, 1);
  });

  it('filters by account (account_ids[] or a comma list in account_id), state, base, quote and creation date', async () => {
    assert.deepEqual(idsOf(await list(alice, `?account_ids[]=${second.accountId}`)), [ids.eth]);
    assert.deepEqual(idsOf(await list(alice, `?account_id=${alice.accountId},${second.accountId}`)), [ids.off, ids.eth, ids.btc]);
    assert.deepEqual(idsOf(await list(alice, `?account_id=${bob.accountId}`)), []);
    assert.deepEqual(idsOf(await list(alice, '?state=enabled')), [ids.eth, ids.btc]);
    assert.deepEqual(idsOf(await list(alice, '?state=disabled')), [ids.off]);
    assert.deepEqual(idsOf(await list(alice, '?base=ETH')), [ids.eth]);
    assert.deepEqual(idsOf(await list(alice, '?quote=usdt&base=btc')), [ids.off, ids.btc]);
    assert.deepEqual(idsOf(await list(alice, '?from=2000-01-01')), [ids.off, ids.eth, ids.btc]);
    assert.deepEqual(idsOf(await list(alice, '?from=2999-01-01T00:00:00Z')), []);
  });

  it('sorts by each of the seven fields in either direction and pages with limit and offset', async () => {
    assert.deepEqual(idsOf(await list(alice, '?sort_by=bot_id&sort_direction=asc')), [ids.btc, ids.eth, ids.off]);
    assert.deepEqual(idsOf(await list(alice, '?sort_by=name&sort_direction=ASC')), [ids.eth, ids.btc, ids.off]);
    assert.deepEqual(idsOf(await list(alice, '?sort_by=name')), [ids.off, ids.btc, ids.eth]);
    assert.deepEqual(idsOf(await list(alice, '?sort_by=pair&sort_direction=asc')), [ids.btc, ids.off, ids.eth]);
    assert.deepEqual(idsOf(await list(alice, '?sort_by=created_at&sort_direction=asc')), [ids.btc, ids.eth, ids.off]);
    assert.deepEqual(idsOf(await list(alice, '?sort_by=updated_at')), [ids.off, ids.eth, ids.btc]);
    // No profits yet: equal profits keep the id order.
    assert.deepEqual(idsOf(await list(alice, '?sort_by=current_profit&sort_direction=asc')), [ids.btc, ids.eth, ids.off]);
    assert.deepEqual(idsOf(await list(alice, '?sort_by=profit')), [ids.off, ids.eth, ids.btc]);
    assert.deepEqual(idsOf(await list(alice, '?sort_by=bot_id&sort_direction=asc&limit=1&offset=1')), [ids.eth]);
    assert.deepEqual(idsOf(await list(alice, '?limit=2')), [ids.off, ids.eth]);
  });

  it('refuses out-of-range paging, unknown sort fields and states, and unreadable dates', async () => {
    const get = (query: string) => t.request({ path: `/ver1/grid_bots${query}`, credentials: alice.credentials });
    assertRecordInvalid(await get('?limit=0'), { limit: ['must be greater than or equal to 1'] });
    assertRecordInvalid(await get('?limit=1001&offset=-1'), { limit: ['must be less than or equal to 1000'], offset: ['must be greater than or equal to 0'] });
    assertRecordInvalid(await get('?sort_by=profit_usd&sort_direction=up&state=on'), {
      sort_by: ['does not have a valid value'],
      sort_direction: ['does not have a valid value'],
      state: ['does not have a valid value'],
    });
    assertRecordInvalid(await get('?account_id=1;2'), { account_id: ['is invalid'] });
    assertRecordInvalid(await get('?from=2024-02-30'), { from: ['is invalid'] });
  });

  it('answers the bots of real accounts only in real mode', async () => {
    const real = await t.request({ path: '/ver1/grid_bots', credentials: alice.credentials, headers: { 'Forced-Mode': 'real' } });
    assert.equal(real.status, 200, real.text);
    assert.deepEqual(real.body, []);
  });
});

describe('GET /ver1/grid_bots/:id', () => {
  it("answers the bot, 404 for an unknown id and 403 for another user's bot", async () => {
    const owner = await newUser(t);
    const stranger = await newUser(t);
    const bot = await startGrid(t, owner, GRID);
    const shown = await getJson(t, owner, `/ver1/grid_bots/${bot.id}`);
    assert.deepEqual({ ...shown, updated_at: bot.updated_at }, bot);
    assertError(await t.request({ path: '/ver1/grid_bots/999999', credentials: owner.credentials }), 404, {
      error: 'not_found',
      error_description: 'Not Found',
    });
    assertError(await t.request({ path: `/ver1/grid_bots/${bot.id}`, credentials: stranger.credentials }), 403, {
      error: 'Forbidden',
      error_description: 'Account not owned by current user.',
    });
    assertError(await t.request({ path: '/ver1/grid_bots/abc', credentials: owner.credentials }), 404, {
      error: 'not_found',
      error_description: 'Not Found',
    });
  });
});
