/**
 * /ext/notifications and what it sends: targets checked and their secrets kept sealed, signed
 * webhooks for a DCA deal's life, per-event filters, grid cycles summed per minute, the daily
 * summary, a fake Telegram Bot API, and a target that keeps failing being retried and then marked
 * failing. Every receiver is a loopback server.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { newUser, postJson, assertRecordInvalid, setPrices } from '../support/api.ts';
import { LoopbackReceiver, type ReceivedRequest } from '../support/loopback-receiver.ts';
import type { Credentials } from '../support/signing.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { botBody } from '../scenarios/dca-support.ts';

const START = Date.parse('2026-03-02T10:00:10Z');
let nowMs = START;
const clock = () => new Date(nowMs);
const SECRET = 'a webhook secret of some length';
const TOKEN = '123456789:AAFakeTokenForLoopbackTestsOnly_xyz';

let t: TestApp;
let admin: Credentials;
const hooks = new LoopbackReceiver();
const telegram = new LoopbackReceiver();
let hooksUrl: string;

before(async () => {
  hooksUrl = await hooks.start();
  const telegramUrl = await telegram.start();
  t = await startTestApp(
    { PAPER_SLIPPAGE_BPS: '0', TELEGRAM_API_URL: telegramUrl },
    { now: clock, notificationPollMs: 25, notificationRetryDelaysMs: [20, 20] },
  );
  admin = await t.createKey({ user: 'operator', permissions: ['ADMIN'] });
  await setPrices(t, admin, { USDT_ETH: '100', USDT_BTC: '20000' });
});
after(async () => {
  await t.close();
  await hooks.close();
  await telegram.close();
});

const create = (user: Credentials, body: unknown) => postJson(t, '/ext/notifications', body, user);
const webhook = (path: string, extra: Record<string, unknown> = {}) => ({ type: 'webhook', url: `${hooksUrl}${path}`, secret: SECRET, ...extra });
const at = (path: string) => (request: ReceivedRequest) => request.path === path;

async function dealBot(user: Credentials, accountId: number): Promise<number> {
  const created = await postJson(t, '/ver1/bots/create_bot', botBody(accountId, { strategy_list: [{ strategy: 'nonstop', options: {} }] }), user);
  assert.equal(created.status, 201, created.text);
  assert.equal((await postJson(t, `/ver1/bots/${created.body.id}/enable`, {}, user)).status, 201);
  return created.body.id;
}

describe('notification targets', () => {
  it('are created, listed, changed and removed, and never show their secret', async () => {
    const { credentials: user } = await newUser(t);
    const created = await create(user, webhook('/crud', { name: 'my hook', events: ['deal_closed'] }));
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.type, 'webhook');
    assert.equal(created.body.secret_set, true);
    assert.deepEqual(created.body.events, ['deal_closed']);
    assert.equal(created.body.status, 'active');
    assert.ok(!created.text.includes(SECRET));
    const stored = await t.core.db.query<{ secret_sealed: string }>('SELECT secret_sealed FROM notification_targets WHERE id = $1', [created.body.id]);
    assert.ok(stored[0]!.secret_sealed.startsWith('v1.') && !stored[0]!.secret_sealed.includes(SECRET));

    const bot = await create(user, { type: 'telegram', bot_token: TOKEN, chat_id: -100123 });
    assert.equal(bot.status, 201, bot.text);
    assert.equal(bot.body.chat_id, '-100123');
    assert.ok(!bot.text.includes(TOKEN) && !bot.text.includes('AAFake'));

    const listed = await t.request({ path: '/ext/notifications', credentials: user });
    assert.deepEqual(listed.body.map((target: { id: number }) => target.id), [created.body.id, bot.body.id]);
    assert.ok(!listed.text.includes(SECRET) && !listed.text.includes(TOKEN));

    const changed = await t.request({ method: 'PATCH', path: `/ext/notifications/${created.body.id}`, body: JSON.stringify({ events: [], enabled: false }), contentType: 'application/json', credentials: user });
    assert.equal(changed.status, 200, changed.text);
    assert.deepEqual([changed.body.events, changed.body.enabled], [[], false]);

    const { credentials: stranger } = await newUser(t);
    assert.equal((await t.request({ path: `/ext/notifications/${created.body.id}`, credentials: stranger })).status, 404);
    assert.equal((await t.request({ method: 'DELETE', path: `/ext/notifications/${created.body.id}`, credentials: stranger })).status, 404);
    assert.equal((await t.request({ method: 'DELETE', path: `/ext/notifications/${created.body.id}`, credentials: user })).status, 200);
    assert.equal((await t.request({ path: `/ext/notifications/${created.body.id}`, credentials: user })).status, 404);
  });

  it('name the fields that are wrong', async () => {
    const { credentials: user } = await newUser(t);
    assertRecordInvalid(await create(user, { type: 'webhook', secret: 'short' }), {
      url: ['is required for a webhook'],
      secret: ['must be at least 16 characters'],
    });
    assertRecordInvalid(await create(user, webhook('/x', { url: 'ftp://example.test/', events: ['deal_opened', 'moon_landing'] })), {
      url: ['must be an http:// or https:// URL'],
      events: [`has unknown events (moon_landing); known are deal_opened, safety_order_filled, deal_closed, stop_loss_triggered, smart_trade_closed, grid_cycles_completed, bot_disabled, exchange_connection_lost, exchange_connection_recovered, daily_summary`],
    });
    assertRecordInvalid(await create(user, { type: 'telegram', chat_id: 'not a chat', url: 'http://127.0.0.1/' }), {
      url: ['is not a setting of telegram targets'],
      bot_token: ['is required for a telegram target'],
      chat_id: ['must be a numeric chat id or an @channel name'],
    });
    assertRecordInvalid(await create(user, {}), { type: ['is required: webhook or telegram'] });
    const wrongType = await create(user, { type: 'pager' });
    assert.equal(wrongType.status, 400, wrongType.text);
    assert.ok(wrongType.text.includes('type'), wrongType.text);
    assert.deepEqual((await t.request({ path: '/ext/notifications', credentials: user })).body, []);
  });
});

describe('webhooks', () => {
  it('are signed and tell a deal opening and closing with its profit; a filter keeps only its events', async () => {
    const { credentials: user, accountId } = await newUser(t);
    assert.equal((await create(user, webhook('/all'))).status, 201);
    assert.equal((await create(user, webhook('/closed', { events: ['deal_closed'] }))).status, 201);
    const botId = await dealBot(user, accountId);

    const [opened] = await hooks.waitFor((r) => r.path === '/all' && r.json().event === 'deal_opened' && r.json().data.bot_id === botId);
    const timestamp = opened!.headers['x-tradeloop-timestamp'] as string;
    const expected = createHmac('sha256', SECRET).update(`${timestamp}.${opened!.body}`).digest('hex');
    assert.equal(opened!.headers['x-tradeloop-signature'], `sha256=${expected}`);
    assert.equal(opened!.headers['x-tradeloop-event'], 'deal_opened');
    assert.equal(opened!.headers['x-tradeloop-delivery'], String(opened!.json().id));
    assert.equal(opened!.json().data.pair, 'USDT_ETH');
    assert.match(opened!.json().text, /^Bot "test bot", USDT_ETH deal #\d+ opened: bought [\d.]+ ETH for [\d.]+ USDT \(average price 100 USDT\)\.$/);

    await setPrices(t, admin, { USDT_ETH: '103' });
    const [closed] = await hooks.waitFor((r) => r.path === '/closed' && r.json().data.bot_id === botId);
    assert.equal(closed!.json().event, 'deal_closed');
    assert.equal(closed!.json().data.status, 'completed');
    assert.ok(Number(closed!.json().data.final_profit) > 0);
    assert.match(closed!.json().text, /took profit: profit [\d.]+ USDT/);
    await hooks.waitFor((r) => r.path === '/all' && r.json().event === 'deal_closed' && r.json().data.bot_id === botId);
    // The filtered target got the close and nothing else of this bot.
    await t.core.notificationWorker.runPass();
    const filtered = hooks.received.filter((r) => r.path === '/closed' && r.json().data.bot_id === botId);
    assert.deepEqual(filtered.map((r) => r.json().event), filtered.map(() => 'deal_closed'));
    await postJson(t, `/ver1/bots/${botId}/disable`, {}, user);
  });

  it('that keep failing are retried, then marked failing with the reason, and a change makes them active again', async () => {
    const { credentials: user, accountId } = await newUser(t);
    const created = await create(user, webhook('/broken', { events: ['deal_opened'] }));
    hooks.answer = (request) => (request.path === '/broken' ? { status: 503, body: { down: true } } : { status: 200 });
    try {
      const botId = await dealBot(user, accountId);
      // Retries wait on the worker's clock, the server's one clock: it moves on once each failed
      // attempt is stored, so the retry falls due.
      const attemptsStored = async () => {
        const rows = await t.core.db.query<{ attempts: number }>('SELECT attempts FROM notification_deliveries WHERE target_id = $1', [created.body.id]);
        return rows[0]?.attempts ?? 0;
      };
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        await hooks.waitFor(at('/broken'), attempt);
        // PGlite answers without giving the event loop a turn: each round yields, or the
        // worker's HTTP reply could wait until the deadline.
        const until = Date.now() + 30_000;
        while ((await attemptsStored()) < attempt && Date.now() < until) await new Promise((resolve) => setImmediate(resolve));
        nowMs += 1000;
      }
      let target: Record<string, any> = {};
      const until = Date.now() + 30_000;
      while (target.status !== 'failing' && Date.now() < until) {
        target = (await t.request({ path: `/ext/notifications/${created.body.id}`, credentials: user })).body;
      }
      assert.equal(target.status, 'failing');
      assert.equal(target.consecutive_failures, 3);
      assert.match(target.last_error, /^HTTP 503/);
      await t.core.notificationWorker.runPass();
      assert.equal(hooks.received.filter(at('/broken')).length, 3, 'three attempts: the first and two retries');
      const changed = await t.request({ method: 'PATCH', path: `/ext/notifications/${created.body.id}`, body: '{"name":"fixed"}', contentType: 'application/json', credentials: user });
      assert.equal(changed.body.status, 'active');
      await postJson(t, `/ver1/bots/${botId}/disable`, {}, user);
    } finally {
      hooks.answer = () => ({ status: 200 });
    }
  });
});

describe('SmartTrades', () => {
  it('tell a stop loss triggering and the trade ending with its profit, each once', async () => {
    const { credentials: user, accountId } = await newUser(t);
    assert.equal((await create(user, webhook('/smart', { events: ['stop_loss_triggered', 'smart_trade_closed'] }))).status, 201);
    await setPrices(t, admin, { USDT_SOL: '150' });
    const created = await postJson(t, '/v2/smart_trades', {
      account_id: accountId, pair: 'USDT_SOL', position: { type: 'buy', order_type: 'market', units: { value: '1' } },
      take_profit: { enabled: false }, stop_loss: { enabled: true, order_type: 'market', conditional: { price: { type: 'last', value: '140' } } },
    }, user);
    assert.equal(created.status, 201, created.text);
    const tradeId = created.body.id;
    await setPrices(t, admin, { USDT_SOL: '139' });

    const [stop] = await hooks.waitFor((r) => r.path === '/smart' && r.json().event === 'stop_loss_triggered');
    assert.deepEqual(stop!.json().data, { smart_trade_id: tradeId, pair: 'USDT_SOL', base: 'SOL', quote: 'USDT', side: 'buy', trigger_price: '139' });
    assert.equal(stop!.json().text, `SmartTrade #${tradeId}, USDT_SOL (long): Stop Loss triggered at 139 USDT; the position is being closed.`);
    const [closed] = await hooks.waitFor((r) => r.path === '/smart' && r.json().event === 'smart_trade_closed');
    const shown = await t.request({ path: `/v2/smart_trades/${tradeId}`, credentials: user });
    assert.equal(shown.body.status.type, 'stop_loss_finished');
    assert.deepEqual(
      [closed!.json().data.status, closed!.json().data.profit, closed!.json().data.profit_currency],
      ['stop_loss_finished', shown.body.profit.volume, 'USDT'],
    );
    assert.match(closed!.json().text, new RegExp(`^SmartTrade #${tradeId}, USDT_SOL \\(long\\) was closed by Stop Loss: profit -[\\d.]+ USDT \\(-[\\d.]+%\\)\\.$`));
    await t.core.notificationWorker.runPass();
    assert.deepEqual(hooks.received.filter(at('/smart')).map((r) => r.json().event), ['stop_loss_triggered', 'smart_trade_closed']);
  });
});

describe('telegram', () => {
  it('gets sendMessage with the chat and the words, at the configured API, and a test message on request', async () => {
    const { credentials: user, accountId } = await newUser(t);
    const created = await create(user, { type: 'telegram', bot_token: TOKEN, chat_id: '@tradeloop_alerts', events: ['deal_opened'] });
    assert.equal(created.status, 201, created.text);
    const botId = await dealBot(user, accountId);
    const [message] = await telegram.waitFor((r) => r.path === `/bot${TOKEN}/sendMessage` && r.json().text.includes('opened'));
    assert.equal(message!.method, 'POST');
    assert.equal(message!.json().chat_id, '@tradeloop_alerts');
    assert.match(message!.json().text, /^Bot "test bot", USDT_ETH deal #\d+ opened/);

    const tested = await postJson(t, `/ext/notifications/${created.body.id}/test`, {}, user);
    assert.deepEqual(tested.body, { delivered: true });
    await telegram.waitFor((r) => r.json().text === 'Tradeloop test notification: this target works.');

    telegram.answer = () => ({ status: 401, body: { ok: false, description: 'Unauthorized' } });
    try {
      const refused = await postJson(t, `/ext/notifications/${created.body.id}/test`, {}, user);
      assert.equal(refused.body.delivered, false);
      assert.match(refused.body.error, /^HTTP 401/);
      assert.ok(!refused.text.includes(TOKEN));
    } finally {
      telegram.answer = () => ({ status: 200, body: { ok: true } });
    }
    await postJson(t, `/ver1/bots/${botId}/disable`, {}, user);
  });
});

describe('grid cycles and the daily summary', () => {
  it('sum a grid bot’s cycles of one minute into one message, and sum up the day after midnight UTC', async () => {
    const { credentials: user, accountId } = await newUser(t);
    assert.equal((await create(user, webhook('/grid', { events: ['grid_cycles_completed', 'daily_summary'] }))).status, 201);
    await setPrices(t, admin, { USDT_BTC: '20000' });
    const grid = await postJson(t, '/ver1/grid_bots/manual', {
      account_id: accountId, pair: 'USDT_BTC', upper_price: '21000', lower_price: '19000', grids_quantity: 5, quantity_per_grid: '0.001',
    }, user);
    assert.equal(grid.status, 201, grid.text);
    // Down and up across the lines, three times, within one minute of the clock.
    for (let swing = 0; swing < 3; swing += 1) {
      await setPrices(t, admin, { USDT_BTC: '19100' });
      await setPrices(t, admin, { USDT_BTC: '20900' });
    }
    const profits = await t.request({ path: `/ver1/grid_bots/${grid.body.id}/profits`, credentials: user });
    assert.ok(profits.body.length >= 3, profits.text);
    await t.core.notificationWorker.runPass();
    assert.equal(hooks.received.filter(at('/grid')).length, 0, 'nothing before the minute is over');

    nowMs += 70_000;
    const [cycles] = await hooks.waitFor(at('/grid'));
    assert.equal(cycles!.json().event, 'grid_cycles_completed');
    assert.equal(cycles!.json().data.cycles, profits.body.length);
    const total = profits.body.reduce((sum: number, row: { profit: string }) => sum + Number(row.profit), 0);
    assert.ok(Math.abs(Number(cycles!.json().data.profit) - total) < 1e-9);
    assert.equal(cycles!.json().data.pair, 'USDT_BTC');
    assert.match(cycles!.json().text, new RegExp(`^Grid bot ".*" on USDT_BTC completed ${profits.body.length} cycles in the minute from 10:0\\d UTC: profit [\\d.]+ USDT`));

    nowMs = Date.parse('2026-03-03T00:00:30Z');
    const [summary] = await hooks.waitFor((r) => r.path === '/grid' && r.json().event === 'daily_summary');
    assert.equal(summary!.json().data.day, '2026-03-02');
    assert.equal(summary!.json().data.grid_cycles, profits.body.length);
    assert.equal(summary!.json().data.deals_closed, 0);
    assert.match(summary!.json().text, new RegExp(`^Summary of 2026-03-02 \\(UTC\\): 0 deals closed, no profit; ${profits.body.length} grid cycles, [\\d.]+ USDT\\.$`));
    await t.core.notificationWorker.runPass();
    assert.equal(hooks.received.filter((r) => r.path === '/grid' && r.json().event === 'daily_summary').length, 1);
  });
});
