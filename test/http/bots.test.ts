import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, assertRecordInvalid, newUser } from '../support/api.ts';
import { api, botBody, createBot, deals, type DcaBench, startDcaBench, ticks } from '../scenarios/dca-support.ts';

let bench: DcaBench;
before(async () => {
  bench = await startDcaBench({ USDT_ETH: '100', USDT_BTC: '20000', BTC_ETH: '0.005' });
});
after(() => bench.t.close());

describe('POST /ver1/bots/create_bot', () => {
  it('creates a disabled single-pair bot in the reference entity shape', async () => {
    const response = await api(bench, 'POST', '/ver1/bots/create_bot', botBody(bench.accountId, { name: 'shape', max_safety_orders: 3, reinvesting_percentage: '20', risk_reduction_percentage: '12.5' }));
    assert.equal(response.status, 201, response.text);
    const bot = response.body;
    assert.equal(bot.type, 'Bot::SingleBot');
    assert.equal(bot.is_enabled, false);
    assert.deepEqual(bot.pairs, ['USDT_ETH']);
    assert.equal(bot.account_id, bench.accountId);
    assert.equal(bot.account_name, 'Paper trading account');
    assert.equal(bot.max_safety_orders, 3);
    assert.equal(bot.base_order_volume, '100');
    assert.equal(bot.take_profit, '2');
    assert.equal(bot.cooldown, '0');
    assert.equal(bot.finished_deals_count, '0');
    assert.equal(bot.active_deals_usd_profit, '0');
    assert.deepEqual(bot.strategy_list, [{ strategy: 'nonstop', options: {} }]);
    assert.equal(bot['deletable?'], true);
    assert.deepEqual([bot.reinvesting_percentage, bot.risk_reduction_percentage], ['20.0', '12.5']);
    assert.equal(bot.safety_order_calculation_mode, 'combined');
    assert.match(bot.url_secret, /^[0-9a-f]{24}$/);
    assert.equal(typeof bot.created_at, 'string');
  });

  it('names every missing or invalid field', async () => {
    const missing = await api(bench, 'POST', '/ver1/bots/create_bot', { account_id: bench.accountId });
    assert.equal(missing.status, 400);
    for (const field of ['name', 'pairs', 'base_order_volume', 'safety_order_volume', 'max_safety_orders', 'strategy_list', 'take_profit_type']) {
      assert.deepEqual(missing.body.error_attributes[field], ['is missing'], field);
    }
    assertRecordInvalid(
      await api(bench, 'POST', '/ver1/bots/create_bot', botBody(bench.accountId, {
        take_profit_steps: [{ amount_percentage: '50', profit_percentage: '1' }, { amount_percentage: '40', profit_percentage: '2' }],
        trailing_enabled: true,
        trailing_deviation: '1',
        martingale_volume_coefficient: '20',
        strategy_list: [{ strategy: 'nonstop' }, { strategy: 'trading_view' }],
      })),
      {
        take_profit_steps: ['amount_percentage values must add up to 100'],
        trailing_enabled: ['is not available with several take_profit_steps'],
        martingale_volume_coefficient: ['must be from 0.1 to 10'],
        'strategy_list[1][strategy]': ['is not supported'],
      },
    );
    assertRecordInvalid(await api(bench, 'POST', '/ver1/bots/create_bot', botBody(bench.accountId, { strategy: 'sideways', max_active_deals: 0 })), {
      strategy: ['does not have a valid value'],
      max_active_deals: ['must be greater than or equal to 1'],
    });
  });

  it('checks the pairs and volumes against the account’s market', async () => {
    assertRecordInvalid(
      await api(bench, 'POST', '/ver1/bots/create_bot', botBody(bench.accountId, { pairs: ['USDT_DOGE'], base_order_volume: '1' })),
      { pairs: ["USDT_DOGE is not traded on this account's exchange"] },
    );
    assertRecordInvalid(
      await api(bench, 'POST', '/ver1/bots/create_bot', botBody(bench.accountId, { base_order_volume: '1', max_safety_orders: 1, safety_order_volume: '2' })),
      { base_order_volume: ['must be at least the exchange minimum of 5 USDT'], safety_order_volume: ['must be at least the exchange minimum of 5 USDT'] },
    );
  });

  it('takes list fields as JSON text, as form clients send them', async () => {
    const form = new URLSearchParams({
      name: 'form bot', account_id: String(bench.accountId), 'pairs[]': 'USDT_BTC', base_order_volume: '20', take_profit: '1.5',
      take_profit_type: 'total', safety_order_volume: '20', safety_order_step_percentage: '1', martingale_volume_coefficient: '1',
      martingale_step_coefficient: '1', max_safety_orders: '2', active_safety_orders_count: '1',
      strategy_list: JSON.stringify([{ strategy: 'manual' }]),
    }).toString();
    const response = await bench.t.request({ method: 'POST', path: '/ver1/bots/create_bot', body: form, contentType: 'application/x-www-form-urlencoded', credentials: bench.user });
    assert.equal(response.status, 201, response.text);
    assert.deepEqual(response.body.strategy_list, [{ strategy: 'manual', options: {} }]);
  });

  it('sizes percent safety orders from the base order; refuses what it could not act on rather than storing it', async () => {
    const bot = await createBot(bench, {
      strategy_list: [{ strategy: 'manual' }], base_order_volume: '100', max_safety_orders: 2, active_safety_orders_count: 2,
      safety_order_volume: '50', safety_order_volume_type: 'percent', martingale_volume_coefficient: '2', martingale_step_coefficient: '1',
    }, false);
    assert.equal(bot.safety_order_volume_type, 'percent');
    const deal = (await api(bench, 'POST', `/ver1/bots/${bot.id}/start_new_deal`, { only_for_enabled: false })).body;
    // 50 % of 100 USDT at 99, then 100 % at 98, in ETH up to the lot step.
    const orders = (await api(bench, 'GET', `/ver1/deals/${deal.id}/market_orders`)).body.filter((o: any) => o.deal_order_type === 'Safety');
    assert.deepEqual(orders.map((o: any) => [o.rate, o.quantity]).sort(), [['98', '1.0205'], ['99', '0.5051']]);
    await api(bench, 'POST', `/ver1/deals/${deal.id}/cancel`);
    assertRecordInvalid(
      await api(bench, 'POST', '/ver1/bots/create_bot', botBody(bench.accountId, {
        base_order_volume_type: 'percent', min_volume_btc_24h: '100', min_profit_percentage: '1',
        close_strategy_list: JSON.stringify([{ strategy: 'nonstop' }]),
      })),
      {
        base_order_volume_type: ['percent is not supported'],
        min_volume_btc_24h: ['is not supported: the prices this server follows carry no traded volume'],
        'close_strategy_list[0][strategy]': ['is not supported'],
        min_profit_percentage: ['only applies with a close_strategy_list'],
      },
    );
    const quiet = await api(bench, 'POST', '/ver1/bots/create_bot', botBody(bench.accountId, { min_volume_btc_24h: '0', min_profit_percentage: '0', close_strategy_list: [] }));
    assert.equal(quiet.status, 201, quiet.text);
  });

  it('takes the indicator start conditions it computes and names what is wrong in each', async () => {
    const strategy_list = [
      { strategy: 'ult', options: { time: '5m', points: 30, trigger_condition: 'less', first_period: 7, second_period: 14, third_period: 28 } },
      { strategy: 'b_bands_percent', options: { time: '15m', points: 0, trigger_condition: 'crossing_below', time_period: 20, deviation: 2 } },
      { strategy: 'cci', options: { time: '1h', points: -100, trigger_condition: 'less', time_period: 20 } },
      { strategy: 'ma_cross', options: { time: '1h', indicator_type: 'ema', time_period_first: 9, time_period_second: 21, trigger_condition: 'crossing_above' } },
      { strategy: 'ta_preset', options: { time: '4h', type: 'SMA-50-200' } },
    ];
    const created = await api(bench, 'POST', '/ver1/bots/create_bot', botBody(bench.accountId, { strategy_list }));
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.strategy_list, strategy_list);
    assertRecordInvalid(
      await api(bench, 'POST', '/ver1/bots/create_bot', botBody(bench.accountId, {
        strategy_list: [
          { strategy: 'mfi', options: { time: '5m', points: 20 } },
          { strategy: 'ult', options: { time: '7m', points: 130, first_period: 14, second_period: 7, third_period: 28 } },
          { strategy: 'ma_cross', options: { time: '1h', indicator_type: 'wma', time_period_first: 50, time_period_second: 20 } },
          { strategy: 'ta_preset', options: { time: '1h', type: 'MACD-12-26-9' } },
        ],
      })),
      {
        'strategy_list[0][strategy]': ['is not supported: candles built from prices carry no traded volume'],
        'strategy_list[1][options][time]': ['does not have a valid value'],
        'strategy_list[1][options][points]': ['must be a number from 0 to 100'],
        'strategy_list[1][options][third_period]': ['periods must grow from first to third'],
        'strategy_list[2][options][indicator_type]': ['does not have a valid value'],
        'strategy_list[2][options][time_period_second]': ['must be greater than time_period_first'],
        'strategy_list[3][options][type]': [`is not supported; supported: ${Object.keys((await api(bench, 'GET', '/ver1/bots/strategy_list')).body.ta_preset.options.type).join(', ')}`],
      },
    );
  });

  it('refuses another user’s account', async () => {
    const other = await newUser(bench.t);
    assertError(await api(bench, 'POST', '/ver1/bots/create_bot', botBody(other.accountId)), 403, {
      error: 'Forbidden',
      error_description: 'Account not owned by current user.',
    });
  });
});

