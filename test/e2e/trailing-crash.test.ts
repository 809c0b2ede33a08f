/**
 * Kills the real server with SIGKILL while a SmartTrade trails its stop loss up. Those moves are
 * not stored one by one: each batch logs its ticks instead (src/engine/deferred-changes.ts). After
 * the restart the trade must stand where the ticks took it, and close where an uninterrupted
 * server would have closed it.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { ProcessClient, type ProcessKey } from '../support/process-client.ts';
import { serverEnv, TradeloopProcesses, type RunningServer } from '../support/tradeloop-process.ts';

describe('a server killed with SIGKILL while a SmartTrade trails its stop', { concurrency: 1, timeout: 120_000 }, () => {
  const processes = new TradeloopProcesses();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradeloop-trailing-'));
  const env = serverEnv(dataDir, { PAPER_SLIPPAGE_BPS: '0' });
  let admin: ProcessClient;

  const connect = (running: RunningServer, trader?: ProcessKey) => {
    const key = JSON.parse(fs.readFileSync(path.join(dataDir, 'admin-key.json'), 'utf8'));
    admin = new ProcessClient(running.port, { apiKey: key.api_key, secret: key.secret });
    return trader && new ProcessClient(running.port, trader);
  };
  const tick = async (price: string) => {
    const response = await admin.call('POST', '/ext/paper/ticks', { market_code: 'paper_trading', ticks: [{ pair: 'USDT_ETH', price }] });
    assert.equal(response.status, 200, JSON.stringify(response.body));
  };

  after(() => {
    processes.killAll();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('stands where the logged ticks took it after the restart, and closes at its trailed stop', async () => {
    let server = await processes.serve(env);
    connect(server);
    assert.equal((await admin.call('POST', '/ext/users', { name: 'trader' })).status, 201);
    const key = await admin.call('POST', '/ext/api_keys', { user: 'trader', name: 't', permissions: 'SMART_TRADES_READ,SMART_TRADES_WRITE,ACCOUNTS_READ' });
    assert.equal(key.status, 201, JSON.stringify(key.body));
    const trader = { apiKey: key.body.api_key, secret: key.body.secret };
    let client = connect(server, trader)!;
    const accountId = (await client.call('GET', '/ver1/accounts')).body[0].id;
    await tick('2000');
    const created = await client.call('POST', '/v2/smart_trades', {
      account_id: accountId,
      pair: 'USDT_ETH',
      position: { type: 'buy', order_type: 'market', units: { value: '0.5' } },
      take_profit: { enabled: true, steps: [{ order_type: 'limit', price: { value: '3000', type: 'last' }, volume: '100' }] },
      stop_loss: {
        enabled: true,
        order_type: 'market',
        conditional: { price: { type: 'last', percent: '5' }, trailing: { enabled: true, percent: '5' } },
      },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const show = async () => (await client.call('GET', `/v2/smart_trades/${created.body.id}`)).body;
    for (const price of ['2100', '2250', '2400', '2300']) await tick(price);
    assert.equal((await show()).stop_loss.conditional.price.value, '2280');

    await server.stop('SIGKILL');
    server = await processes.serve(env);
    client = connect(server, trader)!;
    const resumed = await show();
    assert.deepEqual([resumed.status.type, resumed.stop_loss.conditional.price.value], ['waiting_targets', '2280']);

    await tick('2281');
    assert.equal((await show()).status.type, 'waiting_targets');
    await tick('2279');
    const done = await show();
    assert.deepEqual([done.status.type, done.data.average_close_price_without_commission], ['stop_loss_finished', '2279']);
    assert.equal(await server.stop('SIGTERM'), 0);
  });
});
