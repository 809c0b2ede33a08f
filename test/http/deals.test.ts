import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dec } from '../../src/shared/decimal.ts';
import { assertError, assertRecordInvalid, newUser } from '../support/api.ts';
import { api, balances, createBot, type DcaBench, startDcaBench, ticks } from '../scenarios/dca-support.ts';

let bench: DcaBench;
before(async () => {
  bench = await startDcaBench();
});
after(() => bench.t.close());

async function manualDeal(overrides: Record<string, unknown> = {}) {
  const bot = await createBot(bench, { strategy_list: [{ strategy: 'manual' }], max_safety_orders: 3, active_safety_orders_count: 2, ...overrides }, false);
  const deal = await api(bench, 'POST', `/ver1/bots/${bot.id}/start_new_deal`, { only_for_enabled: false });
  assert.equal(deal.status, 201, deal.text);
  return { bot, deal: deal.body };
}

describe('GET /ver1/deals and /show', () => {
  it('shows a deal like the reference entity, with its log', async () => {
    const { bot, deal } = await manualDeal();
    const shown = await api(bench, 'GET', `/ver1/deals/${deal.id}/show`);
    assert.equal(shown.status, 200);
    const body = shown.body;
    assert.equal(body.type, 'Deal');
    assert.equal(body.bot_id, bot.id);
    assert.equal(body.bot_name, 'test bot');
    assert.equal(body.pair, 'USDT_ETH');
    assert.equal(body.from_currency, 'USDT');
    assert.equal(body.to_currency, 'ETH');
    assert.equal(body.localized_status, 'Active');
    assert.equal(body.bought_amount, '1');
    assert.equal(body.bought_volume, '100');
    assert.equal(body.bought_average_price, '100');
    assert.equal(body.base_order_average_price, '100');
    assert.equal(body.take_profit_price, '102.21');
    assert.equal(body.current_active_safety_orders_count, 2);
    assert.equal(body['finished?'], false);
    assert.equal(body['cancellable?'], true);
    assert.deepEqual(body.buy_steps, [{ price: '99', filled: '0' }, { price: '97.8', filled: '0' }]);
    assert.deepEqual(body.bot_events.map((e: any) => e.message.split('.')[0]), [
      'Placing base order',
      'Base order executed',
      'Placing TakeProfit trade',
      'Placing safety trade (1 out of 3)',
      'Placing safety trade (2 out of 3)',
    ]);
    assertError(await api(bench, 'GET', '/ver1/deals/987654/show'), 404, { error: 'not_found', error_description: 'Not Found' });
    const stranger = await newUser(bench.t);
    const hidden = await bench.t.request({ path: `/ver1/deals/${deal.id}/show`, credentials: stranger.credentials });
    assert.equal(hidden.status, 404);
    await api(bench, 'POST', `/ver1/deals/${deal.id}/cancel`);
  });

  it('lists with scope, bot, order and paging', async () => {
    const { bot, deal: first } = await manualDeal({ max_active_deals: 3 });
    const second = (await api(bench, 'POST', `/ver1/bots/${bot.id}/start_new_deal`, {})).body;
    await api(bench, 'POST', `/ver1/deals/${first.id}/panic_sell`);
    const list = async (query: string) => ((await api(bench, 'GET', `/ver1/deals?bot_id=${bot.id}&${query}`)).body as any[]).map((d) => d.id);
    assert.deepEqual(await list(''), [second.id, first.id]);
    assert.deepEqual(await list('order_direction=asc'), [first.id, second.id]);
    assert.deepEqual(await list('scope=active'), [second.id]);
    assert.deepEqual(await list('scope=finished'), [first.id]);
    assert.deepEqual(await list('scope=completed'), []);
    assert.deepEqual(await list('limit=1&offset=1'), [first.id]);
    assert.deepEqual(await list('order=closed_at&order_direction=desc'), [first.id, second.id]);
    assert.deepEqual(await list('quote=USDT&base=ETH&scope=active'), [second.id]);
    assert.deepEqual(await list(`account_id=${bench.accountId}&scope=active`), [second.id]);
    assertRecordInvalid(await api(bench, 'GET', '/ver1/deals?order=size'), { order: ['does not have a valid value'] });
    assertRecordInvalid(await api(bench, 'GET', '/ver1/deals?limit=1001'), { limit: ['must be less than or equal to 1000'] });
    await api(bench, 'POST', `/ver1/deals/${second.id}/cancel`);
  });
});

