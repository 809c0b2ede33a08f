import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, assertRecordInvalid, newUser, postJson, setPrices } from '../support/api.ts';
import type { Credentials } from '../support/signing.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
let user: Credentials;
let accountId: number;
before(async () => {
  t = await startTestApp({ PAPER_SLIPPAGE_BPS: '0' }, { unreachableExchanges: true });
  const admin = await t.createKey({ user: 'operator', permissions: ['ADMIN'] });
  await setPrices(t, admin, { USDT_ETH: '100', USDT_BTC: '20000' });
  ({ credentials: user, accountId } = await newUser(t));
});
after(() => t.close());

describe('types_to_connect', () => {
  it('lists every market type with whether the user has connected one, by GET or by POST', async () => {
    const listed = await t.request({ path: '/ver1/accounts/types_to_connect', credentials: user });
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(listed.body.find((row: any) => row.type === 'paper_trading'), { type: 'paper_trading', connected: true, available: true, unified: false });
    assert.deepEqual(listed.body.find((row: any) => row.type === 'binance'), { type: 'binance', connected: false, available: true, unified: false });
    const posted = await t.request({ method: 'POST', path: '/ver1/accounts/types_to_connect?type=binance', body: '{}', contentType: 'application/json', credentials: user });
    assert.equal(posted.status, 200, posted.text);
    assert.deepEqual(posted.body.map((row: any) => row.type), ['binance']);
  });
});

describe('leverage_data', () => {
  it('offers only "none" on a spot account, checks the pair, and refuses another user’s account', async () => {
    const data = await t.request({ path: `/ver1/accounts/${accountId}/leverage_data?pair=USDT_ETH`, credentials: user });
    assert.equal(data.status, 200, data.text);
    assert.deepEqual(data.body.map((row: any) => [row.code, row.can_set_leverage_value, row.max_leverage]), [['none', false, '1']]);
    assertRecordInvalid(await t.request({ path: `/ver1/accounts/${accountId}/leverage_data?pair=USDT_NOPE`, credentials: user }), {
      pair: ['does not have a valid value'],
    });
    const other = await newUser(t);
    assertError(await t.request({ path: `/ver1/accounts/${accountId}/leverage_data`, credentials: other.credentials }), 403, {
      error: 'Forbidden',
      error_description: 'Account not owned by current user.',
    });
  });
});

describe('GET /v2/accounts/market_pairs', () => {
  it('answers as the ver1 path does, unsigned', async () => {
    const v1 = await t.request({ path: '/ver1/accounts/market_pairs?market_code=paper_trading' });
    const v2 = await t.request({ path: '/v2/accounts/market_pairs?market_code=paper_trading' });
    assert.equal(v2.status, 200, v2.text);
    assert.ok(v2.body.includes('USDT_ETH'));
    assert.deepEqual(v2.body, v1.body);
  });
});

describe('PUT /ver1/users/locale', () => {
  it('keeps one of the reference’s locales and refuses others, naming the field', async () => {
    const put = (body: unknown) => t.request({ method: 'PUT', path: '/ver1/users/locale', body: JSON.stringify(body), contentType: 'application/json', credentials: user });
    const changed = await put({ locale: 'de' });
    assert.equal(changed.status, 200, changed.text);
    assert.deepEqual(changed.body, { locale: 'de' });
    assertRecordInvalid(await put({ locale: 'xx' }), { locale: ['does not have a valid value'] });
    const admin = await t.createKey({ user: 'operator', permissions: ['ADMIN'] });
    const users = (await t.request({ path: '/ext/users', credentials: admin })).body;
    assert.equal(users.filter((u: any) => u.locale === 'de').length, 1);
    assert.ok(users.every((u: any) => u.locale === 'de' || u.locale === 'en'));
  });
});

