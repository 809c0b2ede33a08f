import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, assertRecordInvalid, newUser, postJson, setPrices } from '../support/api.ts';
import type { Credentials } from '../support/signing.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
let admin: Credentials;
before(async () => {
  t = await startTestApp();
  admin = await t.createKey({ user: 'operator', permissions: ['ADMIN'] });
});
after(() => t.close());

const ACCOUNT_FIELDS = [
  'id', 'auto_balance_period', 'auto_balance_portfolio_id', 'auto_balance_portfolio', 'auto_balance_currency_change_limit',
  'autobalance_enabled', 'hedge_mode_available', 'hedge_mode_enabled', 'is_locked', 'smart_trading_supported',
  'smart_selling_supported', 'available_for_trading', 'stats_supported', 'trading_supported', 'market_buy_supported',
  'market_sell_supported', 'conditional_buy_supported', 'bots_allowed', 'bots_ttp_allowed', 'bots_tsl_allowed',
  'gordon_bots_available', 'multi_bots_allowed', 'created_at', 'updated_at', 'last_auto_balance', 'fast_convert_available',
  'grid_bots_allowed', 'api_key_invalid', 'market_icon', 'deposit_enabled', 'include_in_summary', 'supported_market_types',
  'primary_display_currency_profit_percentage', 'primary_display_currency_profit', 'day_profit_primary_display_currency_percentage',
  'day_profit_primary_display_currency', 'primary_display_currency_amount', 'total_primary_display_currency_profit',
  'available_include_in_summary', 'name', 'auto_balance_method', 'auto_balance_error', 'customer_id', 'subaccount_name',
  'lock_reason', 'btc_amount', 'usd_amount', 'day_profit_btc', 'day_profit_usd', 'day_profit_btc_percentage',
  'day_profit_usd_percentage', 'btc_profit', 'usd_profit', 'usd_profit_percentage', 'btc_profit_percentage', 'total_btc_profit',
  'total_usd_profit', 'pretty_display_type', 'exchange_name', 'market_code', 'api_keys_state',
].sort();

const NOT_OWNED = { error: 'Forbidden', error_description: 'Account not owned by current user.' };
const NOT_FOUND = { error: 'not_found', error_description: 'Not Found' };

const account = (credentials: Credentials, id: number) => t.request({ path: `/ver1/accounts/${id}`, credentials });
const list = (credentials: Credentials, headers: Record<string, string> = {}) => t.request({ path: '/ver1/accounts', credentials, headers });
const ids = (response: { body: Array<{ id: number }> }) => response.body.map((entry) => entry.id);

