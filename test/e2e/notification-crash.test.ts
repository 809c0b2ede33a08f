/**
 * Kills the real server with SIGKILL after a notification was committed to the outbox and while
 * its webhook delivery is under way (the receiver holds the request unanswered), then starts the
 * server again on the same data directory: the notification is delivered, and accepted exactly
 * once, with the same delivery id.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openPglite } from '../../src/store/pglite-database.ts';
import { LoopbackReceiver } from '../support/loopback-receiver.ts';
import { ProcessClient } from '../support/process-client.ts';
import { serverEnv, TradeloopProcesses, type RunningServer } from '../support/tradeloop-process.ts';
import { botBody } from '../scenarios/dca-support.ts';

describe('a server killed between a notification’s commit and its delivery', { concurrency: 1, timeout: 300_000 }, () => {
  const processes = new TradeloopProcesses();
  const receiver = new LoopbackReceiver();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradeloop-notify-crash-'));
  const env = serverEnv(dataDir, { PAPER_SLIPPAGE_BPS: '0' });
  let server: RunningServer;
  let receiverUrl: string;

  before(async () => {
    receiverUrl = await receiver.start();
  });

  after(async () => {
    processes.killAll();
    await receiver.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers it once after the restart', async () => {
    server = await processes.serve(env);
    const key = JSON.parse(fs.readFileSync(path.join(dataDir, 'admin-key.json'), 'utf8'));
    const admin = new ProcessClient(server.port, { apiKey: key.api_key, secret: key.secret });
    assert.equal((await admin.call('POST', '/ext/users', { name: 'trader' })).status, 201);
    const created = await admin.call('POST', '/ext/api_keys', { user: 'trader', name: 'bots', permissions: 'BOTS_READ,BOTS_WRITE,ACCOUNTS_READ' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const trader = new ProcessClient(server.port, { apiKey: created.body.api_key, secret: created.body.secret });
    const target = await trader.call('POST', '/ext/notifications', {
      type: 'webhook', url: `${receiverUrl}/hook`, secret: 'the receiver’s shared secret', events: ['deal_opened'],
    });
    assert.equal(target.status, 201, JSON.stringify(target.body));
    assert.equal((await admin.call('POST', '/ext/paper/ticks', { market_code: 'paper_trading', ticks: [{ pair: 'USDT_ETH', price: '100' }] })).status, 200);

    receiver.answer = () => 'hold';
    const accountId = (await trader.call('GET', '/ver1/accounts')).body[0].id;
    const bot = await trader.call('POST', '/ver1/bots/create_bot', botBody(accountId));
    assert.equal(bot.status, 201, JSON.stringify(bot.body));
    assert.equal((await trader.call('POST', `/ver1/bots/${bot.body.id}/enable`, {})).status, 201);
    const [held] = await receiver.waitFor((request) => request.path === '/hook');
    const deliveryId = held!.headers['x-tradeloop-delivery'];
    assert.equal(held!.json().event, 'deal_opened');
    await server.stop('SIGKILL');

    receiver.answer = () => ({ status: 200 });
    server = await processes.serve(env);
    // Alone on its embedded database, the restarted server takes the dead one's claim back at once.
    const deliveries = await receiver.waitFor((request) => request.path === '/hook', 2, 90_000);
    assert.equal(deliveries[1]!.headers['x-tradeloop-delivery'], deliveryId);
    assert.equal(deliveries[1]!.body, held!.body);
    const shown = await new ProcessClient(server.port, { apiKey: created.body.api_key, secret: created.body.secret }).call('GET', `/ext/notifications/${target.body.id}`);
    assert.equal(shown.body.status, 'active');
    assert.equal(await server.stop('SIGTERM'), 0);

    assert.equal(receiver.received.filter((request) => request.path === '/hook').length, 2, 'the held attempt and one delivery');
    const db = await openPglite({ dataDir: path.join(dataDir, 'pgdata') });
    try {
      const rows = await db.query<{ event: string; status: string; attempts: number }>(
        `SELECT o.event, d.status, d.attempts FROM notification_outbox o JOIN notification_deliveries d ON d.outbox_id = o.id`,
      );
      assert.deepEqual(rows, [{ event: 'deal_opened', status: 'delivered', attempts: 1 }]);
    } finally {
      await db.close();
    }
  });
});
