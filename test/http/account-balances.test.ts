import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dec } from '../../src/shared/decimal.ts';
import { assertError, assertRecordInvalid, newUser, setPrices } from '../support/api.ts';
import type { Credentials } from '../support/signing.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
let admin: Credentials;
before(async () => {
  t = await startTestApp();
  admin = await t.createKey({ user: 'operator', permissions: ['ADMIN'] });
});
after(() => t.close());

const post = (credentials: Credentials, path: string) => t.request({ method: 'POST', path, credentials });
const get = (credentials: Credentials, path: string) => t.request({ path, credentials });
const NOT_OWNED = { error: 'Forbidden', error_description: 'Account not owned by current user.' };

const row = (code: string, amounts: Record<string, number>, accountId: number) => ({
  currency_code: code, currency_name: code, currency_icon: '', currency_slug: code.toLowerCase(), percentage: amounts.percentage,
  position: amounts.position, position_available: amounts.free, position_type: 'long', borrowed: 0, on_orders: amounts.locked,
  on_orders_with_leverage: 0, on_orders_long: amounts.locked, on_orders_short: 0, equity: amounts.position,
  current_price: amounts.btcPrice, current_price_usd: amounts.usdPrice, day_change_percent: 0, day_change_percent_btc: 0,
  day_change_percent_usd: 0, btc_value: amounts.btc, usd_value: amounts.usd, available_long: amounts.free, available_short: 0,
  available_with_leverage_long: amounts.free, available_with_leverage_short: 0, account_id: accountId, is_wallet: false,
});

describe('POST /ver1/accounts/:id/account_table_data and pie_chart_data', () => {
  it('gives each currency’s amounts, prices (BTC and USD) and values as numbers', async () => {
    const { credentials, accountId } = await newUser(t);
    await setPrices(t, admin, { USDT_BTC: '60000', USDT_ETH: '3000' });
    const table = await post(credentials, `/ver1/accounts/${accountId}/account_table_data`);
    assert.equal(table.status, 201, table.text);
    assert.deepEqual(table.body, [
      row('BTC', { percentage: 27.27, position: 0.1, free: 0.1, locked: 0, btcPrice: 1, usdPrice: 60000, btc: 0.1, usd: 6000 }, accountId),
      row('ETH', { percentage: 27.27, position: 2, free: 2, locked: 0, btcPrice: 0.05, usdPrice: 3000, btc: 0.1, usd: 6000 }, accountId),
      row('USDT', { percentage: 45.45, position: 10000, free: 10000, locked: 0, btcPrice: 0.00001667, usdPrice: 1, btc: 0.16666667, usd: 10000 }, accountId),
    ]);
  });

  it('gives each currency’s share of the value, the shares adding up to 100', async () => {
    const { credentials, accountId } = await newUser(t);
    await setPrices(t, admin, { USDT_BTC: '60000', USDT_ETH: '3000' });
    const pie = await post(credentials, `/ver1/accounts/${accountId}/pie_chart_data`);
    assert.equal(pie.status, 201, pie.text);
    const slice = (code: string, share: number, amount: number, btc: string, usd: string) => ({
      code, coinmarketcapid: null, name: code, y: share, percentage: share, amount, btc_value: btc, usd_value: usd,
      primary_display_currency: { currency: 'USD', amount: usd }, account_id: accountId,
    });
    assert.deepEqual(pie.body, [
      slice('BTC', 27.27, 0.1, '0.1', '6000'),
      slice('ETH', 27.27, 2, '0.1', '6000'),
      slice('USDT', 45.45, 10000, '0.16666667', '10000'),
    ]);
    const total = pie.body.reduce((sum: number, entry: { percentage: number }) => sum + entry.percentage, 0);
    assert.ok(Math.abs(total - 100) <= 0.02, String(total));
  });

  it('refuses another user’s account', async () => {
    const { accountId } = await newUser(t);
    const other = await newUser(t);
    for (const path of ['account_table_data', 'pie_chart_data', 'load_balances']) {
      assertError(await post(other.credentials, `/ver1/accounts/${accountId}/${path}`), 403, NOT_OWNED);
    }
  });
});