describe('the paper account every user starts with', () => {
  // The first test runs before any price exists on the paper market.
  it('holds 10 000 USDT, 0.1 BTC and 2 ETH; unpriced currencies count 0 and the day is not recorded', async () => {
    const { credentials, accountId } = await newUser(t);
    const table = await t.request({ method: 'POST', path: `/ver1/accounts/${accountId}/account_table_data`, credentials });
    assert.equal(table.status, 201, table.text);
    assert.deepEqual(
      table.body.map((row: Record<string, unknown>) => [row.currency_code, row.position, row.position_available, row.on_orders]),
      [['BTC', 0.1, 0.1, 0], ['ETH', 2, 2, 0], ['USDT', 10000, 10000, 0]],
    );
    const entity = (await account(credentials, accountId)).body;
    assert.deepEqual([entity.usd_amount, entity.btc_amount], ['10000', '0.1']);
    const chart = await t.request({ path: `/ver1/accounts/${accountId}/balance_chart_data?date_from=2000-01-01`, credentials });
    assert.deepEqual([chart.status, chart.body], [200, []]);
  });

  it('is valued at the posted prices exactly', async () => {
    const { credentials, accountId } = await newUser(t);
    await setPrices(t, admin, { USDT_BTC: '60000', USDT_ETH: '3000' });
    const first = (await account(credentials, accountId)).body;
    // 10 000 USDT + 0.1 × 60 000 + 2 × 3 000; in BTC 0.1 + 16 000 / 60 000.
    assert.deepEqual([first.usd_amount, first.btc_amount], ['22000', '0.36666667']);
    assert.deepEqual(first.primary_display_currency_amount, { currency: 'USD', amount: '22000' });

    await setPrices(t, admin, { USDT_BTC: '61000' });
    const later = (await account(credentials, accountId)).body;
    assert.deepEqual(
      [later.usd_amount, later.btc_amount, later.usd_profit, later.usd_profit_percentage, later.total_usd_profit, later.btc_profit],
      ['22100', '0.36229508', '100', '0.45', '100', '-0.00437159'],
    );
    // Nothing is recorded before today, so the day, the month and the total start at today's first value.
    assert.deepEqual([later.day_profit_usd, later.day_profit_usd_percentage], ['100', '0.45']);
    await setPrices(t, admin, { USDT_BTC: '62000' });
    const third = (await account(credentials, accountId)).body;
    assert.deepEqual([third.day_profit_usd, third.usd_profit, third.total_usd_profit], ['200', '200', '200']);
  });

  it('has every field of the reference entity, amounts as decimal strings and no credentials', async () => {
    const { credentials, accountId } = await newUser(t);
    const entity = (await account(credentials, accountId)).body;
    assert.deepEqual(Object.keys(entity).sort(), ACCOUNT_FIELDS);
    assert.deepEqual(
      [entity.id, entity.name, entity.market_code, entity.pretty_display_type, entity.exchange_name, entity.api_key_invalid, entity.api_keys_state],
      [accountId, 'Paper trading account', 'paper_trading', 'PaperTrading', 'Paper trading account', false, 'ok'],
    );
    assert.deepEqual([entity.include_in_summary, entity.deposit_enabled, entity.supported_market_types], [true, false, ['spot']]);
    assert.match(entity.market_icon, /^data:image\/svg\+xml,/);
    for (const field of ['btc_amount', 'usd_amount', 'day_profit_btc', 'day_profit_usd', 'btc_profit', 'usd_profit', 'total_btc_profit', 'total_usd_profit']) {
      assert.match(entity[field], /^-?\d+(\.\d+)?$/, field);
    }
    assert.equal(typeof entity.total_primary_display_currency_profit.amount, 'number');
    assert.ok(!Number.isNaN(Date.parse(entity.created_at)));
  });
});

describe('GET /ver1/accounts and /ver1/accounts/:id', () => {
  it('lists paper accounts in paper mode and real ones in real mode, by the user mode or Forced-Mode', async () => {
    const { credentials, accountId } = await newUser(t);
    assert.deepEqual(ids(await list(credentials)), [accountId]);
    assert.deepEqual((await list(credentials, { 'Forced-Mode': 'real' })).body, []);

    const changed = await postJson(t, '/ver1/users/change_mode', { mode: 'real' }, credentials);
    assert.equal(changed.status, 201, changed.text);
    assert.deepEqual((await list(credentials)).body, []);
    assert.deepEqual(ids(await list(credentials, { 'Forced-Mode': 'paper' })), [accountId]);
    // One account by id does not depend on the mode.
    assert.equal((await account(credentials, accountId)).status, 200);
    assertError(await list(credentials, { 'Forced-Mode': 'demo' }), 400, {
      error: 'forced_mode_invalid',
      error_description: "Forced mode is not included in the ['real', 'paper']",
    });
  });

  it('pages with page and per_page', async () => {
    const { credentials, accountId } = await newUser(t);
    const second = await postJson(t, '/ver1/accounts/new', { type: 'paper_trading', name: 'Second' }, credentials);
    assert.deepEqual(ids(await t.request({ path: '/ver1/accounts?per_page=1&page=2', credentials })), [second.body.id]);
    assert.deepEqual(ids(await t.request({ path: '/ver1/accounts?per_page=1', credentials })), [accountId]);
    assertRecordInvalid(await t.request({ path: '/ver1/accounts?per_page=101', credentials }), {
      per_page: ['must be less than or equal to 100'],
    });
  });

  it('shows one account as the list does; another user’s is 403, an unknown one 404', async () => {
    const { credentials, accountId } = await newUser(t);
    const other = await newUser(t);
    const one = await account(credentials, accountId);
    assert.equal(one.status, 200, one.text);
    assert.deepEqual(one.body, (await list(credentials)).body[0]);
    assertError(await account(other.credentials, accountId), 403, NOT_OWNED);
    assertError(await account(credentials, 987654), 404, NOT_FOUND);
    assertRecordInvalid(await account(credentials, 0), { account_id: ['must be greater than or equal to 1'] });
  });
});

