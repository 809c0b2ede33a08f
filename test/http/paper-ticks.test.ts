import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dec } from '../../src/shared/decimal.ts';
import { assertError, assertRecordInvalid, newUser, postJson, postTicks } from '../support/api.ts';
import type { Credentials } from '../support/signing.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
let admin: Credentials;
before(async () => {
  t = await startTestApp();
  admin = await t.createKey({ user: 'operator', permissions: ['ADMIN'] });
});
after(() => t.close());

const rates = (pair: string) => t.request({ path: `/ver1/accounts/currency_rates?market_code=paper_trading&pair=${pair}` });

async function balances(accountId: number) {
  const list = await (await t.core.paper.exchange(accountId)).balances();
  return Object.fromEntries(list.map((b) => [b.currency, `${b.free.toFixed()}/${b.locked.toFixed()}`]));
}

describe('POST /ext/paper/ticks', () => {
  it('applies the ticks in order and answers how many it applied and filled', async () => {
    const response = await postTicks(t, admin, [
      { pair: 'USDT_BTC', price: '60000' },
      { pair: 'USDT_SOL', price: '150', bid: '149.9', ask: '150.1' },
      { pair: 'USDT_BTC', price: '60100.5' },
    ]);
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body, { applied: 3, fills: 0 });
    const btc = (await rates('USDT_BTC')).body;
    assert.deepEqual([btc.last, btc.bid, btc.ask], ['60100.5', '60100.5', '60100.5']);
    const sol = (await rates('USDT_SOL')).body;
    assert.deepEqual([sol.last, sol.bid, sol.ask], ['150', '149.9', '150.1']);
  });

  it('fills resting paper orders the prices cross, fully on a quote and up to the volume on a trade', async () => {
    const { accountId } = await newUser(t);
    // Orders are placed here as the engine would: on PostgreSQL, by the engine holding the account.
    await t.core.engine.holdAccount(accountId);
    const exchange = await t.core.paper.exchange(accountId);
    await postTicks(t, admin, [{ pair: 'USDT_BTC', price: '60000' }]);
    const buy = { pair: 'USDT_BTC', side: 'buy', type: 'limit', amount: dec('0.01'), price: dec('59000') } as const;
    await exchange.placeOrder({ ...buy, clientOrderId: 'quote-fill' });
    assert.deepEqual(await balances(accountId), { BTC: '0.1/0', ETH: '2/0', USDT: '9410/590' });

    assert.deepEqual((await postTicks(t, admin, [{ pair: 'USDT_BTC', price: '59500' }])).body, { applied: 1, fills: 0 });
    assert.deepEqual((await postTicks(t, admin, [{ pair: 'USDT_BTC', price: '58900' }])).body, { applied: 1, fills: 1 });
    assert.deepEqual(await exchange.openOrders(), []);
    // 0.01 BTC bought at its limit of 59000, less the 0.1 % maker fee taken in BTC.
    assert.deepEqual(await balances(accountId), { BTC: '0.10999/0', ETH: '2/0', USDT: '9410/0' });

    await exchange.placeOrder({ ...buy, clientOrderId: 'trade-fill', price: dec('58000') });
    const trade = await postTicks(t, admin, [{ pair: 'USDT_BTC', price: '57900', bid: '57800', ask: '58100', volume: '0.004' }]);
    assert.deepEqual(trade.body, { applied: 1, fills: 1 });
    const [open] = await exchange.openOrders();
    assert.deepEqual([open!.clientOrderId, open!.filled.toFixed(), open!.status], ['trade-fill', '0.004', 'open']);
  });

  it('names every invalid tick field and applies none of the batch', async () => {
    const response = await postTicks(t, admin, [
      { pair: 'USDT_ETH', price: '3100' },
      { pair: 'USDT_XRP', price: '1' },
      { pair: 'USDT_BTC', price: '0' },
      { pair: 'USDT_BTC', price: '60000', bid: '60001', ask: '60000' },
      { pair: 'USDT_BTC', price: '60000', bid: '60000.01' },
      { pair: 'USDT_BTC', price: '60000', ask: '59999.99' },
      { pair: 'USDT_BTC', price: '60000', bid: '0', ask: '60000' },
    ]);
    assertRecordInvalid(response, {
      'ticks[1][pair]': ['does not have a valid value'],
      'ticks[2][price]': ['must be greater than 0'],
      'ticks[3][bid]': ['must not be above ask'],
      'ticks[4][bid]': ['must not be above price when ask is not given'],
      'ticks[5][ask]': ['must not be below price when bid is not given'],
      'ticks[6][bid]': ['must be greater than 0'],
    });
    assertError(await rates('USDT_ETH'), 422, { error: 'price_unavailable', error_description: 'No price yet for USDT_ETH on paper_trading' });
  });

  it('refuses prices that are not plain decimals, bad dates and an empty or missing batch', async () => {
    assertRecordInvalid(await postTicks(t, admin, [{ pair: 'USDT_BTC', price: '-5' }]), { 'ticks[0][price]': ['is invalid'] });
    assertRecordInvalid(await postTicks(t, admin, [{ pair: 'USDT_BTC', price: '1e5' }]), { 'ticks[0][price]': ['is invalid'] });
    const badDate = await postJson(t, '/ext/paper/ticks', { market_code: 'paper_trading', ticks: [{ pair: 'USDT_BTC', price: '1', at: 'yesterday' }] }, admin);
    assertRecordInvalid(badDate, { 'ticks[0][at]': ['is invalid'] });
    assertRecordInvalid(await postTicks(t, admin, []), { ticks: ['is empty'] });
    assertRecordInvalid(await postJson(t, '/ext/paper/ticks', { market_code: 'binance', ticks: [{ pair: 'USDT_BTC', price: '1' }] }, admin), {
      market_code: ['does not have a valid value'],
    });
    assertRecordInvalid(await postJson(t, '/ext/paper/ticks', {}, admin), { market_code: ['is missing'], ticks: ['is missing'] });
  });

  it('is for ADMIN keys only', async () => {
    const { credentials } = await newUser(t);
    assertError(await postTicks(t, credentials, [{ pair: 'USDT_BTC', price: '1' }]), 403, {
      error: 'Forbidden',
      error_description: 'Api key not authorized for this action',
    });
    const unsigned = await t.request({ method: 'POST', path: '/ext/paper/ticks', body: '{}', contentType: 'application/json' });
    assertError(unsigned, 401, {
      error: 'api_key_invalid_or_expired',
      error_description: 'Unauthorized. Invalid or expired api key. The Apikey header is missing.',
    });
    assert.equal((await rates('USDT_BTC')).body.last, '57900');
  });
});