describe('POST /ver1/accounts/:id/load_balances', () => {
  it('answers the account with its current balances', async () => {
    const { credentials, accountId } = await newUser(t);
    await setPrices(t, admin, { USDT_BTC: '60000', USDT_ETH: '3000' });
    const loaded = await post(credentials, `/ver1/accounts/${accountId}/load_balances`);
    assert.equal(loaded.status, 201, loaded.text);
    assert.deepEqual([loaded.body.id, loaded.body.usd_amount], [accountId, '22000']);
    assert.deepEqual(loaded.body, (await get(credentials, `/ver1/accounts/${accountId}`)).body);
  });
});

describe('GET /ver1/accounts/:id/active_trading_entities and POST /ver1/accounts/:id/remove', () => {
  it('counts open paper orders, shows their locked funds, and refuses removal while one is open', async () => {
    const { credentials, accountId } = await newUser(t);
    await setPrices(t, admin, { USDT_BTC: '60000', USDT_ETH: '3000' });
    // Orders are placed here as the engine would: on PostgreSQL, by the engine holding the account.
    await t.core.engine.holdAccount(accountId);
    const exchange = await t.core.paper.exchange(accountId);
    await exchange.placeOrder({ clientOrderId: 'rest', pair: 'USDT_BTC', side: 'buy', type: 'limit', amount: dec('0.01'), price: dec('59000') });

    const active = await get(credentials, `/ver1/accounts/${accountId}/active_trading_entities`);
    assert.equal(active.status, 200, active.text);
    assert.deepEqual(active.body, {
      data: { active_bots_count: 0, active_deals_count: 0, active_smart_trades_count: 0, active_orders_count: 1, active_grid_bots_count: 0 },
    });
    const table = (await post(credentials, `/ver1/accounts/${accountId}/account_table_data`)).body;
    const usdt = table.find((entry: { currency_code: string }) => entry.currency_code === 'USDT');
    assert.deepEqual([usdt.position, usdt.position_available, usdt.on_orders], [10000, 9410, 590]);

    assertError(await post(credentials, `/ver1/accounts/${accountId}/remove`), 422, {
      error: 'account_not_deletable',
      error_description: 'There are active trading deals on this exchange. Close all trading operations and try again',
    });
    await exchange.cancelOrder('USDT_BTC', 'rest');
    assert.equal((await get(credentials, `/ver1/accounts/${accountId}/active_trading_entities`)).body.data.active_orders_count, 0);

    const removed = await post(credentials, `/ver1/accounts/${accountId}/remove`);
    assert.deepEqual([removed.status, removed.body], [201, true]);
    assertError(await get(credentials, `/ver1/accounts/${accountId}`), 404, { error: 'not_found', error_description: 'Not Found' });
    assert.deepEqual((await get(credentials, '/ver1/accounts')).body, []);
    assertError(await post(credentials, `/ver1/accounts/${accountId}/remove`), 404, { error: 'not_found', error_description: 'Not Found' });
  });

  it('refuses another user’s account', async () => {
    const { accountId } = await newUser(t);
    const other = await newUser(t);
    assertError(await get(other.credentials, `/ver1/accounts/${accountId}/active_trading_entities`), 403, NOT_OWNED);
    assertError(await post(other.credentials, `/ver1/accounts/${accountId}/remove`), 403, NOT_OWNED);
  });
});