describe('volume', () => {
  it('sums what the account’s orders traded per UTC day, month and in all, valued in USD and BTC', async () => {
    const { credentials, accountId: account } = await newUser(t);
    const get = (path: string) => t.request({ path: `/ver1/accounts/${account}/volume/${path}`, credentials });
    assert.deepEqual((await get('total')).body, { volume_btc: '0', volume_usd: '0' });
    const trade = await postJson(t, '/ver1/trades', { account_id: account, pair: 'USDT_ETH', order: { type: 'market', side: 'buy' }, units: { value: '0.5' } }, credentials);
    assert.equal(trade.status, 201, trade.text);
    const today = new Date().toISOString().slice(0, 10);
    assert.deepEqual((await get('total')).body, { volume_btc: '0.0025', volume_usd: '50' });
    assert.deepEqual((await get(`daily?date=${today}`)).body, { utc_date: today, volume_btc: '0.0025', volume_usd: '50' });
    assert.deepEqual((await get('daily?date=2001-02-03')).body, { utc_date: '2001-02-03', volume_btc: '0', volume_usd: '0' });
    assert.deepEqual((await get(`monthly?month=${today.slice(0, 7)}`)).body, { utc_month: today.slice(0, 7), volume_btc: '0.0025', volume_usd: '50' });
    assertRecordInvalid(await get('daily?date=2024-02-30'), { date: ['is invalid'] });
    assertRecordInvalid(await get('monthly?month=2024-13'), { month: ['is invalid'] });
    assertError(await t.request({ path: `/ver1/accounts/${account}/volume/total`, credentials: user }), 403, {
      error: 'Forbidden',
      error_description: 'Account not owned by current user.',
    });
  });
});

describe('sell_all_to_usd and sell_all_to_btc', () => {
  const holdings = async (account: number) =>
    Object.fromEntries((await (await t.core.paper.exchange(account)).balances()).map((b) => [b.currency, [b.free.toFixed(), b.locked.toFixed()]]));

  it('needs confirm: true, then sells every free coin at market and answers the account', async () => {
    const { credentials, accountId: account } = await newUser(t);
    const sell = (target: string, body: unknown) => postJson(t, `/ver1/accounts/${account}/sell_all_to_${target}`, body, credentials);
    assertRecordInvalid(await sell('usd', {}), { confirm: ['must be true: every free coin on the account is sold'] });
    assertRecordInvalid(await sell('usd', { confirm: false }), { confirm: ['must be true: every free coin on the account is sold'] });
    assert.deepEqual(await holdings(account), { USDT: ['10000', '0'], BTC: ['0.1', '0'], ETH: ['2', '0'] });
    // A resting buy keeps what it holds.
    const order = await postJson(t, '/ver1/trades', { account_id: account, pair: 'USDT_ETH', order: { type: 'limit', side: 'buy' }, units: { value: '1' }, price: { value: '90' } }, credentials);
    assert.equal(order.status, 201, order.text);
    const sold = await sell('usd', { confirm: true });
    assert.equal(sold.status, 201, sold.text);
    assert.equal(sold.body.id, account);
    // 0.1 BTC at 20000 and 2 ETH at 100, less the 0.1 % fee on what each sale received.
    assert.deepEqual(await holdings(account), { USDT: ['12107.8', '90'], BTC: ['0', '0'], ETH: ['0', '0'] });
    const toBtc = await sell('btc', { confirm: 'True' });
    assert.equal(toBtc.status, 201, toBtc.text);
    const after = await holdings(account);
    assert.deepEqual(after.USDT![1], '90');
    assert.ok(Number(after.USDT![0]) < 122 && Number(after.BTC![0]) > 0.59, JSON.stringify(after));
  });

  it('leaves a coin whose pair has no price yet', async () => {
    const { credentials, accountId: account } = await newUser(t);
    // BTC_ETH trades on the paper market but has had no price in this test.
    const sold = await postJson(t, `/ver1/accounts/${account}/sell_all_to_btc`, { confirm: true }, credentials);
    assert.equal(sold.status, 201, sold.text);
    const after = await holdings(account);
    assert.deepEqual(after.ETH, ['2', '0']);
    assert.ok(Number(after.BTC![0]) > 0.1, JSON.stringify(after));
  });

  it('refuses another user’s account', async () => {
    const other = await newUser(t);
    assertError(await postJson(t, `/ver1/accounts/${accountId}/sell_all_to_btc`, { confirm: true }, other.credentials), 403, {
      error: 'Forbidden',
      error_description: 'Account not owned by current user.',
    });
  });
});
