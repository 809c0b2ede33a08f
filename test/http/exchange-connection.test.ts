/**
 * A real exchange account (a simulated Binance behind ccxt's transport, never the network) whose
 * exchange stops answering while a SmartTrade's order rests on it: the owner's webhook hears the
 * connection lost once, however many polls fail, and recovered once when it answers again.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import ccxt from 'ccxt';
import { CcxtConnector } from '../../src/exchanges/ccxt/ccxt-connector.ts';
import type { Transport } from '../../src/exchanges/ccxt/ccxt-transport.ts';
import { SimulatedBinance } from '../../src/exchanges/ccxt/test-support/simulated-binance.ts';
import { newUser, postJson } from '../support/api.ts';
import { LoopbackReceiver } from '../support/loopback-receiver.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const KEY = { api_key: 'binance-key-1', secret: 'binance-secret-1' };

let t: TestApp;
const hooks = new LoopbackReceiver();
let hooksUrl: string;
const binance = new SimulatedBinance(KEY.api_key, { USDT: '1000' }, { BTCUSDT: { bid: '60000', ask: '60000.01' } });
let down = false;
let failedRequests = 0;
const transport: Transport = async (url, method, headers, body) => {
  if (down) {
    failedRequests += 1;
    throw new ccxt.NetworkError(`binance ${method} ${url} failed: connect ECONNREFUSED`);
  }
  return binance.transport(url, method, headers, body);
};

before(async () => {
  hooksUrl = await hooks.start();
  t = await startTestApp({}, { connector: new CcxtConnector({ transport, rateLimit: false, pollIntervalMs: 20 }), notificationPollMs: 25 });
});
after(async () => {
  await t.close();
  await hooks.close();
});

describe('an exchange that stops answering', () => {
  it('is told to the account’s owner once when lost and once when recovered', async () => {
    const { credentials: user } = await newUser(t);
    const account = await postJson(t, '/ver1/accounts/new', { type: 'binance', name: 'My Binance', ...KEY }, user);
    assert.equal(account.status, 201, account.text);
    const target = await postJson(t, '/ext/notifications', { type: 'webhook', url: `${hooksUrl}/hook`, secret: 'a webhook secret of some length' }, user);
    assert.equal(target.status, 201, target.text);
    // A buy resting far below the market keeps the engine polling the account's orders and prices.
    const trade = await postJson(t, '/v2/smart_trades', {
      account_id: account.body.id, pair: 'USDT_BTC', position: { type: 'buy', order_type: 'limit', units: { value: '0.001' }, price: { value: '50000' } },
      take_profit: { enabled: false }, stop_loss: { enabled: false },
    }, user);
    assert.equal(trade.status, 201, trade.text);

    down = true;
    const [lost] = await hooks.waitFor((r) => r.json().event === 'exchange_connection_lost');
    const data = lost!.json().data;
    assert.deepEqual(
      [data.account_id, data.account_name, data.exchange, data.market_code, data.failed_requests],
      [account.body.id, 'My Binance', 'Binance', 'binance', 3],
    );
    assert.ok(Date.parse(data.since) <= Date.parse(data.at));
    assert.match(data.error, /^Binance: .*ECONNREFUSED/);
    assert.ok(!lost!.body.includes('signature=') && !lost!.body.includes(KEY.secret), lost!.body);
    assert.match(
      lost!.json().text,
      /^Exchange account "My Binance" \(Binance\) cannot be reached since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(3 requests failed in a row\): Binance: .*\. Its bots' orders wait until it is back\.$/,
    );
    // Polls go on failing; the outage is told once.
    const failedAtLost = failedRequests;
    const until = Date.now() + 30_000;
    while (failedRequests < failedAtLost + 10 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));

    down = false;
    const [recovered] = await hooks.waitFor((r) => r.json().event === 'exchange_connection_recovered');
    assert.equal(recovered!.json().data.since, data.since);
    assert.match(recovered!.json().text, /^Exchange account "My Binance" \(Binance\) is reachable again, after \d+ s without a connection \(since .* UTC\)\.$/);
    await t.core.notificationWorker.runPass();
    assert.deepEqual(hooks.received.map((r) => r.json().event), ['exchange_connection_lost', 'exchange_connection_recovered']);
    assert.ok(failedRequests >= failedAtLost + 10, `${failedRequests} requests failed`);
  });
});
