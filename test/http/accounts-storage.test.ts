/**
 * What a restarted server finds: a second server opened on the first one's database (as after a
 * restart) sees the same accounts, paper balances and open orders, and connects to real
 * exchanges afresh.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import ccxt from 'ccxt';
import type { FastifyInstance } from 'fastify';
import { buildApp, createLogger, openCore, type Core } from '../../src/app.ts';
import { CcxtConnector } from '../../src/exchanges/ccxt/ccxt-connector.ts';
import type { Transport } from '../../src/exchanges/ccxt/ccxt-transport.ts';
import { SimulatedBinance } from '../../src/exchanges/ccxt/test-support/simulated-binance.ts';
import { dec } from '../../src/shared/decimal.ts';
import { assertError, newUser, postJson, setPrices } from '../support/api.ts';
import { type Credentials, signPayload } from '../support/signing.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const BINANCE_KEY = { api_key: 'binance-key-1', secret: 'binance-secret-1' };
const PRICES = { BTCUSDT: { bid: '60000', ask: '60000.01' } };
const binanceAccounts = new Map<string, SimulatedBinance>();
const nobody = new SimulatedBinance('no-such-key', {}, PRICES);
const transport: Transport = async (url, method, headers, body) => {
  if (new URL(url).host !== 'api.binance.com') throw new ccxt.NetworkError('no network in tests');
  return (binanceAccounts.get(headers['X-MBX-APIKEY'] ?? '') ?? nobody).transport(url, method, headers, body);
};
const openBinanceAccount = () => binanceAccounts.set(BINANCE_KEY.api_key, new SimulatedBinance(BINANCE_KEY.api_key, { USDT: '1000' }, PRICES));

let t: TestApp;
let admin: Credentials;
let restarted: { core: Core; app: FastifyInstance; baseUrl: string };
before(async () => {
  t = await startTestApp({}, { connector: new CcxtConnector({ transport, rateLimit: false }) });
  admin = await t.createKey({ user: 'operator', permissions: ['ADMIN'] });
  openBinanceAccount();
});
after(async () => {
  await restarted?.app.close();
  await restarted?.core.close();
  await t.close();
});

async function restart() {
  const core = await openCore(t.core.config, {
    db: t.core.db,
    logger: createLogger('silent'),
    connector: new CcxtConnector({ transport, rateLimit: false }),
  });
  await core.startTrading();
  const app = await buildApp(core);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { core, app, baseUrl: `http://127.0.0.1:${address.port}` };
}

/** A signed request to the restarted server. */
async function call(credentials: Credentials, method: string, path: string, body?: object) {
  const fullPath = `/public/api${path}`;
  const text = body === undefined ? '' : JSON.stringify(body);
  const response = await fetch(`${restarted.baseUrl}${fullPath}`, {
    method,
    headers: {
      APIKEY: credentials.apiKey,
      Signature: signPayload(credentials, `${fullPath}${text}`),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: text }),
  });
  const responseText = await response.text();
  return { status: response.status, headers: response.headers, text: responseText, body: JSON.parse(responseText) };
}

const holdings = (table: Array<Record<string, unknown>>) =>
  table.map((row) => [row.currency_code, row.position, row.position_available, row.on_orders]);

describe('after a restart on the same database', () => {
  it('keeps paper balances, open orders and fills, and goes on filling the orders', async () => {
    const { credentials, accountId } = await newUser(t);
    await setPrices(t, admin, { USDT_BTC: '60000', USDT_ETH: '3000' });
    // Orders are placed here as the engine would: on PostgreSQL, by the engine holding the account.
    await t.core.engine.holdAccount(accountId);
    const exchange = await t.core.paper.exchange(accountId);
    const buy = { pair: 'USDT_BTC', side: 'buy', type: 'limit', amount: dec('0.01') } as const;
    await exchange.placeOrder({ ...buy, clientOrderId: 'filled', price: dec('59500') });
    await exchange.placeOrder({ ...buy, clientOrderId: 'resting', price: dec('59000') });
    await setPrices(t, admin, { USDT_BTC: '59400' });
    const table = (await t.request({ method: 'POST', path: `/ver1/accounts/${accountId}/account_table_data`, credentials })).body;
    // One buy filled (0.01 BTC less the 0.1 % fee), one still locks 590 USDT.
    assert.deepEqual(holdings(table), [['BTC', 0.10999, 0.10999, 0], ['ETH', 2, 2, 0], ['USDT', 9405, 8815, 590]]);

    restarted = await restart();
    const again = await call(credentials, 'POST', `/ver1/accounts/${accountId}/account_table_data`);
    assert.equal(again.status, 201, again.text);
    assert.deepEqual(holdings(again.body), holdings(table));
    const active = await call(credentials, 'GET', `/ver1/accounts/${accountId}/active_trading_entities`);
    assert.equal(active.body.data.active_orders_count, 1);

    const tick = await call(admin, 'POST', '/ext/paper/ticks', { market_code: 'paper_trading', ticks: [{ pair: 'USDT_BTC', price: '58900' }] });
    assert.deepEqual(tick.body, { applied: 1, fills: 1 });
    const filled = await call(credentials, 'POST', `/ver1/accounts/${accountId}/account_table_data`);
    assert.deepEqual(holdings(filled.body), [['BTC', 0.11998, 0.11998, 0], ['ETH', 2, 2, 0], ['USDT', 8815, 8815, 0]]);
  });

  it('marks a real account whose key the exchange now refuses, until the exchange accepts it again', async () => {
    const { credentials } = await newUser(t);
    const created = await postJson(t, '/ver1/accounts/new', { type: 'binance', name: 'Binance', ...BINANCE_KEY }, credentials);
    assert.equal(created.status, 201, created.text);
    const id = created.body.id;
    binanceAccounts.delete(BINANCE_KEY.api_key);
    restarted ??= await restart();

    const refused = await call(credentials, 'GET', `/ver1/accounts/${id}`);
    assert.deepEqual([refused.status, refused.body.api_key_invalid, refused.body.api_keys_state, refused.body.usd_amount], [200, true, 'expired', '1000']);
    assertError(await call(credentials, 'POST', `/ver1/accounts/${id}/load_balances`), 422, {
      error: 'invalid_api_key',
      error_description: 'API keys are no longer valid or incorrect.',
    });

    openBinanceAccount();
    const accepted = await call(credentials, 'POST', `/ver1/accounts/${id}/load_balances`);
    assert.deepEqual([accepted.status, accepted.body.api_key_invalid, accepted.body.api_keys_state], [201, false, 'ok']);
  });
});
