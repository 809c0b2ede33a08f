import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { api, createBot, deals, type DcaBench, startDcaBench, ticks } from './dca-support.ts';

let bench: DcaBench;
let botId: number | undefined;
before(async () => {
  bench = await startDcaBench({ USDT_ETH: '100', USDT_BTC: '20000', USDT_SOL: '20' });
});
after(() => bench.t.close());
afterEach(async () => {
  if (botId === undefined) return;
  await api(bench, 'POST', `/ver1/bots/${botId}/disable`);
  await api(bench, 'POST', `/ver1/bots/${botId}/cancel_all_deals`);
  await ticks(bench, [{ pair: 'USDT_ETH', price: '100' }, { pair: 'USDT_BTC', price: '20000' }, { pair: 'USDT_SOL', price: '20' }]);
  botId = undefined;
});

let clock = Date.now() + 7_200_000;
const at = (advanceSeconds: number) => new Date((clock += advanceSeconds * 1000)).toISOString();

describe('when DCA bots open deals', () => {
  it('keeps a multi-pair bot within max_active_deals and allowed_deals_on_same_pair', async () => {
    const bot = await createBot(bench, {
      pairs: ['USDT_ETH', 'USDT_BTC', 'USDT_SOL'],
      max_active_deals: 4,
      allowed_deals_on_same_pair: 2,
      base_order_volume: '20',
    });
    botId = bot.id;
    assert.equal(bot.type, 'Bot::MultiBot');
    const active = await deals(bench, bot.id, 'active');
    assert.deepEqual(active.map((deal) => deal.pair), ['USDT_ETH', 'USDT_BTC', 'USDT_SOL', 'USDT_ETH']);
    const refused = await api(bench, 'POST', `/ver1/bots/${bot.id}/start_new_deal`, { pair: 'USDT_SOL' });
    assert.equal(refused.status, 422, refused.text);
    assert.match(refused.body.error_description, /max active deals/);
    const samePair = await api(bench, 'POST', `/ver1/bots/${bot.id}/start_new_deal`, { pair: 'USDT_ETH', skip_open_deals_checks: false });
    assert.equal(samePair.status, 422);
    const forced = await api(bench, 'POST', `/ver1/bots/${bot.id}/start_new_deal`, { pair: 'USDT_ETH', skip_open_deals_checks: true });
    assert.equal(forced.status, 201, forced.text);
    // Five active deals (one forced past the limit): a close leaves four, still no room.
    await ticks(bench, [{ pair: 'USDT_SOL', price: '20.5' }]);
    assert.equal((await deals(bench, bot.id, 'active')).length, 4);
    assert.equal((await deals(bench, bot.id, 'completed')).length, 1);
    // The three ETH deals close one after the other; each freed slot goes to the pair with the
    // fewest active deals.
    await ticks(bench, [{ pair: 'USDT_ETH', price: '102.5' }]);
    const refilled = await deals(bench, bot.id, 'active');
    assert.deepEqual(refilled.map((deal) => deal.pair).sort(), ['USDT_BTC', 'USDT_ETH', 'USDT_ETH', 'USDT_SOL']);
  });

  it('waits for the cooldown before the next deal on the pair', async () => {
    const bot = await createBot(bench, { cooldown: 600 });
    botId = bot.id;
    await ticks(bench, [{ pair: 'USDT_ETH', price: '102.5', at: at(60) }]);
    assert.equal((await deals(bench, bot.id, 'active')).length, 0);
    await ticks(bench, [{ pair: 'USDT_ETH', price: '100', at: at(300) }]);
    assert.equal((await deals(bench, bot.id, 'active')).length, 0);
    await ticks(bench, [{ pair: 'USDT_ETH', price: '100', at: at(301) }]);
    const active = await deals(bench, bot.id, 'active');
    assert.equal(active.length, 1);
    const events = (await api(bench, 'GET', `/ver1/bots/${bot.id}/show?include_events=true`)).body.bot_events;
    assert.ok(events.length >= 4);
  });

  it('starts again at once after each close (nonstop) until disable_after_deals_count', async () => {
    const bot = await createBot(bench, { disable_after_deals_count: 2 });
    botId = bot.id;
    await ticks(bench, [{ pair: 'USDT_ETH', price: '102.5' }]);
    assert.equal((await deals(bench, bot.id, 'active')).length, 1);
    await ticks(bench, [{ pair: 'USDT_ETH', price: '105' }]);
    const all = await deals(bench, bot.id);
    assert.deepEqual(all.map((deal) => deal.status), ['completed', 'completed']);
    const shown = (await api(bench, 'GET', `/ver1/bots/${bot.id}/show`)).body;
    assert.equal(shown.is_enabled, false);
    assert.equal(shown.deals_counter, 2);
    assert.equal(shown.finished_deals_count, '2');
  });

  it('opens a deal when RSI on candles built from the ticks drops below the threshold', async () => {
    const bot = await createBot(bench, {
      strategy_list: [{ strategy: 'rsi', options: { time: '1m', points: 30, trigger_condition: 'less', time_period: 7 } }],
    });
    botId = bot.id;
    const rising = Array.from({ length: 9 }, (_, i) => String(100 + i));
    for (const price of rising) await ticks(bench, [{ pair: 'USDT_ETH', price, at: at(60) }]);
    assert.equal((await deals(bench, bot.id)).length, 0);
    for (let i = 0; i < 10; i += 1) await ticks(bench, [{ pair: 'USDT_ETH', price: String(106 - 2 * i), at: at(60) }]);
    const opened = await deals(bench, bot.id);
    assert.equal(opened.length, 1);
    const log = (await api(bench, 'GET', `/ver1/bots/${bot.id}/show?include_events=true`)).body.bot_events.map((e: any) => e.message);
    assert.ok(log.some((m: string) => m.includes('RSI start condition met')), log.join('\n'));
  });

  it('opens a deal when CCI and %B on the same candles both fall through their thresholds', async () => {
    const bot = await createBot(bench, {
      strategy_list: [
        { strategy: 'cci', options: { time: '1m', points: -100, trigger_condition: 'less', time_period: 5 } },
        { strategy: 'b_bands_percent', options: { time: '1m', points: 0, trigger_condition: 'less', time_period: 5, deviation: 1 } },
      ],
    });
    botId = bot.id;
    for (const price of ['100', '101', '100', '101', '100', '101', '100']) await ticks(bench, [{ pair: 'USDT_ETH', price, at: at(60) }]);
    assert.equal((await deals(bench, bot.id)).length, 0);
    // The drop closes a candle far below the band; the next tick closes that candle.
    for (const price of ['90', '90']) await ticks(bench, [{ pair: 'USDT_ETH', price, at: at(60) }]);
    assert.equal((await deals(bench, bot.id)).length, 1);
    const log = (await api(bench, 'GET', `/ver1/bots/${bot.id}/show?include_events=true`)).body.bot_events.map((e: any) => e.message);
    assert.ok(log.some((m: string) => m.includes('CCI, B_BANDS_PERCENT start condition met')), log.join('\n'));
  });

  it('refuses start_new_deal for a disabled bot unless asked to enable it', async () => {
    const bot = await createBot(bench, { strategy_list: [{ strategy: 'manual' }] }, false);
    botId = bot.id;
    const refused = await api(bench, 'POST', `/ver1/bots/${bot.id}/start_new_deal`, {});
    assert.equal(refused.status, 422, refused.text);
    const started = await api(bench, 'POST', `/ver1/bots/${bot.id}/start_new_deal`, { only_for_enabled: false });
    assert.equal(started.status, 201, started.text);
    assert.equal((await api(bench, 'GET', `/ver1/bots/${bot.id}/show`)).body.is_enabled, true);
  });
});
