/**
 * Stop losses, trailing and expansion on the paper exchange through the real app, driven by posted
 * ticks. Paper fees are 0.1 %; market orders fill at the touch (no slippage). Every grid here is
 * 58000-62000 in 5 lines of 1000 with 100 USDT per line, started at 60000 on a fresh account of
 * 10000 USDT and 0.1 BTC.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newUser, setPrices } from '../support/api.ts';
import { accountTotals, gridMessages, gridOrders, type GridUser, lineTable, openOrders, showGrid, startGrid, FIVE_LINES } from '../support/grid-bots.ts';
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

async function gridAt60000(settings: Record<string, unknown>): Promise<{ user: GridUser; id: number }> {
  const user = await newUser(t);
  await btc('60000');
  const { id } = await startGrid(t, user, { ...FIVE_LINES, ...settings });
  return { user, id };
}

describe('stop losses', () => {
  it('lower stop loss with stop_bot_and_sell cancels the orders and sells the base the sell lines hold', async () => {
    const { user, id } = await gridAt60000({ lower_stop_loss_enabled: true, lower_stop_loss_price: '57500', lower_stop_loss_action: 'stop_bot_and_sell' });
    await btc('58900');
    await btc('57900'); // both buys filled: four sell lines hold 0.00172 + 0.00168 + 0.00163 + 0.00161 BTC
    await btc('57400');
    const bot = await showGrid(t, user, id);
    assert.equal(bot.is_enabled, false);
    assert.deepEqual(lineTable(bot), ['62000.0 -', '61000.0 -', '60000.0 -', '59000.0 -', '58000.0 -']);
    assert.deepEqual(await openOrders(t, user.accountId), []);
    assert.deepEqual((await gridMessages(t, user, id)).slice(-5), [
      'Lower stop loss triggered, Stop price: 57500.0 USDT, Current price: 57400.0 USDT.',
      'Cancelling 4 open orders',
      // with the 0.00000659 BTC the buys' fees left over below the lot step
      'Creating MARKET SELL order, Size: 381.136 USDT (0.00664 BTC), Current price: 57400.0 USDT.',
      'MARKET SELL order filled, Price: 57400.0 USDT, Size: 381.136 USDT (0.00664 BTC).',
      'Bot is turned off',
    ]);
    // USDT: −99.71 − 99.76 + 381.136 − 0.381136; BTC: +0.00169 + 0.00172 less their fees, − 0.00664.
    assert.deepEqual(await accountTotals(t, user.accountId), { BTC: '0.09676659', ETH: '2', USDT: '10181.284864' });
  });

  it('upper stop loss with stop_bot_and_buy cancels the orders and spends the quote the buy lines hold', async () => {
    const { user, id } = await gridAt60000({ upper_stop_loss_enabled: true, upper_stop_loss_price: '63000', upper_stop_loss_action: 'stop_bot_and_buy' });
    await btc('61500');
    await btc('62100'); // both sells filled: four buy lines hold 99.76 + 99.71 + 99.6 + 99.43 USDT
    await btc('63100');
    assert.equal((await showGrid(t, user, id)).is_enabled, false);
    assert.deepEqual(await openOrders(t, user.accountId), []);
    assert.deepEqual((await gridMessages(t, user, id)).slice(-5), [
      'Upper stop loss triggered, Stop price: 63000.0 USDT, Current price: 63100.0 USDT.',
      'Cancelling 4 open orders',
      // floor(398.5 / 63100) on the lot step
      'Creating MARKET BUY order, Size: 398.161 USDT (0.00631 BTC), Current price: 63100.0 USDT.',
      'MARKET BUY order filled, Price: 63100.0 USDT, Size: 398.161 USDT (0.00631 BTC).',
      'Bot is turned off',
    ]);
    assert.deepEqual(await accountTotals(t, user.accountId), { BTC: '0.10306369', ETH: '2', USDT: '9800.88975' });
  });

  it('stop_bot only cancels; fills the same move caused on the venue count before it stops', async () => {
    const { user, id } = await gridAt60000({ upper_stop_loss_enabled: true, upper_stop_loss_price: '63000' });
    await btc('63100'); // the move reaches the stop price and, on the venue, fills both sells on its way
    const bot = await showGrid(t, user, id);
    assert.equal(bot.is_enabled, false);
    assert.deepEqual(await openOrders(t, user.accountId), []);
    assert.deepEqual((await gridMessages(t, user, id)).slice(-5), [
      'Upper stop loss triggered, Stop price: 63000.0 USDT, Current price: 63100.0 USDT.',
      'Cancelling 4 open orders',
      'LIMIT SELL order filled, Price: 61000.0 USDT, Size: 99.43 USDT (0.00163 BTC).',
      'LIMIT SELL order filled, Price: 62000.0 USDT, Size: 99.82 USDT (0.00161 BTC).',
      'Bot is turned off',
    ]);
    assert.equal(bot.sold_volume, '199.25');
    assert.deepEqual(await gridOrders(t, user, id), [
      'BUY 59000.0 0.00169 Cancelled',
      'SELL 61000.0 0.00163 Filled',
      'BUY 58000.0 0.00172 Cancelled',
      'SELL 62000.0 0.00161 Filled',
    ]);
  });
});

describe('trailing and expansion', () => {
  it('trailing up moves the grid one line per step above the top, the lowest buy paying for the new one', async () => {
    const { user, id } = await gridAt60000({ trailing_up_enabled: true, lower_stop_loss_enabled: true, lower_stop_loss_price: '57000' });
    await btc('62100'); // both sells fill: the top line waits
    assert.deepEqual(lineTable(await showGrid(t, user, id)), ['62000.0 -', '61000.0 buy placed', '60000.0 buy placed', '59000.0 buy placed', '58000.0 buy placed']);
    await btc('63000'); // one step above the top
    let bot = await showGrid(t, user, id);
    assert.deepEqual(lineTable(bot), ['63000.0 -', '62000.0 buy placed', '61000.0 buy placed', '60000.0 buy placed', '59000.0 buy placed']);
    assert.equal(bot.lower_stop_loss_price, '58000.0');
    assert.deepEqual((await gridMessages(t, user, id)).slice(-4), [
      'Cancelling LIMIT BUY order, Price: 58000.0 USDT, Size: 99.76 USDT (0.00172 BTC).',
      'Trailing up: the grid moved to 59000.0 USDT - 63000.0 USDT.',
      'Lower stop loss moved to 58000.0 USDT.',
      'Creating LIMIT BUY order, Price: 62000.0 USDT, Size: 99.82 USDT (0.00161 BTC), Current price: 63000.0 USDT.',
    ]);
    await btc('64500'); // one more step (65000 is not reached)
    bot = await showGrid(t, user, id);
    assert.deepEqual(lineTable(bot), ['64000.0 -', '63000.0 buy placed', '62000.0 buy placed', '61000.0 buy placed', '60000.0 buy placed']);
    assert.equal(bot.lower_stop_loss_price, '59000.0');
    // The entity shows where the grid is now, its stop loss below its lower price.
    assert.deepEqual([bot.lower_price, bot.upper_price, bot.grids_quantity], ['60000.0', '64000.0', '5']);
    assert.deepEqual(await openOrders(t, user.accountId), ['buy 60000 0.00166', 'buy 61000 0.00163', 'buy 62000 0.00161', 'buy 63000 0.00158']);
    // The move back down trades on the moved grid: the buy at 63000 fills and sells one line up.
    await btc('62900');
    assert.deepEqual(await openOrders(t, user.accountId), ['buy 60000 0.00166', 'buy 61000 0.00163', 'buy 62000 0.00161', 'sell 64000 0.00157']);
  });

  it('trailing down adds a buy line one step below the lowest line once the price is past it', async () => {
    const { user, id } = await gridAt60000({ trailing_down_enabled: true });
    await btc('58900');
    await btc('57900'); // the lowest buy fills, and the price is already past its line: a buy goes one line lower
    assert.deepEqual(lineTable(await showGrid(t, user, id)), [
      '62000.0 sell placed', '61000.0 sell placed', '60000.0 sell placed', '59000.0 sell placed', '58000.0 -', '57000.0 buy placed',
    ]);
    await btc('56800'); // the buy at 57000 fills at its price, its sell goes on 58000, and the next buy on 56000
    const bot = await showGrid(t, user, id);
    assert.deepEqual(lineTable(bot), [
      '62000.0 sell placed', '61000.0 sell placed', '60000.0 sell placed', '59000.0 sell placed', '58000.0 sell placed', '57000.0 -',
      '56000.0 buy placed',
    ]);
    // The entity shows the grid as it stands: seven lines from 56000 to 62000.
    assert.deepEqual([bot.lower_price, bot.upper_price, bot.grids_quantity, bot.grid_price_step], ['56000.0', '62000.0', '7', '1000.0']);
    assert.deepEqual(await openOrders(t, user.accountId), [
      'buy 56000 0.00178', 'sell 58000 0.00175', 'sell 59000 0.00172', 'sell 60000 0.00168', 'sell 61000 0.00163', 'sell 62000 0.00161',
    ]);
    const messages = await gridMessages(t, user, id);
    assert.ok(messages.includes('Grid expanded down: new buy line at 57000.0 USDT.'));
    assert.ok(messages.includes('LIMIT BUY order filled, Price: 57000.0 USDT, Size: 99.75 USDT (0.00175 BTC).'));
    assert.ok(messages.includes('Grid expanded down: new buy line at 56000.0 USDT.'));
  });

  it('expansion down stops at its stop price', async () => {
    const { user, id } = await gridAt60000({ expansion_down_enabled: true, expansion_down_stop_price: '56500' });
    await btc('58900');
    await btc('57900');
    await btc('56900'); // adds a buy at 57000, which fills at once
    await btc('55000'); // the next line, 56000, would be below the stop price
    const bot = await showGrid(t, user, id);
    assert.deepEqual(lineTable(bot), [
      '62000.0 sell placed', '61000.0 sell placed', '60000.0 sell placed', '59000.0 sell placed', '58000.0 sell placed', '57000.0 -',
    ]);
    const messages = await gridMessages(t, user, id);
    assert.equal(messages.filter((message) => message.startsWith('Grid expanded down')).length, 1);
    assert.ok(messages.includes('Expansion down stopped: the stop price is reached'));
  });

  it('expansion up adds sell lines above the range up to its stop price', async () => {
    const { user, id } = await gridAt60000({ expansion_up_enabled: true, expansion_up_stop_price: '63500' });
    await btc('62100'); // both sells fill; the price is past the top line: a sell line at 63000, on the account's spare base
    assert.deepEqual(lineTable(await showGrid(t, user, id)), [
      '63000.0 sell placed', '62000.0 -', '61000.0 buy placed', '60000.0 buy placed', '59000.0 buy placed', '58000.0 buy placed',
    ]);
    await btc('63200'); // it fills at its price, a buy returns to 62000; 64000 would be above the stop price
    await btc('63300');
    const bot = await showGrid(t, user, id);
    assert.deepEqual(lineTable(bot), [
      '63000.0 -', '62000.0 buy placed', '61000.0 buy placed', '60000.0 buy placed', '59000.0 buy placed', '58000.0 buy placed',
    ]);
    assert.deepEqual([bot.lower_price, bot.upper_price, bot.grids_quantity], ['58000.0', '63000.0', '6']);
    const messages = await gridMessages(t, user, id);
    assert.ok(messages.includes('Grid expanded up: new sell line at 63000.0 USDT.'));
    assert.ok(messages.includes('LIMIT SELL order filled, Price: 63000.0 USDT, Size: 99.54 USDT (0.00158 BTC).'));
    assert.ok(messages.includes('Expansion up stopped: the stop price is reached'));
    assert.deepEqual((await gridOrders(t, user, id)).filter((order) => order.startsWith('SELL 63000')), ['SELL 63000.0 0.00158 Filled']);
  });

  it('expansion up adds no line the bot has no base for', async () => {
    const user = await newUser(t);
    await btc('60000');
    // Two sell lines of 0.06 BTC need more than the account's 0.1 BTC: balancing buys what is missing, and no base is left over.
    const { id } = await startGrid(t, user, {
      ...FIVE_LINES, quantity_per_grid: '0.06', order_currency_type: 'base', expansion_up_enabled: true, expansion_up_stop_price: '65000',
    });
    await btc('62100');
    const bot = await showGrid(t, user, id);
    assert.deepEqual(lineTable(bot), ['62000.0 -', '61000.0 buy placed', '60000.0 buy placed', '59000.0 buy placed', '58000.0 buy placed']);
    assert.equal(bot.error, null);
    assert.ok((await gridMessages(t, user, id)).includes('Expansion up stopped: not enough BTC'));
  });
});