describe('deal figures scripts sum and parse', () => {
  it('an active deal’s final profit is its profit at the bid, in USD too; closed deals carry a current price', async () => {
    const { deal } = await manualDeal();
    await ticks(bench, [{ pair: 'USDT_ETH', price: '101' }]);
    const active = (await api(bench, 'GET', `/ver1/deals/${deal.id}/show`)).body;
    // 100 USDT bought 0.999 ETH (fee in ETH); at 101 that is worth 100.899.
    assert.equal(active.final_profit, '0.899');
    assert.equal(active.usd_final_profit, '0.899');
    assert.equal(active.actual_profit, '0.899');
    assert.equal(active.final_profit_percentage, '0.9');
    assert.equal(active.current_price, '101');
    const sold = (await api(bench, 'POST', `/ver1/deals/${deal.id}/panic_sell`)).body;
    assert.equal(sold.status, 'panic_sold');
    assert.equal(sold.current_price, '101');
    await ticks(bench, [{ pair: 'USDT_ETH', price: '100' }]);
  });

  it('a cancelled deal keeps its coins: its profit values them at the cancel, not at -100 %', async () => {
    const { deal } = await manualDeal();
    await ticks(bench, [{ pair: 'USDT_ETH', price: '99.5' }]);
    const cancelled = (await api(bench, 'POST', `/ver1/deals/${deal.id}/cancel`)).body;
    assert.equal(cancelled.status, 'cancelled');
    assert.equal(cancelled.final_profit, dec('0.999').times('99.5').minus(100).toFixed());
    assert.equal(cancelled.final_profit_percentage, '-0.6');
    const listed = (await api(bench, 'GET', `/ver1/deals?scope=cancelled&bot_id=${cancelled.bot_id}`)).body;
    assert.equal(listed[0].final_profit, cancelled.final_profit);
    await ticks(bench, [{ pair: 'USDT_ETH', price: '100' }]);
  });

  it('carries the reference’s fields: calculation mode, currency ids, custom safety steps, widget', async () => {
    const { deal } = await manualDeal({ custom_safety_steps: [{ deviation: '-1.5', size: '10' }] });
    for (const field of ['safety_order_calculation_mode', 'from_currency_id', 'to_currency_id', 'crypto_widget']) assert.ok(field in deal, field);
    assert.deepEqual(deal.custom_safety_steps, [{ deviation: '-1.5', size: 10 }]);
    await api(bench, 'POST', `/ver1/deals/${deal.id}/cancel`);
  });
});