describe('GET /ver1/accounts/:id/balance_chart_data and the profit figures', () => {
  const isoDay = (date: Date) => date.toISOString().slice(0, 10);
  const point = (day: string, usd: number, btc: number) => ({
    date: Date.parse(`${day}T00:00:00Z`) / 1000, usd, btc, btc_deposit_amount: 0, usd_deposit_amount: 0,
  });
  const chart = (credentials: Credentials, accountId: number, query: string) =>
    get(credentials, `/ver1/accounts/${accountId}/balance_chart_data?${query}`);

  it('keeps one point per day, recorded when the account is looked at, and measures profits from them', async () => {
    const { credentials, accountId } = await newUser(t);
    await setPrices(t, admin, { USDT_BTC: '60000', USDT_ETH: '3000' });
    // Earlier days cannot be reached through the API, so their values are stored directly.
    const now = new Date();
    const lastMonthEnd = isoDay(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0)));
    const yesterday = isoDay(new Date(now.getTime() - 86_400_000));
    const firstOfMonth = yesterday === lastMonthEnd;
    await t.core.accounts.recordBalance(accountId, '2020-01-15', '11000', '0.3');
    await t.core.accounts.recordBalance(accountId, lastMonthEnd, '20000', '0.4');
    if (!firstOfMonth) await t.core.accounts.recordBalance(accountId, yesterday, '21000', '0.35');

    const entity = (await get(credentials, `/ver1/accounts/${accountId}`)).body;
    // Now 22 000 USD and 0.36666667 BTC: total from the first day, month from the end of last month.
    assert.deepEqual(
      [entity.total_usd_profit, entity.total_btc_profit, entity.total_primary_display_currency_profit],
      ['11000', '0.06666667', { currency: 'USD', amount: 11000 }],
    );
    assert.deepEqual(
      [entity.usd_profit, entity.usd_profit_percentage, entity.btc_profit, entity.btc_profit_percentage],
      ['2000', '10', '-0.03333333', '-8.33'],
    );
    assert.deepEqual(
      [entity.primary_display_currency_profit, entity.primary_display_currency_profit_percentage],
      [{ currency: 'USD', amount: '2000' }, { currency: 'USD', amount: '10' }],
    );
    // On the first of a month the day also starts from the end of last month.
    const day = firstOfMonth ? ['2000', '10', '-0.03333333', '-8.33'] : ['1000', '4.76', '0.01666667', '4.76'];
    assert.deepEqual([entity.day_profit_usd, entity.day_profit_usd_percentage, entity.day_profit_btc, entity.day_profit_btc_percentage], day);
    assert.deepEqual(entity.day_profit_primary_display_currency, { currency: 'USD', amount: day[0] });

    const today = isoDay(new Date());
    const earlier = [point('2020-01-15', 11000, 0.3), point(lastMonthEnd, 20000, 0.4), ...(firstOfMonth ? [] : [point(yesterday, 21000, 0.35)])];
    const all = await chart(credentials, accountId, 'date_from=2020-01-01');
    assert.equal(all.status, 200, all.text);
    assert.deepEqual(all.body, [...earlier, point(today, 22000, 0.36666667)]);

    await setPrices(t, admin, { USDT_BTC: '61000' });
    await get(credentials, `/ver1/accounts/${accountId}`);
    assert.deepEqual((await chart(credentials, accountId, 'date_from=2020-01-01')).body, [...earlier, point(today, 22100, 0.36229508)]);
  });

  it('selects days from date_from to date_to, given as ISO dates, date-times or Unix seconds', async () => {
    const { credentials, accountId } = await newUser(t);
    for (const [day, usd] of [['2020-01-15', '100'], ['2020-01-16', '110'], ['2020-02-01', '120']] as const) {
      await t.core.accounts.recordBalance(accountId, day, usd, '0.01');
    }
    const days = async (query: string) => {
      const response = await chart(credentials, accountId, query);
      assert.equal(response.status, 200, response.text);
      return response.body.map((entry: { date: number }) => isoDay(new Date(entry.date * 1000)));
    };
    assert.deepEqual(await days('date_from=2020-01-16&date_to=2020-01-31'), ['2020-01-16']);
    assert.deepEqual(await days('date_from=2020-01-15T18:58:55.469Z&date_to=2020-01-16'), ['2020-01-15', '2020-01-16']);
    // 01:00 at +02:00 is still the 15th in UTC.
    assert.deepEqual(await days('date_from=2020-01-16T01:00:00%2B02:00&date_to=2020-01-15'), ['2020-01-15']);
    // Looking the account up (newUser does) recorded today as well.
    assert.deepEqual(await days(`date_from=${Date.UTC(2020, 1, 1) / 1000}`), ['2020-02-01', isoDay(new Date())]);
  });

  it('requires a valid date_from and a valid date_to if given', async () => {
    const { credentials, accountId } = await newUser(t);
    const other = await newUser(t);
    assertRecordInvalid(await chart(credentials, accountId, ''), { date_from: ['is missing'] });
    for (const invalid of ['yesterday', '2024-02-30', '2024-01-01%20junk', '2024-1-5', '2024-01-01T25:00:00Z']) {
      assertRecordInvalid(await chart(credentials, accountId, `date_from=${invalid}`), { date_from: ['is invalid'] });
    }
    assertRecordInvalid(await chart(credentials, accountId, 'date_from=2024-01-01&date_to=2024-13-01'), { date_to: ['is invalid'] });
    assertError(await chart(other.credentials, accountId, 'date_from=2024-01-01'), 403, NOT_OWNED);
  });
});