describe('bot endpoints', () => {
  it('lists with filters, shows with events, updates, enables and disables', async () => {
    const multi = await createBot(bench, { name: 'multi', pairs: ['USDT_ETH', 'USDT_BTC'], strategy_list: [{ strategy: 'manual' }], base_order_volume: '20' }, false);
    assert.equal(multi.type, 'Bot::MultiBot');
    const short = await createBot(bench, { name: 'short one', strategy: 'short', strategy_list: [{ strategy: 'manual' }], base_order_volume: '0.1', base_order_volume_type: 'base_currency' }, false);
    const shorts = (await api(bench, 'GET', '/ver1/bots?strategy=short')).body;
    assert.deepEqual(shorts.map((bot: any) => bot.id), [short.id]);
    const page = (await api(bench, 'GET', `/ver1/bots?account_id=${bench.accountId}&sort_by=created_at&order_direction=asc&limit=1&offset=1`)).body;
    assert.equal(page.length, 1);
    const enabled = await api(bench, 'POST', `/ver1/bots/${multi.id}/enable`);
    assert.equal(enabled.status, 201);
    assert.equal(enabled.body.is_enabled, true);
    assert.deepEqual(enabled.body.active_deals, []);
    const scoped = (await api(bench, 'GET', '/ver1/bots?scope=enabled')).body;
    assert.ok(scoped.every((bot: any) => bot.is_enabled));
    assert.ok(scoped.some((bot: any) => bot.id === multi.id));
    const updated = await api(bench, 'PATCH', `/ver1/bots/${multi.id}/update`, { name: 'renamed', take_profit: '3', max_active_deals: 3 });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body.name, 'renamed');
    assert.equal(updated.body.take_profit, '3');
    assert.equal(updated.body.max_active_deals, 3);
    assert.deepEqual(updated.body.pairs, ['USDT_ETH', 'USDT_BTC']);
    assertRecordInvalid(await api(bench, 'PATCH', `/ver1/bots/${multi.id}/update`, { min_price: '10', max_price: '5' }), {
      min_price: ['must be less than or equal to max_price'],
    });
    const disabled = await api(bench, 'POST', `/ver1/bots/${multi.id}/disable`);
    assert.equal(disabled.body.is_enabled, false);
    const shown = await api(bench, 'GET', `/ver1/bots/${multi.id}/show?include_events=true`);
    assert.equal(shown.status, 200);
    assert.deepEqual(shown.body.bot_events.map((e: any) => e.message), ['Bot enabled', 'Bot settings updated', 'Bot disabled']);
    assertError(await api(bench, 'GET', '/ver1/bots/999999/show'), 404, { error: 'Not found' });
  });

  it('starts deals on request, closes or cancels them all, and deletes a bot once it has none', async () => {
    const bot = await createBot(bench, { pairs: ['USDT_ETH', 'USDT_BTC'], max_active_deals: 2, strategy_list: [{ strategy: 'manual' }], base_order_volume: '20' }, false);
    assertRecordInvalid(await api(bench, 'POST', `/ver1/bots/${bot.id}/start_new_deal`, { only_for_enabled: false }), { pair: ['is missing'] });
    assertRecordInvalid(await api(bench, 'POST', `/ver1/bots/${bot.id}/start_new_deal`, { pair: 'BTC_ETH', only_for_enabled: false }), {
      pair: ['is not one of the bot pairs'],
    });
    const first = await api(bench, 'POST', `/ver1/bots/${bot.id}/start_new_deal`, { pair: 'USDT_ETH', only_for_enabled: false });
    assert.equal(first.status, 201, first.text);
    assert.equal(first.body.type, 'Deal');
    assert.equal(first.body.status, 'bought');
    await api(bench, 'POST', `/ver1/bots/${bot.id}/start_new_deal`, { pair: 'USDT_BTC' });
    const shown = (await api(bench, 'GET', `/ver1/bots/${bot.id}/show`)).body;
    assert.equal(shown.active_deals_count, 2);
    assert.equal(shown.active_deals.length, 2);
    assert.equal(shown['deletable?'], false);
    assertError(await api(bench, 'POST', `/ver1/bots/${bot.id}/delete`), 403, {
      error: 'Forbidden',
      error_description: 'The bot has active deals; close or cancel them first',
    });
    const sold = await api(bench, 'POST', `/ver1/bots/${bot.id}/panic_sell_all_deals`);
    assert.equal(sold.status, 201);
    assert.deepEqual((await deals(bench, bot.id)).map((deal) => deal.status), ['panic_sold', 'panic_sold']);
    await api(bench, 'POST', `/ver1/bots/${bot.id}/start_new_deal`, { pair: 'USDT_ETH' });
    const cancelled = await api(bench, 'POST', `/ver1/bots/${bot.id}/cancel_all_deals`);
    assert.equal(cancelled.status, 200);
    assert.equal(cancelled.body.active_deals_count, 0);
    const removed = await api(bench, 'POST', `/ver1/bots/${bot.id}/delete`);
    assert.equal(removed.status, 201);
    assert.equal(removed.body, true);
    assertError(await api(bench, 'POST', `/ver1/bots/${bot.id}/delete`), 404, { error: 'not_found', error_description: 'Not Found' });
    // Its deals stay listed.
    assert.equal((await deals(bench, bot.id)).length, 3);
  });

  it('copies a bot given its url_secret', async () => {
    const source = await createBot(bench, { name: 'source', max_safety_orders: 2, strategy_list: [{ strategy: 'manual' }] }, false);
    assertRecordInvalid(await api(bench, 'POST', `/ver1/bots/${source.id}/copy_and_create`, { name: 'copy', secret: 'wrong' }), { secret: ['is invalid'] });
    const copied = await api(bench, 'POST', `/ver1/bots/${source.id}/copy_and_create`, { name: 'copy', secret: source.url_secret, amount: '450' });
    assert.equal(copied.status, 201, copied.text);
    assert.equal(copied.body.bot_required_amount, '450');
    const copy = (await api(bench, 'GET', `/ver1/bots/${copied.body.bot_id}/show`)).body;
    assert.equal(copy.name, 'copy');
    assert.equal(copy.base_order_volume, '200');
    assert.equal(copy.safety_order_volume, '100');
  });

  it('answers the strategy list and keeps the pairs blacklist', async () => {
    const strategies = (await api(bench, 'GET', '/ver1/bots/strategy_list')).body;
    assert.deepEqual(Object.keys(strategies), ['manual', 'nonstop', 'tv_custom_signal', 'rsi', 'ult', 'b_bands_percent', 'ma_cross', 'cci', 'ta_preset']);
    assert.equal(strategies.rsi.strategy_type, 'indicator');
    assert.ok('SMA-50-200' in strategies.ta_preset.options.type);
    assert.deepEqual((await api(bench, 'GET', '/ver1/bots/pairs_black_list')).body, { pairs: [] });
    const set = await api(bench, 'POST', '/ver1/bots/update_pairs_black_list', { pairs: ['USDT_BTC', 'usdt_btc'] });
    assert.equal(set.status, 201);
    assert.deepEqual(set.body, { pairs: ['USDT_BTC'] });
    assert.deepEqual((await api(bench, 'GET', '/ver1/bots/pairs_black_list')).body, { pairs: ['USDT_BTC'] });
    // A multi-pair nonstop bot opens nothing on a blacklisted pair.
    const bot = await createBot(bench, { pairs: ['USDT_BTC', 'USDT_ETH'], max_active_deals: 2, allowed_deals_on_same_pair: 1, base_order_volume: '20' });
    assert.deepEqual((await deals(bench, bot.id)).map((deal) => deal.pair), ['USDT_ETH']);
    await api(bench, 'POST', `/ver1/bots/${bot.id}/disable`);
    await api(bench, 'POST', `/ver1/bots/${bot.id}/cancel_all_deals`);
    await api(bench, 'POST', '/ver1/bots/update_pairs_black_list', { pairs: [] });
    const invalid = await api(bench, 'POST', '/ver1/bots/update_pairs_black_list', { pairs: ['not a pair'] });
    assert.equal(invalid.status, 400);
    assert.ok(Object.keys(invalid.body.error_attributes).every((field) => field.startsWith('pairs')), invalid.text);
  });
});

