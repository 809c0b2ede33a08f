/**
 * Moves that jump several grid lines in one tick, on the paper exchange through the real app: the
 * bot ends as it would had the move come in many ticks. The paper exchange announces a tick before
 * the fills it causes, so these paths check that stop losses, trailing and growth act on the
 * tick's fills. Paper fees are 0.1 %; market orders fill at the touch (no slippage).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newUser, postJson, setPrices } from '../support/api.ts';
import { accountTotals, createGrid, getJson, gridMessages, gridOrders, lineTable, openOrders, showGrid, startGrid, FIVE_LINES } from '../support/grid-bots.ts';
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

/** 61000-69000 in 9 lines of 1000, 100 USDT a line: at 65300 four buys below 65000 and four sells above. */
const NINE_LINES = { upper_price: '69000', lower_price: '61000', grids_quantity: 9, quantity_per_grid: '100', order_currency_type: 'quote' };

/** A fresh account's bot started at `start`, walked through `path`; what it did, as the API shows it. */
async function walk(settings: Record<string, unknown>, start: string, path: string[]) {
  const user = await newUser(t);
  await btc(start);
  const { id } = await startGrid(t, user, settings);
  for (const price of path) await btc(price);
  const bot = await showGrid(t, user, id);
  const profits = await getJson(t, user, `/ver1/grid_bots/${id}/profits`);
  return {
    lines: lineTable(bot),
    range: [bot.lower_price, bot.upper_price, bot.grids_quantity, bot.lower_stop_loss_price],
    enabled: bot.is_enabled,
    orders: await gridOrders(t, user, id),
    open: await openOrders(t, user.accountId),
    profits: profits.map((row: { profit: string }) => row.profit).sort(),
    totals: await accountTotals(t, user.accountId),
    messages: await gridMessages(t, user, id),
  };
}

describe('stop losses in a gap', () => {
  it('stop_bot_and_sell sells the base of the buys the same tick filled, as two ticks would', async () => {
    const settings = { ...NINE_LINES, lower_stop_loss_enabled: true, lower_stop_loss_price: '60000', lower_stop_loss_action: 'stop_bot_and_sell' };
    const oneTick = await walk(settings, '65300', ['59900']);
    const twoTicks = await walk(settings, '65300', ['62500', '59900']);
    // The base of the four sells of the start (0.00151 + 0.00149 + 0.00147 + 0.00144 BTC) and of the
    // four buys net of their fees (0.00155 + 0.00158 + 0.00161 + 0.00163, 0.00000362 left over).
    assert.ok(oneTick.messages.includes('Creating MARKET SELL order, Size: 735.572 USDT (0.01228 BTC), Current price: 59900.0 USDT.'));
    assert.deepEqual(oneTick.orders.filter((order) => order.startsWith('SELL 59900')), ['SELL 59900.0 0.01228 Filled']);
    assert.equal(oneTick.enabled, false);
    assert.deepEqual(oneTick.open, []);
    assert.deepEqual([oneTick.totals, oneTick.profits, oneTick.orders.at(-1)], [twoTicks.totals, twoTicks.profits, twoTicks.orders.at(-1)]);
  });

  it('stop_bot_and_buy spends the quote of the sells the same tick filled, as two ticks would', async () => {
    const settings = { ...NINE_LINES, upper_stop_loss_enabled: true, upper_stop_loss_price: '70000', upper_stop_loss_action: 'stop_bot_and_buy' };
    const oneTick = await walk(settings, '65300', ['70100']);
    const twoTicks = await walk(settings, '65300', ['67500', '70100']);
    // The quote of eight buy lines: the four of the start (398.63 USDT) and the four the sells left on
    // 65000-68000 (398.9 USDT), at 70100.
    assert.deepEqual(oneTick.orders.filter((order) => order.startsWith('BUY 70100')), ['BUY 70100.0 0.01137 Filled']);
    assert.equal(oneTick.enabled, false);
    assert.deepEqual([oneTick.totals, oneTick.profits, oneTick.orders.at(-1)], [twoTicks.totals, twoTicks.profits, twoTicks.orders.at(-1)]);
  });
});

