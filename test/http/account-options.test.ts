import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, assertRecordInvalid, newUser, postJson, setPrices } from '../support/api.ts';
import type { Credentials } from '../support/signing.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
let user: Credentials;
let accountId: number;
before(async () => {
  t = await startTestApp({ PAPER_SLIPPAGE_BPS: '0' });
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
