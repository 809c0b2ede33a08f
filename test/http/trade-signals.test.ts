/**
 * TradingView custom signals: the bot's email_token, the signal route at both paths, each action,
 * the refusals (with the bot's log), the delay on the engine's clock, a signal repeated, a signal
 * stored before a restart, and the sender checks.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { SignalActions } from '../../src/signals/signal-actions.ts';
import { SignalsService } from '../../src/signals/signals.service.ts';
import { SqlSignalsRepository } from '../../src/store/signals.repository.ts';
import { newUser, postJson, setPrices } from '../support/api.ts';
import type { Credentials } from '../support/signing.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { botBody } from '../scenarios/dca-support.ts';

const START = Date.parse('2026-03-02T10:00:00Z');
let nowMs = START;
const clock = () => new Date(nowMs);

let t: TestApp;
let admin: Credentials;
before(async () => {
  t = await startTestApp({ PAPER_SLIPPAGE_BPS: '0' }, { now: clock });
  admin = await t.createKey({ user: 'operator', permissions: ['ADMIN'] });
  await setPrices(t, admin, { USDT_ETH: '100', USDT_BTC: '20000' });
});
after(() => t.close());

interface SignalBot {
  id: number;
  email_token: string;
  user: Credentials;
}

async function signalBot(overrides: Record<string, unknown> = {}, enable = true): Promise<SignalBot> {
  const { credentials: user, accountId } = await newUser(t);
  const body = botBody(accountId, { strategy_list: [{ strategy: 'tv_custom_signal' }], ...overrides });
  const created = await postJson(t, '/ver1/bots/create_bot', body, user);
  assert.equal(created.status, 201, created.text);
  if (enable) assert.equal((await postJson(t, `/ver1/bots/${created.body.id}/enable`, {}, user)).status, 201);
  return { id: created.body.id, email_token: created.body.email_token, user };
}

/** Posts the alert text as TradingView does: text/plain, at the reference's path. */
async function signal(body: Record<string, unknown>, path = '/trade_signal/trading_view') {
  const response = await fetch(`${t.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

const forBot = (bot: SignalBot, extra: Record<string, unknown> = {}) => ({ message_type: 'bot', bot_id: bot.id, email_token: bot.email_token, delay_seconds: 0, ...extra });

async function activeDeals(bot: SignalBot): Promise<Array<Record<string, any>>> {
  const response = await t.request({ path: `/ver1/deals?bot_id=${bot.id}&scope=active`, credentials: bot.user });
  assert.equal(response.status, 200, response.text);
  return response.body;
}

async function botLog(bot: SignalBot): Promise<string[]> {
  const shown = await t.request({ path: `/ver1/bots/${bot.id}/show?include_events=true`, credentials: bot.user });
  return shown.body.bot_events.map((event: { message: string }) => event.message);
}

describe('the email token', () => {
  it('is a UUID of each bot, shown to its owner and stable', async () => {
    const first = await signalBot();
    const second = await signalBot();
    assert.match(first.email_token, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.notEqual(first.email_token, second.email_token);
    const shown = await t.request({ path: `/ver1/bots/${first.id}/show`, credentials: first.user });
    assert.equal(shown.body.email_token, first.email_token);
    assert.deepEqual(shown.body.strategy_list, [{ strategy: 'tv_custom_signal', options: {} }]);
  });
});

describe('signals', () => {
  it('start a deal, once for a repeated delivery, and write the outcome to the bot log', async () => {
    const bot = await signalBot({ max_active_deals: 2 });
    const first = await signal(forBot(bot, { pair: 'USDT_ETH' }));
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const [deal] = await activeDeals(bot);
    assert.deepEqual(first.body, { signal_id: first.body.signal_id, status: 'done', run_at: new Date(START).toISOString(), outcome: `deal ${deal!.id} started on USDT_ETH` });
    const repeated = await signal(forBot(bot, { pair: 'USDT_ETH' }), '/public/api/trade_signal/trading_view');
    assert.deepEqual(repeated, first);
    assert.equal((await activeDeals(bot)).length, 1);
    assert.ok((await botLog(bot)).includes(`TradingView signal done: deal ${deal!.id} started on USDT_ETH`));
  });

  it('add funds in quote, close the pair at market, and close every deal', async () => {
    const bot = await signalBot({ pairs: ['USDT_ETH', 'USDT_BTC'], max_active_deals: 3 });
    assert.equal((await signal(forBot(bot, { pair: 'USDT_ETH' }))).status, 200);
    assert.equal((await signal(forBot(bot, { pair: 'USDT_BTC' }))).status, 200);
    const [eth, btc] = (await activeDeals(bot)).sort((a, b) => a.id - b.id);
    const added = await signal(forBot(bot, { pair: 'USDT_ETH', action: 'add_funds_in_quote', volume: 50 }));
    assert.equal(added.body.outcome, `0.5 ETH (50 USDT) added to deal ${eth!.id} at market`);
    const ethDeal = (await t.request({ path: `/ver1/deals/${eth!.id}/show`, credentials: bot.user })).body;
    assert.equal(ethDeal.bought_amount, '1.5');
    const closed = await signal(forBot(bot, { pair: 'USDT_ETH', action: 'close_at_market_price' }));
    assert.equal(closed.body.outcome, `deal ${eth!.id} closed at market`);
    assert.deepEqual((await activeDeals(bot)).map((deal) => deal.id), [btc!.id]);
    nowMs += 1000;
    const all = await signal(forBot(bot, { action: 'close_at_market_price_all' }));
    assert.equal(all.body.outcome, `deal ${btc!.id} closed at market`);
    assert.deepEqual(await activeDeals(bot), []);
    nowMs += 1000;
    const nothing = await signal(forBot(bot, { action: 'close_at_market_price_all' }));
    assert.deepEqual([nothing.status, nothing.body], [422, { error: 'unprocessable_entity', error_description: 'The bot has no active deal to close' }]);
  });

  it('wait delay_seconds on the engine clock', async () => {
    const bot = await signalBot();
    const delayed = await signal(forBot(bot, { delay_seconds: 60 }));
    assert.deepEqual([delayed.status, delayed.body.status, delayed.body.run_at], [200, 'pending', new Date(nowMs + 60_000).toISOString()]);
    await t.core.signals.runDue();
    assert.deepEqual(await activeDeals(bot), []);
    nowMs += 60_000;
    await t.core.signals.runDue();
    assert.equal((await activeDeals(bot)).length, 1);
  });

  it('refuse what the bot cannot take, saying why in the answer and in its log, and change nothing', async () => {
    const disabled = await signalBot({}, false);
    const notTv = await signalBot({ strategy_list: [{ strategy: 'manual' }] });
    const full = await signalBot();
    assert.equal((await signal(forBot(full))).status, 200);
    nowMs += 1000;
    const cases: Array<[SignalBot, Record<string, unknown>, number, Record<string, unknown>]> = [
      [disabled, {}, 422, { error: 'unprocessable_entity', error_description: 'The bot is disabled' }],
      [notTv, {}, 422, { error: 'unprocessable_entity', error_description: 'The bot does not take TradingView signals: add {"strategy":"tv_custom_signal"} to its strategy_list' }],
      [full, { pair: 'USDT_BTC' }, 422, { error: 'unprocessable_entity', error_description: "USDT_BTC is not one of the bot's pairs" }],
    ];
    for (const [bot, extra, status, body] of cases) {
      const answer = await signal(forBot(bot, extra));
      assert.deepEqual([answer.status, answer.body], [status, body]);
      assert.ok((await botLog(bot)).includes(`TradingView signal refused: ${body.error_description}`), JSON.stringify(await botLog(bot)));
    }
    const limited = await signal(forBot(full));
    assert.equal(limited.status, 422);
    assert.match(limited.body.error_description, /active deals/i);
    assert.ok((await botLog(full)).some((message) => message.startsWith('TradingView signal failed:')));
    assert.equal((await activeDeals(full)).length, 1);
    assert.deepEqual(await activeDeals(disabled), []);
  });

  it('name missing or malformed fields', async () => {
    const answer = await signal({ bot_id: 'x', delay_seconds: -1, action: 'sell' });
    assert.equal(answer.status, 400);
    assert.deepEqual(Object.keys(answer.body.error_attributes).sort(), ['action', 'bot_id', 'delay_seconds', 'email_token']);
    const bot = await signalBot();
    const noVolume = await signal(forBot(bot, { action: 'add_funds_in_quote' }));
    assert.deepEqual(noVolume.body.error_attributes, { volume: ['is missing'] });
  });

  const newService = (store = new SqlSignalsRepository(t.core.db)) =>
    new SignalsService(store, t.core.engine, new SignalActions(t.core.dcaBots, t.core.deals, t.core.accounts, t.core.markets), clock, t.core.logger, true);

  it('are run once after a restart that came between the answer and the run', async () => {
    const bot = await signalBot();
    nowMs += 1000;
    const answer = await signal(forBot(bot, { delay_seconds: 30 }));
    assert.equal(answer.body.status, 'pending');
    // The server stops before the delay ends; a new process over the same database takes over.
    await t.core.signals.stop();
    nowMs += 30_000;
    const restarted = newService();
    await restarted.start();
    await restarted.runDue();
    await restarted.stop();
    assert.equal((await activeDeals(bot)).length, 1);
    const again = newService();
    await again.start();
    await again.stop();
    assert.equal((await activeDeals(bot)).length, 1);
    assert.equal((await botLog(bot)).filter((message) => message.startsWith('TradingView signal done')).length, 1);
    await t.core.signals.start();
  });

  it('taken but not run when the server stopped are run once after the restart', async () => {
    const bot = await signalBot();
    const store = new SqlSignalsRepository(t.core.db);
    const at = clock();
    await store.insert({ id: 'taken-before-a-crash', botId: bot.id, sender: '127.0.0.1', body: forBot(bot), receivedAt: at, runAt: at });
    await t.core.signals.stop();
    assert.equal((await store.claimDue(at, new Date(at.getTime() + 60_000), 'a process that dies'))?.id, 'taken-before-a-crash');
    const restarted = newService();
    await restarted.start();
    await restarted.stop();
    await t.core.signals.start();
    const [deal] = await activeDeals(bot);
    const stored = await store.get('taken-before-a-crash');
    assert.deepEqual([stored!.status, stored!.outcome], ['done', `deal ${deal!.id} started on USDT_ETH`]);
    assert.equal((await activeDeals(bot)).length, 1);
  });

  it('run but not finished when the server stopped are done after the restart, with no second effect', async () => {
    const bot = await signalBot({ max_active_deals: 3 });
    /** The process dies once the action took effect, before the signal's outcome is stored. */
    class DiesBeforeTheOutcome extends SqlSignalsRepository {
      override async finish(): Promise<boolean> {
        throw new Error('the process died');
      }
    }
    const store = new SqlSignalsRepository(t.core.db);
    const at = clock();
    await t.core.signals.stop();
    for (const [id, extra] of [['started-then-died', { pair: 'USDT_ETH' }], ['funds-then-died', { pair: 'USDT_ETH', action: 'add_funds_in_quote', volume: 50 }]] as const) {
      await store.insert({ id, botId: bot.id, sender: '127.0.0.1', body: forBot(bot, extra), receivedAt: at, runAt: at });
      const dying = newService(new DiesBeforeTheOutcome(t.core.db));
      await dying.runDue();
      assert.equal((await store.get(id))!.status, 'running');
    }
    const [deal] = await activeDeals(bot);
    assert.equal((await t.request({ path: `/ver1/deals/${deal!.id}/show`, credentials: bot.user })).body.bought_amount, '1.5');

    const restarted = newService();
    await restarted.start();
    await restarted.stop();
    await t.core.signals.start();
    assert.deepEqual(
      [(await store.get('started-then-died'))!.outcome, (await store.get('funds-then-died'))!.outcome],
      [`deal ${deal!.id} started on USDT_ETH (found done after a restart)`, `funds added to deal ${deal!.id} at market (found done after a restart)`],
    );
    assert.equal((await activeDeals(bot)).length, 1);
    assert.equal((await t.request({ path: `/ver1/deals/${deal!.id}/show`, credentials: bot.user })).body.bought_amount, '1.5');
    assert.equal((await botLog(bot)).filter((message) => message.startsWith('TradingView signal done')).length, 2);
  });

  it('with a wrong token get 401, an unknown bot 404, and a sender that keeps failing 429', async () => {
    const bot = await signalBot();
    const wrong = await signal(forBot(bot, { email_token: '00000000-0000-4000-8000-000000000000' }));
    assert.deepEqual([wrong.status, wrong.body], [401, { error: 'email_token_invalid', error_description: 'The email_token is not the token of this bot' }]);
    const unknown = await signal(forBot(bot, { bot_id: 999999 }));
    assert.deepEqual([unknown.status, unknown.body], [404, { error: 'Not found' }]);
    let last = unknown;
    for (let attempt = 0; attempt < 10 && last.status !== 429; attempt += 1) last = await signal(forBot(bot, { email_token: 'guess' }));
    assert.equal(last.status, 429);
    assert.equal((await signal(forBot(bot))).status, 429);
  });
});

describe('sender checks', () => {
  let guarded: TestApp;
  before(async () => {
    guarded = await startTestApp({ SIGNAL_ALLOWED_IPS: '52.89.214.238', SIGNAL_HMAC_SECRET: 'shared secret' });
  });
  after(() => guarded.close());

  const inject = (remoteAddress: string, headers: Record<string, string> = {}) =>
    guarded.app.inject({ method: 'POST', url: '/trade_signal/trading_view', remoteAddress, headers: { 'content-type': 'text/plain', ...headers }, payload: BODY });
  const BODY = JSON.stringify({ bot_id: 999999, email_token: 'x' });

  it('refuse an address outside SIGNAL_ALLOWED_IPS', async () => {
    const refused = await inject('127.0.0.1');
    assert.equal(refused.statusCode, 403);
    assert.deepEqual(refused.json(), { error: 'Forbidden', error_description: 'Signals are not accepted from this address (SIGNAL_ALLOWED_IPS)' });
  });

  it('want the HMAC of the body when SIGNAL_HMAC_SECRET is set', async () => {
    assert.equal((await inject('52.89.214.238')).statusCode, 401);
    assert.equal((await inject('52.89.214.238', { signature: 'ab'.repeat(32) })).statusCode, 401);
    const signature = createHmac('sha256', 'shared secret').update(BODY).digest('hex');
    const passed = await inject('52.89.214.238', { signature });
    assert.deepEqual([passed.statusCode, passed.json()], [404, { error: 'Not found' }]);
  });
});
