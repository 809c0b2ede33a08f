import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import ccxt from 'ccxt';
import { CcxtConnector } from '../../src/exchanges/ccxt/ccxt-connector.ts';
import type { Transport } from '../../src/exchanges/ccxt/ccxt-transport.ts';
import { SimulatedBinance } from '../../src/exchanges/ccxt/test-support/simulated-binance.ts';
import { assertError, assertRecordInvalid, newUser } from '../support/api.ts';
import type { Credentials } from '../support/signing.ts';
import { startTestApp, type SignedRequestOptions, type TestApp } from '../support/test-app.ts';

const PRICES = { BTCUSDT: { bid: '60000', ask: '60000.01' }, ETHUSDT: { bid: '3000', ask: '3000.01' }, ETHBTC: { bid: '0.05', ask: '0.05001' } };
const KEYS = {
  first: { api_key: 'binance-key-1', secret: 'binance-secret-1' },
  second: { api_key: 'binance-key-2', secret: 'binance-secret-2' },
  third: { api_key: 'binance-key-3', secret: 'binance-secret-3' },
  fourth: { api_key: 'binance-key-4', secret: 'binance-secret-4' },
  okx: { api_key: 'okx-key-1', secret: 'okx-secret-1', passphrase: 'okx-passphrase-1' },
};
const INVALID_KEY = { error: 'invalid_api_key', error_description: 'API keys are no longer valid or incorrect.' };
const OKX_DOWN = { error: 'exchange_unavailable', error_description: 'OKX: no network in tests' };
const CONNECTED = { api_key: ['This account is already connected!'] };

/**
 * Binance holds one simulated account per API key (a key nobody holds is refused with -2015, as
 * Binance does); every other exchange is unreachable.
 */
const binanceAccounts = new Map<string, SimulatedBinance>();
const nobody = new SimulatedBinance('no-such-key', {}, PRICES);
const transport: Transport = async (url, method, headers, body) => {
  if (new URL(url).host !== 'api.binance.com') throw new ccxt.NetworkError('no network in tests');
  const account = binanceAccounts.get(headers['X-MBX-APIKEY'] ?? '') ?? nobody;
  return account.transport(url, method, headers, body);
};
const openBinanceAccount = (key: { api_key: string }, balances: Record<string, string>) =>
  binanceAccounts.set(key.api_key, new SimulatedBinance(key.api_key, balances, PRICES));

let t: TestApp;
const responses: string[] = [];
before(async () => {
  t = await startTestApp({}, { connector: new CcxtConnector({ transport, rateLimit: false }) });
  openBinanceAccount(KEYS.first, { USDT: '1000', BTC: '0.5' });
});
after(() => t.close());

async function send(options: SignedRequestOptions) {
  const response = await t.request(options);
  responses.push(response.text);
  return response;
}
const post = (path: string, body: unknown, credentials: Credentials) =>
  send({ method: 'POST', path, body: JSON.stringify(body), contentType: 'application/json', credentials });
const get = (path: string, credentials?: Credentials, headers: Record<string, string> = {}) =>
  send({ path, headers, ...(credentials ? { credentials } : {}) });
const realIds = async (credentials: Credentials) =>
  (await get('/ver1/accounts', credentials, { 'Forced-Mode': 'real' })).body.map((entry: { id: number }) => entry.id);