describe('POST /ver1/accounts/new with type paper_trading', () => {
  it('opens another paper account with fresh starting balances', async () => {
    const { credentials, accountId } = await newUser(t);
    await setPrices(t, admin, { USDT_BTC: '60000', USDT_ETH: '3000' });
    const created = await postJson(t, '/ver1/accounts/new', { type: 'paper_trading', name: 'Second paper' }, credentials);
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(
      [created.body.name, created.body.market_code, created.body.usd_amount, created.body.btc_amount],
      ['Second paper', 'paper_trading', '22000', '0.36666667'],
    );
    assert.deepEqual(ids(await list(credentials)), [accountId, created.body.id]);
  });

  it('names a missing or unknown type and a missing name', async () => {
    const { credentials } = await newUser(t);
    assertRecordInvalid(await postJson(t, '/ver1/accounts/new', {}, credentials), { type: ['is missing'], name: ['is missing'] });
    assertRecordInvalid(await postJson(t, '/ver1/accounts/new', { type: 'mtgox', name: 'x' }, credentials), {
      type: ['does not have a valid value'],
    });
  });
});

describe('POST /ver1/accounts/update and /ver1/accounts/:id/rename', () => {
  it('renames and includes in or excludes from the summary', async () => {
    const { credentials, accountId } = await newUser(t);
    const renamed = await postJson(t, '/ver1/accounts/update', { account_id: accountId, name: 'Practice' }, credentials);
    assert.equal(renamed.status, 201, renamed.text);
    assert.deepEqual([renamed.body.id, renamed.body.name, renamed.body.include_in_summary], [accountId, 'Practice', true]);

    const form = await t.request({
      method: 'POST', path: '/ver1/accounts/update', body: `account_id=${accountId}&include_in_summary=false`,
      contentType: 'application/x-www-form-urlencoded', credentials,
    });
    assert.equal(form.status, 201, form.text);
    assert.deepEqual([form.body.name, form.body.include_in_summary], ['Practice', false]);
    assert.equal((await account(credentials, accountId)).body.include_in_summary, false);

    const rename = await t.request({ method: 'POST', path: `/ver1/accounts/${accountId}/rename?name=Sandbox`, credentials });
    assert.equal(rename.status, 201, rename.text);
    assert.equal(rename.body.name, 'Sandbox');
    assert.equal((await list(credentials)).body[0].name, 'Sandbox');
  });

  it('refuses credentials for a paper account, naming each one sent', async () => {
    const { credentials, accountId } = await newUser(t);
    assertRecordInvalid(await postJson(t, '/ver1/accounts/update', { account_id: accountId, api_key: 'k', secret: 's' }, credentials), {
      api_key: ['is not used by paper trading accounts'],
      secret: ['is not used by paper trading accounts'],
    });
  });

  it('names missing or invalid fields and guards other users’ and unknown accounts', async () => {
    const { credentials, accountId } = await newUser(t);
    const other = await newUser(t);
    assertRecordInvalid(await postJson(t, '/ver1/accounts/update', { name: 'x' }, credentials), { account_id: ['is missing'] });
    assertRecordInvalid(await postJson(t, `/ver1/accounts/${accountId}/rename`, {}, credentials), { name: ['is missing'] });
    assertRecordInvalid(await postJson(t, `/ver1/accounts/${accountId}/rename`, { name: 'n'.repeat(101) }, credentials), {
      name: ['too long. Max is 100 symbols'],
    });
    assertError(await postJson(t, '/ver1/accounts/update', { account_id: accountId, name: 'mine' }, other.credentials), 403, NOT_OWNED);
    assertError(await postJson(t, `/ver1/accounts/${accountId}/rename`, { name: 'mine' }, other.credentials), 403, NOT_OWNED);
    assertError(await postJson(t, '/ver1/accounts/update', { account_id: 987654, name: 'x' }, credentials), 404, NOT_FOUND);
    assert.equal((await account(credentials, accountId)).body.name, 'Paper trading account');
  });
});