describe('deal actions', () => {
  it('edits a deal: take profit, stop loss, safety orders; refuses once it has closed', async () => {
    const { deal } = await manualDeal();
    const updated = await api(bench, 'PATCH', `/ver1/deals/${deal.id}/update_deal`, { take_profit: '3', stop_loss_percentage: '10', note: 'watch it' });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body.take_profit, '3');
    assert.equal(updated.body.take_profit_price, '103.21');
    assert.equal(updated.body.stop_loss_price, '90');
    assert.equal(updated.body.note, 'watch it');
    assertRecordInvalid(await api(bench, 'PATCH', `/ver1/deals/${deal.id}/update_deal`, { take_profit: '-1' }), { take_profit: ['must be greater than 0'] });
    const tp = await api(bench, 'POST', `/ver1/deals/${deal.id}/update_tp`, { new_take_profit_percentage: '1' });
    assert.equal(tp.status, 201);
    assert.equal(tp.body.take_profit_price, '101.21');
    const fewer = await api(bench, 'POST', `/ver1/deals/${deal.id}/update_max_safety_orders`, { max_safety_orders: 1 });
    assert.equal(fewer.status, 201);
    assert.equal(fewer.body.max_safety_orders, 1);
    assert.deepEqual(fewer.body.buy_steps, [{ price: '99', filled: '0' }]);
    const sold = await api(bench, 'POST', `/ver1/deals/${deal.id}/panic_sell`);
    assert.equal(sold.body.status, 'panic_sold');
    assertError(await api(bench, 'PATCH', `/ver1/deals/${deal.id}/update_deal`, { take_profit: '3' }), 400, {
      error: 'record_invalid',
      error_description: 'Invalid parameters',
      error_attributes: { base: ["Can't be edit"] },
    });
    const again = await api(bench, 'POST', `/ver1/deals/${deal.id}/panic_sell`);
    assert.equal(again.status, 403);
  });

  it('adds funds with manual safety orders and cancels one', async () => {
    const { deal } = await manualDeal();
    const data = (await api(bench, 'GET', `/ver1/deals/${deal.id}/data_for_adding_funds`)).body;
    assert.equal(data.orderbook_price, '100');
    assert.equal(data.adding_funds_currency, 'USDT');
    assert.equal(data.deal_type, 'long');
    assert.equal(data.limits.lotStep, '0.0001');
    assert.equal(data.account_type, 'Account::PaperTradingAccount');
    assert.ok(Number(data.available_amount) > 0);
    assertRecordInvalid(await api(bench, 'POST', `/ver1/deals/${deal.id}/add_funds`, { quantity: '0.1', is_market: false }), { rate: ['is missing'] });
    const limit = await api(bench, 'POST', `/ver1/deals/${deal.id}/add_funds`, { quantity: '0.1', is_market: false, rate: '95', response_type: 'market_order' });
    assert.equal(limit.status, 201, limit.text);
    assert.equal(limit.body.deal_order_type, 'Manual Safety');
    assert.equal(limit.body.cancellable, true);
    const market = await api(bench, 'POST', `/ver1/deals/${deal.id}/add_funds`, { quantity: '0.1', is_market: true, response_type: 'deal' });
    assert.equal(market.body.completed_manual_safety_orders_count, 1);
    assert.equal(market.body.bought_amount, '1.1');
    assert.equal(market.body.active_manual_safety_orders, 1);
    const orders = (await api(bench, 'GET', `/ver1/deals/${deal.id}/market_orders`)).body;
    const base = orders.find((o: any) => o.deal_order_type === 'Base');
    assertError(await api(bench, 'POST', `/ver1/deals/${deal.id}/cancel_order`, { order_id: Number(base.order_id) }), 422, { error: 'Cant be cancelled' });
    const cancelled = await api(bench, 'POST', `/ver1/deals/${deal.id}/cancel_order`, { order_id: Number(limit.body.order_id) });
    assert.equal(cancelled.status, 201, cancelled.text);
    const manual = cancelled.body.find((o: any) => o.order_id === limit.body.order_id);
    assert.equal(manual.status_string, 'Cancelled');
    await api(bench, 'POST', `/ver1/deals/${deal.id}/cancel`);
  });

  it('closes one take-profit step at market, then the rest at the next step', async () => {
    const { deal } = await manualDeal({
      take_profit: null,
      take_profit_steps: [{ amount_percentage: '50', profit_percentage: '1' }, { amount_percentage: '50', profit_percentage: '3' }],
    });
    const steps = (await api(bench, 'GET', `/ver1/deals/${deal.id}/show`)).body.take_profit_steps;
    assert.deepEqual(steps.map((s: any) => [s.price, s.initial_amount, s.status]), [['101.21', '0.4995', 'Placed'], ['103.21', '0.4995', 'Placed']]);
    assertRecordInvalid(await api(bench, 'POST', `/ver1/deals/${deal.id}/panic_sell_step`, { trade_id: 1 }), {
      trade_id: ['is not a working take profit step of this deal'],
    });
    const closedStep = await api(bench, 'POST', `/ver1/deals/${deal.id}/panic_sell_step`, { trade_id: steps[0].trade_id });
    assert.equal(closedStep.status, 201, closedStep.text);
    assert.equal(closedStep.body.take_profit_steps[0].status, 'Closed at Market Price');
    assert.equal(closedStep.body.current_active_safety_orders, 0);
    await ticks(bench, [{ pair: 'USDT_ETH', price: '103.3' }]);
    const done = (await api(bench, 'GET', `/ver1/deals/${deal.id}/show`)).body;
    assert.equal(done.status, 'completed');
    assert.equal(done.sold_amount, '0.999');
    // Done steps keep naming the order that completed them.
    const orders = (await api(bench, 'GET', `/ver1/deals/${deal.id}/market_orders`)).body;
    const exits = orders.filter((o: any) => o.deal_order_type === 'Take Profit');
    assert.deepEqual(
      done.take_profit_steps.map((s: any) => [s.status, typeof s.trade_id]),
      [['Closed at Market Price', 'number'], ['Filled', 'number']],
    );
    assert.ok(done.take_profit_steps.every((s: any) => exits.some((o: any) => Number(o.order_id) === s.trade_id)), JSON.stringify(exits));
    await ticks(bench, [{ pair: 'USDT_ETH', price: '100' }]);
  });

  it('converts a deal into a SmartTrade with its take profit and stop loss; the deal ends', async () => {
    const { bot, deal } = await manualDeal({ stop_loss_percentage: '10' });
    assert.equal(deal.smart_trade_convertable, true);
    const converted = await api(bench, 'POST', `/ver1/deals/${deal.id}/convert_to_smart_trade`, { stop_bot: true });
    assert.equal(converted.status, 201, converted.text);
    const trade = converted.body;
    assert.deepEqual([trade.pair, trade.position.type, trade.position.units.value, trade.position.price.value], ['USDT_ETH', 'buy', '0.999', '100']);
    assert.deepEqual(trade.take_profit.steps.map((s: any) => [s.price.value, s.volume]), [['102.21', '100']]);
    assert.equal(trade.stop_loss.conditional.price.value, '90');
    assert.equal(trade.note, `Converted from deal #${deal.id}`);
    const ended = (await api(bench, 'GET', `/ver1/deals/${deal.id}/show`)).body;
    assert.deepEqual([ended.status, ended.smart_trade_convertable], ['cancelled', false]);
    assert.ok(ended.bot_events.some((e: any) => e.message.startsWith('Converting the deal into a SmartTrade')));
    assert.equal((await api(bench, 'GET', `/ver1/bots/${bot.id}/show`)).body.is_enabled, false);
    await ticks(bench, [{ pair: 'USDT_ETH', price: '102.3' }]);
    const after = await api(bench, 'GET', `/v2/smart_trades/${trade.id}`);
    assert.equal(after.body.status.type, 'finished', JSON.stringify(after.body.status));
    await ticks(bench, [{ pair: 'USDT_ETH', price: '100' }]);
    assertError(await api(bench, 'POST', `/ver1/deals/${deal.id}/convert_to_smart_trade`, {}), 403, {
      error: 'Forbidden',
      error_description: 'Only an active long deal that has bought and is not closing can be converted',
    });
  });

  it('answers 404 for another user’s deal and for unknown ones', async () => {
    const { deal } = await manualDeal();
    assertError(await api(bench, 'GET', '/ver1/deals/555555/market_orders'), 404, { error: 'not_found', error_description: 'Not Found' });
    const stranger = await newUser(bench.t);
    const response = await bench.t.request({ method: 'POST', path: `/ver1/deals/${deal.id}/cancel`, body: '{}', contentType: 'application/json', credentials: stranger.credentials });
    assert.equal(response.status, 404);
    const before = await balances(bench);
    await api(bench, 'POST', `/ver1/deals/${deal.id}/cancel`);
    assert.deepEqual(await balances(bench), before);
  });
});