describe('real exchange accounts', () => {
  let owner: Awaited<ReturnType<typeof newUser>>;
  let binanceId: number;

  it('connects binance with keys the exchange accepts; the account is listed in real mode only', async () => {
    owner = await newUser(t);
    const created = await post('/ver1/accounts/new', { type: 'binance', name: 'My Binance', ...KEYS.first }, owner.credentials);
    assert.equal(created.status, 201, created.text);
    binanceId = created.body.id;
    const entity = created.body;
    assert.deepEqual(
      [entity.name, entity.market_code, entity.exchange_name, entity.pretty_display_type, entity.deposit_enabled, entity.api_key_invalid, entity.api_keys_state],
      ['My Binance', 'binance', 'Binance', 'Binance', true, false, 'ok'],
    );
    // 1 000 USDT + 0.5 BTC at Binance's last price of 60 000.
    assert.deepEqual([entity.usd_amount, entity.btc_amount], ['31000', '0.51666667']);
    assert.deepEqual(await realIds(owner.credentials), [binanceId]);
    const paper = (await get('/ver1/accounts', owner.credentials, { 'Forced-Mode': 'paper' })).body;
    assert.deepEqual(paper.map((entry: { id: number }) => entry.id), [owner.accountId]);

    const table = (await send({ method: 'POST', path: `/ver1/accounts/${binanceId}/account_table_data`, credentials: owner.credentials })).body;
    assert.deepEqual(table.map((row: Record<string, unknown>) => [row.currency_code, row.position, row.current_price_usd, row.usd_value]), [
      ['BTC', 0.5, 60000, 30000],
      ['USDT', 1000, 1, 1000],
    ]);
  });

  it('refuses an exchange key that is already connected, for any user', async () => {
    assertRecordInvalid(await post('/ver1/accounts/new', { type: 'binance', name: 'Again', ...KEYS.first }, owner.credentials), CONNECTED);
    const other = await newUser(t);
    assertRecordInvalid(await post('/ver1/accounts/new', { type: 'binance', name: 'Mine', ...KEYS.first }, other.credentials), CONNECTED);
    assert.deepEqual(await realIds(other.credentials), []);
  });

  it('refuses keys the exchange rejects (Binance -2015) with 422 invalid_api_key and connects nothing', async () => {
    const { credentials } = await newUser(t);
    const refused = await post('/ver1/accounts/new', { type: 'binance', name: 'Wrong', api_key: 'wrong-key', secret: 'wrong-secret' }, credentials);
    assertError(refused, 422, INVALID_KEY);
    assert.deepEqual(await realIds(credentials), []);
  });

  it('names missing credentials the exchange needs', async () => {
    const { credentials } = await newUser(t);
    assertRecordInvalid(await post('/ver1/accounts/new', { type: 'binance', name: 'b', api_key: 'k' }, credentials), { secret: ['is missing'] });
    assertRecordInvalid(await post('/ver1/accounts/new', { type: 'binance', name: 'b', api_key: '', secret: 's' }, credentials), { api_key: ['is missing'] });
    assertRecordInvalid(await post('/ver1/accounts/new', { type: 'okx', name: 'o', api_key: 'k', secret: 's' }, credentials), { passphrase: ['is missing'] });
  });

  it('connects, lists and shows an account whose exchange is down; reading it answers 503', async () => {
    const { credentials } = await newUser(t);
    const created = await post('/ver1/accounts/new', { type: 'okx', name: 'My OKX', ...KEYS.okx }, credentials);
    assert.equal(created.status, 201, created.text);
    assert.deepEqual([created.body.market_code, created.body.usd_amount, created.body.btc_amount], ['okx', '0', '0']);
    const id = created.body.id;
    assert.deepEqual(await realIds(credentials), [id]);
    // Shown at its last known value.
    await t.core.accounts.recordBalance(id, '2020-01-15', '500', '0.01');
    const shown = (await get(`/ver1/accounts/${id}`, credentials)).body;
    assert.deepEqual([shown.usd_amount, shown.btc_amount, shown.api_key_invalid], ['500', '0.01', false]);

    for (const path of ['load_balances', 'account_table_data', 'pie_chart_data']) {
      assertError(await send({ method: 'POST', path: `/ver1/accounts/${id}/${path}`, credentials }), 503, OKX_DOWN);
    }
    assertError(await get(`/ver1/accounts/${id}/active_trading_entities`, credentials), 503, OKX_DOWN);
  });

  it('takes replacement credentials through update once the exchange revokes the old key', async () => {
    binanceAccounts.delete(KEYS.first.api_key);
    openBinanceAccount(KEYS.second, { USDT: '2000' });
    // ccxt reads Binance's -2015 on a connection that has worked before as a passing refusal, so
    // the account is shown at its last known value and reading it answers 503.
    const stale = (await get(`/ver1/accounts/${binanceId}`, owner.credentials)).body;
    assert.deepEqual([stale.api_key_invalid, stale.usd_amount], [false, '31000']);
    assertError(await send({ method: 'POST', path: `/ver1/accounts/${binanceId}/load_balances`, credentials: owner.credentials }), 503, {
      error: 'exchange_unavailable',
      error_description: 'Binance: Invalid API-key, IP, or permissions for action. (code -2015)',
    });

    const update = (body: object) => post('/ver1/accounts/update', { account_id: binanceId, ...body }, owner.credentials);
    assertRecordInvalid(await update({ api_key: KEYS.second.api_key }), { secret: ['is missing'] });
    assertError(await update({ api_key: 'wrong-key', secret: 'wrong-secret' }), 422, INVALID_KEY);
    const replaced = await update({ ...KEYS.second, name: 'Rotated' });
    assert.equal(replaced.status, 201, replaced.text);
    assert.deepEqual(
      [replaced.body.name, replaced.body.api_key_invalid, replaced.body.api_keys_state, replaced.body.usd_amount, replaced.body.btc_amount],
      ['Rotated', false, 'ok', '2000', '0.03333333'],
    );
    const loaded = await send({ method: 'POST', path: `/ver1/accounts/${binanceId}/load_balances`, credentials: owner.credentials });
    assert.deepEqual([loaded.status, loaded.body.usd_amount], [201, '2000']);
  });

  it('refuses replacing credentials with a key another account holds', async () => {
    openBinanceAccount(KEYS.third, { USDT: '10' });
    const { credentials } = await newUser(t);
    const created = await post('/ver1/accounts/new', { type: 'binance', name: 'Third', ...KEYS.third }, credentials);
    assert.equal(created.status, 201, created.text);
    assertRecordInvalid(await post('/ver1/accounts/update', { account_id: created.body.id, ...KEYS.second }, credentials), CONNECTED);
    assertRecordInvalid(await post('/ver1/accounts/new', { type: 'binance', name: 'Second', ...KEYS.second }, credentials), CONNECTED);
  });

  it('frees a removed account’s key', async () => {
    const removed = await send({ method: 'POST', path: `/ver1/accounts/${binanceId}/remove`, credentials: owner.credentials });
    assert.deepEqual([removed.status, removed.body], [201, true]);
    assert.deepEqual(await realIds(owner.credentials), []);
    const { credentials } = await newUser(t);
    const again = await post('/ver1/accounts/new', { type: 'binance', name: 'Reconnected', ...KEYS.second }, credentials);
    assert.equal(again.status, 201, again.text);
  });

  it('values a currency the exchange no longer lists at 0, and still records the day', async () => {
    openBinanceAccount(KEYS.fourth, { USDT: '10', BTC: '0.001', LUNA: '5' });
    const { credentials } = await newUser(t);
    const created = await post('/ver1/accounts/new', { type: 'binance', name: 'Old coins', ...KEYS.fourth }, credentials);
    assert.deepEqual([created.status, created.body.usd_amount], [201, '70']);
    const table = (await send({ method: 'POST', path: `/ver1/accounts/${created.body.id}/account_table_data`, credentials })).body;
    assert.deepEqual(table.map((row: Record<string, unknown>) => [row.currency_code, row.position, row.usd_value, row.percentage]), [
      ['BTC', 0.001, 60, 85.71],
      ['LUNA', 5, 0, 0],
      ['USDT', 10, 10, 14.29],
    ]);
    const chart = await get(`/ver1/accounts/${created.body.id}/balance_chart_data?date_from=2020-01-01`, credentials);
    assert.deepEqual(chart.body.map((point: { usd: number }) => point.usd), [70]);
  });

  it('gives binance’s pairs and rates through the exchange', async () => {
    assert.deepEqual((await get('/ver1/accounts/market_pairs?market_code=binance')).body, ['USDT_BTC', 'USDT_ETH', 'BTC_ETH']);
    const rates = await get('/ver1/accounts/currency_rates?market_code=binance&pair=USDT_BTC');
    assert.equal(rates.status, 200, rates.text);
    assert.deepEqual(rates.body, {
      last: '60000', bid: '60000', ask: '60000.01', orderbook_ask: '60000.01', orderbook_bid: '60000', orderbook_last: '60000',
      orderbook_price_currency: 'USDT', strategy_name: 'spot', contract_strategy_name: 'spot', instrumentKind: 'spot',
      minPrice: '0.01', maxPrice: '1000000', priceStep: '0.01', minLotSize: '0.00001', maxLotSize: '9000', lotStep: '0.00001',
      maxMarketBuyAmount: '114.81524264', maxMarketSellAmount: '114.81524264', bidMultiplierDown: '0.2', bidMultiplierUp: '5',
      askMultiplierUp: '5', askMultiplierDown: '0.2', minTotal: '5', minMarketTotal: '5', maxTotal: '9000000',
    });
  });

  it('never shows exchange credentials in a response, nor stores them readable', async () => {
    const secrets = Object.values(KEYS).flatMap((key) => Object.values(key));
    assert.ok(responses.length > 20);
    for (const text of responses) for (const secret of secrets) assert.ok(!text.includes(secret), `${secret} in ${text.slice(0, 200)}`);
    const stored = await t.core.db.query<{ sealed: string }>("SELECT sealed_credentials AS sealed FROM accounts WHERE market_code <> 'paper_trading'");
    assert.ok(stored.length >= 4);
    for (const { sealed } of stored) for (const secret of secrets) assert.ok(!sealed.includes(secret));
  });
});
