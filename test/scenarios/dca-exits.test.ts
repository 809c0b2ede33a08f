import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { dec } from '../../src/shared/decimal.ts';
import { api, balances, createBot, deals, type DcaBench, startDcaBench, ticks, walk } from './dca-support.ts';

let bench: DcaBench;
let botId: number | undefined;
before(async () => {
  bench = await startDcaBench();
});
after(() => bench.t.close());
afterEach(async () => {
  if (botId === undefined) return;
  await api(bench, 'POST', `/ver1/bots/${botId}/disable`);
  await api(bench, 'POST', `/ver1/bots/${botId}/cancel_all_deals`);
  await ticks(bench, [{ pair: 'USDT_ETH', price: '100' }]);
  botId = undefined;
});

/** Tick times well ahead of the clock, so only ticks move the engine's timers. */
let clock = Date.now() + 3_600_000;
const at = (advanceSeconds: number) => new Date((clock += advanceSeconds * 1000)).toISOString();

describe('DCA deal exits on the paper exchange', () => {
  it('closes at market when the stop loss is reached and can disable the bot', async () => {
    const bot = await createBot(bench, { stop_loss_percentage: '5', stop_loss_type: 'stop_loss_and_disable_bot' });
    botId = bot.id;
    const usdtBefore = dec((await balances(bench)).USDT!).plus(100);
    await walk(bench, 'USDT_ETH', ['97', '95.5']);
    assert.equal((await deals(bench, bot.id))[0]!.status, 'bought');
    await walk(bench, 'USDT_ETH', ['94.9']);
    const [deal] = await deals(bench, bot.id);
    assert.equal(deal!.status, 'stop_loss_finished');
    assert.equal(deal!.localized_status, 'Closed by Stop Loss');
    assert.equal(deal!.sold_amount, '0.999');
    // Sold 0.999 ETH at 94.9 less the 0.1 % fee, for the 100 USDT the deal spent.
    assert.equal(deal!.final_profit, dec('0.999').times('94.9').times('0.999').minus(100).toDecimalPlaces(8).toFixed());
    assert.equal(dec((await balances(bench)).USDT!).minus(usdtBefore).toFixed(), dec(deal!.final_profit).plus(100).minus(100).toFixed());
    const shown = (await api(bench, 'GET', `/ver1/bots/${bot.id}/show`)).body;
    assert.equal(shown.is_enabled, false);
    assert.equal(shown.active_deals.length, 0);
    const orders = (await api(bench, 'GET', `/ver1/deals/${deal!.id}/market_orders`)).body;
    assert.ok(orders.some((o: any) => o.deal_order_type === 'Stop Loss' && o.status_string === 'Filled'));
  });

  it('waits out the stop-loss timeout: a recovery keeps the deal, a price still below closes it', async () => {
    const bot = await createBot(bench, { stop_loss_percentage: '5', stop_loss_timeout_enabled: true, stop_loss_timeout_in_seconds: 120 });
    botId = bot.id;
    await ticks(bench, [{ pair: 'USDT_ETH', price: '94', at: at(60) }]);
    await ticks(bench, [{ pair: 'USDT_ETH', price: '99', at: at(60) }]);
    await ticks(bench, [{ pair: 'USDT_ETH', price: '99.5', at: at(90) }]);
    const [kept] = await deals(bench, bot.id);
    assert.equal(kept!.status, 'bought');
    const log = (await api(bench, 'GET', `/ver1/deals/${kept!.id}/show`)).body.bot_events.map((e: any) => e.message);
    assert.ok(log.some((m: string) => m.startsWith('Stop Loss reached')), log.join('\n'));
    assert.ok(log.some((m: string) => m.startsWith('Stop Loss timeout passed')), log.join('\n'));
    await ticks(bench, [{ pair: 'USDT_ETH', price: '94', at: at(60) }]);
    await ticks(bench, [{ pair: 'USDT_ETH', price: '93.5', at: at(60) }]);
    assert.equal((await deals(bench, bot.id))[0]!.status, 'bought');
    await ticks(bench, [{ pair: 'USDT_ETH', price: '93', at: at(61) }]);
    const [closed] = await deals(bench, bot.id);
    assert.equal(closed!.status, 'stop_loss_finished');
    assert.ok(dec(closed!.final_profit).lt(-6));
  });

  it('trails the take profit and closes at market after the price gives back the deviation', async () => {
    const bot = await createBot(bench, { trailing_enabled: true, trailing_deviation: '1', strategy_list: [{ strategy: 'manual' }] }, false);
    botId = bot.id;
    const started = await api(bench, 'POST', `/ver1/bots/${bot.id}/start_new_deal`, { only_for_enabled: false });
    assert.equal(started.status, 201, started.text);
    assert.equal(started.body.take_profit_price, '102.21');
    await walk(bench, 'USDT_ETH', ['102.5']);
    assert.equal((await api(bench, 'GET', `/ver1/deals/${started.body.id}/show`)).body.status, 'ttp_activated');
    await walk(bench, 'USDT_ETH', ['106', '105']);
    const trailing = (await api(bench, 'GET', `/ver1/deals/${started.body.id}/show`)).body;
    assert.equal(trailing.trailing_max_price, '106');
    await walk(bench, 'USDT_ETH', ['104.9']);
    const closed = (await api(bench, 'GET', `/ver1/deals/${started.body.id}/show`)).body;
    assert.equal(closed.status, 'completed');
    assert.equal(closed.sold_average_price, '104.9');
    assert.ok(dec(closed.final_profit).gt(4.5));
  });

  it('closes a deal at market on panic sell, and cancels another leaving its coins', async () => {
    const bot = await createBot(bench, { strategy_list: [{ strategy: 'manual' }], max_active_deals: 2, max_safety_orders: 2, active_safety_orders_count: 2 }, false);
    botId = bot.id;
    const first = (await api(bench, 'POST', `/ver1/bots/${bot.id}/start_new_deal`, { only_for_enabled: false })).body;
    const second = (await api(bench, 'POST', `/ver1/bots/${bot.id}/start_new_deal`, {})).body;
    const ethBefore = dec((await balances(bench)).ETH!);
    const sold = await api(bench, 'POST', `/ver1/deals/${first.id}/panic_sell`);
    assert.equal(sold.status, 201, sold.text);
    assert.equal(sold.body.status, 'panic_sold');
    assert.equal(sold.body.localized_status, 'Closed at Market Price');
    const cancelled = await api(bench, 'POST', `/ver1/deals/${second.id}/cancel`);
    assert.equal(cancelled.body.status, 'cancelled');
    assert.equal(dec((await balances(bench)).ETH!).toFixed(), ethBefore.minus('0.999').toFixed());
    const orders = (await api(bench, 'GET', `/ver1/deals/${second.id}/market_orders`)).body;
    assert.deepEqual(orders.filter((o: any) => o.deal_order_type === 'Safety').map((o: any) => o.status_string), ['Cancelled', 'Cancelled']);
    const again = await api(bench, 'POST', `/ver1/deals/${second.id}/cancel`);
    assert.equal(again.status, 403, again.text);
  });

  it('closes a deal at market when its close strategy holds and its profit reaches the minimum', async () => {
    const bot = await createBot(bench, {
      strategy_list: [{ strategy: 'manual' }],
      take_profit: '50',
      close_strategy_list: [{ strategy: 'rsi', options: { time: '1m', points: 60, trigger_condition: 'greater', time_period: 3 } }],
      min_profit_percentage: '2',
    }, false);
    botId = bot.id;
    assert.deepEqual(bot.close_strategy_list.map((c: any) => c.strategy), ['rsi']);
    const deal = (await api(bench, 'POST', `/ver1/bots/${bot.id}/start_new_deal`, { only_for_enabled: false })).body;
    // RSI climbs past 60 while the profit is still under 2 %: the deal stays.
    for (const price of ['100', '100.2', '100.4', '100.6', '100.8', '101']) await ticks(bench, [{ pair: 'USDT_ETH', price, at: at(60) }]);
    assert.equal((await deals(bench, bot.id))[0]!.status, 'bought');
    for (const price of ['102', '103.5', '104']) await ticks(bench, [{ pair: 'USDT_ETH', price, at: at(60) }]);
    const closed = (await api(bench, 'GET', `/ver1/deals/${deal.id}/show`)).body;
    assert.equal(closed.status, 'completed', closed.bot_events.map((e: any) => e.message).join('\n'));
    assert.ok(dec(closed.final_profit_percentage).gte(2), closed.final_profit_percentage);
    assert.ok(closed.bot_events.some((e: any) => e.message.startsWith('RSI close condition met')));
  });
});