describe('trailing and growth in a gap', () => {
  it('trailing up moves the grid as many lines as the price passed, after the sells the tick filled', async () => {
    const settings = { ...FIVE_LINES, trailing_up_enabled: true, lower_stop_loss_enabled: true, lower_stop_loss_price: '57000' };
    const oneTick = await walk(settings, '60000', ['64500']);
    const manyTicks = await walk(settings, '60000', ['61500', '62100', '63000', '64500']);
    assert.deepEqual(oneTick.lines, ['64000.0 -', '63000.0 buy placed', '62000.0 buy placed', '61000.0 buy placed', '60000.0 buy placed']);
    assert.deepEqual(oneTick.range, ['60000.0', '64000.0', '5', '59000.0']);
    assert.deepEqual(oneTick.open, ['buy 60000 0.00166', 'buy 61000 0.00163', 'buy 62000 0.00161', 'buy 63000 0.00158']);
    assert.deepEqual(
      [oneTick.lines, oneTick.range, oneTick.open, oneTick.totals],
      [manyTicks.lines, manyTicks.range, manyTicks.open, manyTicks.totals],
    );
  });

  it('trailing down grows one line per line the price passed; the lines it passed fill at once', async () => {
    const settings = { ...FIVE_LINES, trailing_down_enabled: true };
    const oneTick = await walk(settings, '60000', ['56800']);
    const manyTicks = await walk(settings, '60000', ['58900', '57900', '56800']);
    assert.deepEqual(oneTick.lines, [
      '62000.0 sell placed', '61000.0 sell placed', '60000.0 sell placed', '59000.0 sell placed', '58000.0 sell placed', '57000.0 -',
      '56000.0 buy placed',
    ]);
    assert.deepEqual([oneTick.lines, oneTick.range, oneTick.open], [manyTicks.lines, manyTicks.range, manyTicks.open]);
    // The gap passed 57000 before the line existed: its buy filled at the price the market was at.
    assert.ok(oneTick.messages.includes('LIMIT BUY order filled, Price: 56800.0 USDT, Size: 99.4 USDT (0.00175 BTC).'));
    assert.ok(manyTicks.messages.includes('LIMIT BUY order filled, Price: 57000.0 USDT, Size: 99.75 USDT (0.00175 BTC).'));
  });
});

describe('a grid that cannot trade', () => {
  it('says so in its create answer: every order refused turns it off with the reason', async () => {
    const user = await newUser(t);
    await btc('60000');
    // Buy lines at a tenth of the price are outside the market's price band.
    const response = await createGrid(t, user, { upper_price: '6000', lower_price: '5000', grids_quantity: 3, quantity_per_grid: '0.01' });
    assert.equal(response.status, 201, response.text);
    const bot = response.body;
    assert.deepEqual([bot.is_enabled, bot.status], [false, 'disabled']);
    assert.equal(bot.error, 'LIMIT BUY order at 5000.0 USDT was not placed: price is too far from the current market price');
    assert.deepEqual(lineTable(bot), ['6000.0 -', '5500.0 -', '5000.0 -']);
    assert.ok((await gridMessages(t, user, bot.id)).includes('The exchange refused every order of the bot: it cannot trade and is turned off'));
    const enabled = await postJson(t, `/ver1/grid_bots/${bot.id}/enable`, {}, user.credentials);
    assert.equal(enabled.status, 201, enabled.text);
    assert.deepEqual([enabled.body.is_enabled, enabled.body.error], [false, bot.error]);
  });

  it('shows the reason while it runs with some orders refused', async () => {
    const user = await newUser(t);
    await btc('60000');
    // The account's 10000 USDT pays for the 59000 buy only; ignore_warnings skips the funds check.
    const { id, error, is_enabled } = await startGrid(t, user, { ...FIVE_LINES, quantity_per_grid: '6000', ignore_warnings: true });
    assert.equal(is_enabled, true);
    assert.match(error, /^LIMIT (BUY|SELL) order at \d+\.0 USDT was not placed: /);
    assert.equal((await showGrid(t, user, id)).status, 'running');
  });
});