describe('bot statistics', () => {
  it('sums closed deals per currency and values active ones, as the reference types them', async () => {
    const bot = await createBot(bench, { strategy_list: [{ strategy: 'manual' }] }, false);
    const first = (await api(bench, 'POST', `/ver1/bots/${bot.id}/start_new_deal`, { only_for_enabled: false })).body;
    await ticks(bench, [{ pair: 'USDT_ETH', price: '102.5' }]);
    const closed = (await api(bench, 'GET', `/ver1/deals/${first.id}/show`)).body;
    assert.equal(closed.status, 'completed');
    await api(bench, 'POST', `/ver1/bots/${bot.id}/start_new_deal`, {});
    await ticks(bench, [{ pair: 'USDT_ETH', price: '101.5' }]);

    const stats = await api(bench, 'GET', `/ver1/bots/stats?bot_id=${bot.id}`);
    assert.equal(stats.status, 200, stats.text);
    assert.deepEqual(stats.body.overall_stats, { USDT: closed.final_profit });
    assert.deepEqual(stats.body.today_stats, { USDT: closed.final_profit });
    const usd = stats.body.profits_in_usd;
    assert.equal(usd.overall_usd_profit, Number(Number(closed.final_profit).toFixed(2)));
    assert.equal(usd.today_usd_profit, usd.overall_usd_profit);
    // The open deal bought 0.9757 ETH at 102.5 for 100.00925 USDT (0.1 % of the ETH paid as fee),
    // valued at the 101.5 bid now; its cost is what it locks.
    assert.equal(usd.active_deals_usd_profit, -1.07473355);
    assert.equal(usd.funds_locked_in_active_deals, 100.00925);
    for (const value of Object.values(usd)) assert.equal(typeof value, 'number');

    const dealsStats = (await api(bench, 'GET', `/ver1/bots/${bot.id}/deals_stats`)).body;
    assert.deepEqual(
      { active: dealsStats.active, completed: dealsStats.completed, panic_sold: dealsStats.panic_sold, dollars: dealsStats.from_currency_is_dollars },
      { active: 1, completed: 1, panic_sold: 0, dollars: true },
    );
    assert.equal(typeof dealsStats.completed_deals_usd_profit, 'string');
    assert.equal(dealsStats.funds_locked_in_active_deals, '100.00925');
    assert.equal(dealsStats.active_deals_usd_profit, '-1.07473355');

    const byDay = (await api(bench, 'GET', `/ver1/bots/${bot.id}/profit_by_day?days=7`)).body;
    const today = new Date().toISOString().slice(0, 10);
    assert.equal(byDay.data.length, 1);
    assert.equal(byDay.data[0].s_date, today);
    assert.equal(byDay.data[0].unix_timestamp, Date.parse(`${today}T00:00:00Z`) / 1000);
    assert.equal(byDay.data[0].profit.usd, Number(closed.final_profit).toFixed(2));

    const byDate = (await api(bench, 'GET', `/ver1/bots/stats_by_date?date=${today}&bot_id=${bot.id}`)).body;
    assert.deepEqual(byDate.stats, { USDT: closed.final_profit });
    const empty = (await api(bench, 'GET', `/ver1/bots/stats_by_date?date=2020-01-01&bot_id=${bot.id}`)).body;
    assert.deepEqual(empty, { stats: {}, usd_profit: '0', btc_profit: '0' });
    assertRecordInvalid(await api(bench, 'GET', '/ver1/bots/stats_by_date?date=yesterday'), { date: ['is invalid'] });
    assertError(await api(bench, 'GET', '/ver1/bots/stats?bot_id=424242'), 404, { error: 'Not found' });
    const all = (await api(bench, 'GET', `/ver1/bots/stats?account_id=${bench.accountId}`)).body;
    assert.ok(Object.keys(all.overall_stats).includes('USDT'));
    await api(bench, 'POST', `/ver1/bots/${bot.id}/cancel_all_deals`);
  });
});
