/**
 * Kills the real server with SIGKILL right after it answered a TradingView signal 200 (the signal
 * waits out its delay_seconds of 5 s), then starts it again on the same data directory: the signal's
 * deal is started, and only one. Then kills it the moment it logs that it runs a signal: whether
 * the kill came before or after the deal was stored, after the restart there is one deal.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { callProcess, type ProcessKey } from '../support/process-client.ts';
import { serverEnv, TradeloopProcesses, type RunningServer } from '../support/tradeloop-process.ts';
import { botBody } from '../scenarios/dca-support.ts';

// Between two looks at the bot: asking without a pause only keeps the server from running the signal.
const pause = () => new Promise((resolve) => setTimeout(resolve, 100));
const client = (port: number, key: ProcessKey) => (method: string, route: string, body?: unknown) => callProcess(port, key, method, route, body);

describe('a server killed after answering a TradingView signal', { concurrency: 1, timeout: 300_000 }, () => {
  const processes = new TradeloopProcesses();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradeloop-signal-crash-'));
  const env = serverEnv(dataDir, { PAPER_SLIPPAGE_BPS: '0' });

  let server: RunningServer;

  after(() => {
    processes.killAll();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs the signal once after the restart', async () => {
    server = await processes.serve(env);
    const key = JSON.parse(fs.readFileSync(path.join(dataDir, 'admin-key.json'), 'utf8'));
    const admin = client(server.port, { apiKey: key.api_key, secret: key.secret });
    assert.equal((await admin('POST', '/ext/users', { name: 'trader' })).status, 201);
    const created = await admin('POST', '/ext/api_keys', { user: 'trader', name: 'bots', permissions: 'BOTS_READ,BOTS_WRITE,ACCOUNTS_READ' });
    const trader = { apiKey: created.body.api_key as string, secret: created.body.secret as string };
    let call = client(server.port, trader);
    assert.equal((await admin('POST', '/ext/paper/ticks', { market_code: 'paper_trading', ticks: [{ pair: 'USDT_ETH', price: '100' }] })).status, 200);
    const accountId = (await call('GET', '/ver1/accounts')).body[0].id;
    const bot = await call('POST', '/ver1/bots/create_bot', botBody(accountId, { strategy_list: [{ strategy: 'tv_custom_signal' }], max_active_deals: 3 }));
    assert.equal(bot.status, 201, JSON.stringify(bot.body));
    assert.equal((await call('POST', `/ver1/bots/${bot.body.id}/enable`, {})).status, 201);

    const answer = await fetch(`http://127.0.0.1:${server.port}/trade_signal/trading_view`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ message_type: 'bot', bot_id: bot.body.id, email_token: bot.body.email_token, delay_seconds: 5, pair: 'USDT_ETH' }),
    });
    assert.equal(answer.status, 200);
    assert.equal(((await answer.json()) as { status: string }).status, 'pending');
    await server.stop('SIGKILL');

    server = await processes.serve(env);
    call = client(server.port, trader);
    // The manual feed starts without prices; the market is back before the delay ends.
    const restartedAdmin = client(server.port, { apiKey: key.api_key, secret: key.secret });
    assert.equal((await restartedAdmin('POST', '/ext/paper/ticks', { market_code: 'paper_trading', ticks: [{ pair: 'USDT_ETH', price: '100' }] })).status, 200);
    const until = Date.now() + 60_000;
    let events: string[] = [];
    while (!events.some((message) => message.startsWith('TradingView signal')) && Date.now() < until) {
      await pause();
      const shown = await call('GET', `/ver1/bots/${bot.body.id}/show?include_events=true`);
      events = shown.body.bot_events.map((event: { message: string }) => event.message);
    }
    const outcomes = events.filter((message) => message.startsWith('TradingView signal'));
    assert.equal(outcomes.length, 1, events.join('\n'));
    assert.match(outcomes[0]!, /^TradingView signal done: deal \d+ started on USDT_ETH$/);
    const deals = await call('GET', `/ver1/deals?bot_id=${bot.body.id}`);
    assert.equal(deals.body.length, 1, JSON.stringify(deals.body));
  });

  it('runs a signal once after a kill while it ran', async () => {
    const adminKey = () => {
      const key = JSON.parse(fs.readFileSync(path.join(dataDir, 'admin-key.json'), 'utf8'));
      return { apiKey: key.api_key as string, secret: key.secret as string };
    };
    const admin = client(server.port, adminKey());
    const created = await admin('POST', '/ext/api_keys', { user: 'trader', name: 'more bots', permissions: 'BOTS_READ,BOTS_WRITE,ACCOUNTS_READ' });
    const trader = { apiKey: created.body.api_key as string, secret: created.body.secret as string };
    let call = client(server.port, trader);
    const tick = async () => {
      assert.equal((await client(server.port, adminKey())('POST', '/ext/paper/ticks', { market_code: 'paper_trading', ticks: [{ pair: 'USDT_ETH', price: '100' }] })).status, 200);
    };
    await tick();
    const accountId = (await call('GET', '/ver1/accounts')).body[0].id;
    const bot = await call('POST', '/ver1/bots/create_bot', botBody(accountId, { strategy_list: [{ strategy: 'tv_custom_signal' }], max_active_deals: 3 }));
    assert.equal(bot.status, 201, JSON.stringify(bot.body));
    assert.equal((await call('POST', `/ver1/bots/${bot.body.id}/enable`, {})).status, 201);

    const killed = server.stopOn('TradingView signal running', 'SIGKILL');
    const answer = await fetch(`http://127.0.0.1:${server.port}/trade_signal/trading_view`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ message_type: 'bot', bot_id: bot.body.id, email_token: bot.body.email_token, delay_seconds: 1, pair: 'USDT_ETH' }),
    });
    assert.equal(answer.status, 200);
    const { signal_id: signalId } = (await answer.json()) as { signal_id: string };
    await killed;

    server = await processes.serve(env);
    call = client(server.port, trader);
    await tick();
    const until = Date.now() + 60_000;
    let outcomes: string[] = [];
    while (outcomes.length === 0 && Date.now() < until) {
      await pause();
      const shown = await call('GET', `/ver1/bots/${bot.body.id}/show?include_events=true`);
      outcomes = shown.body.bot_events.map((event: { message: string }) => event.message).filter((message: string) => message.startsWith('TradingView signal'));
    }
    assert.equal(outcomes.length, 1, outcomes.join('\n'));
    assert.match(outcomes[0]!, /^TradingView signal done: deal \d+ started on USDT_ETH( \(found done after a restart\))?$/);
    const deals = await call('GET', `/ver1/deals?bot_id=${bot.body.id}`);
    assert.equal(deals.body.length, 1, JSON.stringify(deals.body));
    assert.match(server.output(), new RegExp(`"signalId":"${signalId}"[^\n]*TradingView signal running`));
    assert.equal(await server.stop('SIGTERM'), 0);
  });
});
