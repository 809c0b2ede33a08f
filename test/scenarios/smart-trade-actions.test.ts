import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { anotherUser, balances, type Bench, call, createSmartTrade, position, show, startBench, step, tick } from './smart-trade-support.ts';

let bench: Bench;
before(async () => {
  bench = await startBench();
});
after(() => bench.t.close());
// Every test trades on a fresh paper account, so balances are known and never run out.
beforeEach(async () => {
  Object.assign(bench, await anotherUser(bench));
});

const wrongStatus = (action: string) => ({ error: 'Wrong param(s)', error_description: `${action} is not allowed in the current status` });
const pendingLimit = () => createSmartTrade(bench, { position: position('0.5', { order_type: 'limit', price: { value: '1800' } }), take_profit: { enabled: true, steps: [step('100', { value: '2400' })] } });
const entered = (extra: Record<string, unknown> = {}) =>
  createSmartTrade(bench, { position: position('1'), take_profit: { enabled: true, steps: [step('50', { value: '2200' }), step('50', { percent: '15' })] }, ...extra });

describe('add funds', () => {
  it('buys more at market, averages the entry, and the percent target follows while the value target stays', async () => {
    await tick(bench, '2000');
    const created = await entered();
    await tick(bench, '1800');
    const response = await call(bench, 'POST', `/v2/smart_trades/${created.id}/add_funds`, { order_type: 'market', units: { value: '1' } });
    assert.equal(response.status, 201, response.text);
    const trade = await show(bench, created.id);
    assert.deepEqual([trade.data.entered_amount, trade.data.entered_total, trade.data.average_enter_price_without_commission], ['1.998', '3800', '1900']);
    assert.deepEqual(trade.take_profit.steps.map((s: any) => [s.units.value, s.price.value]), [['0.999', '2200'], ['0.999', '2185']]);
    assert.equal((await balances(bench)).ETH!.locked, 1.998);
    await call(bench, 'DELETE', `/v2/smart_trades/${created.id}`);
  });

  it('is refused with trailing, for simple trades, and once the trade ended', async () => {
    await tick(bench, '2000');
    const trailing = await entered({ stop_loss: { enabled: true, order_type: 'market', conditional: { price: { percent: '5' }, trailing: { enabled: true } } } });
    const refused = await call(bench, 'POST', `/v2/smart_trades/${trailing.id}/add_funds`, { order_type: 'market', units: { value: '0.1' } });
    assert.deepEqual([refused.status, refused.body], [400, wrongStatus('Add funds')]);
    const simple = await createSmartTrade(bench, { instant: true, position: position('0.1') });
    const ended = await call(bench, 'POST', `/v2/smart_trades/${simple.id}/add_funds`, { order_type: 'market', units: { value: '0.1' } });
    assert.deepEqual([ended.status, ended.body], [400, wrongStatus('Add funds')]);
    await call(bench, 'DELETE', `/v2/smart_trades/${trailing.id}`);
  });
});

describe('reduce funds', () => {
  it('sells part of the position; the targets share the rest; the info endpoint reports the maximum', async () => {
    await tick(bench, '2000');
    const created = await entered();
    const info = await call(bench, 'GET', `/v2/smart_trades/${created.id}/reduce_funds_info`);
    assert.deepEqual([info.status, info.body], [200, { max_reduce_funds_amount: '0.999' }]);
    const response = await call(bench, 'POST', `/v2/smart_trades/${created.id}/reduce_funds`, { order_type: 'market', units: { value: '0.399' } });
    assert.equal(response.status, 201, response.text);
    assert.equal(response.body.status.type, 'pending_reduce_funds');
    const trade = await show(bench, created.id);
    assert.equal(trade.status.type, 'waiting_targets');
    assert.deepEqual(trade.reduce_funds.steps.map((s: any) => [s.units.value, s.status.type, s.price.value_without_commission]), [['0.399', 'finished', '2000']]);
    assert.deepEqual(trade.take_profit.steps.map((s: any) => s.units.value), ['0.3', '0.3']);
    assert.equal((await balances(bench)).ETH!.locked, 0.6);
    await call(bench, 'DELETE', `/v2/smart_trades/${created.id}`);
  });

  it('refuses more than the maximum (422) and any status but waiting_targets (400)', async () => {
    await tick(bench, '2000');
    const created = await entered();
    const tooMuch = await call(bench, 'POST', `/v2/smart_trades/${created.id}/reduce_funds`, { order_type: 'market', units: { value: '1' } });
    assert.deepEqual([tooMuch.status, tooMuch.body.error_attributes], [422, { 'units[value]': ['must be less than or equal to 0.999'] }]);
    const waiting = await pendingLimit();
    const info = await call(bench, 'GET', `/v2/smart_trades/${waiting.id}/reduce_funds_info`);
    assert.deepEqual([info.status, info.body], [400, { error: 'Wrong param(s)', error_description: 'Reduce funds is not allowed in the current status' }]);
    const reduce = await call(bench, 'POST', `/v2/smart_trades/${waiting.id}/reduce_funds`, { order_type: 'market', units: { value: '0.1' } });
    assert.deepEqual([reduce.status, reduce.body], [400, wrongStatus('Reduce funds')]);
    await call(bench, 'DELETE', `/v2/smart_trades/${created.id}`);
    await call(bench, 'DELETE', `/v2/smart_trades/${waiting.id}`);
  });
});

describe('cancel and close by market', () => {
  it('cancel in waiting_position answers cancellation_pending, then the trade is cancelled and its funds released', async () => {
    await tick(bench, '2000');
    const created = await pendingLimit();
    assert.equal((await balances(bench)).USDT!.locked, 900);
    const response = await call(bench, 'DELETE', `/v2/smart_trades/${created.id}`);
    assert.deepEqual([response.status, response.body.status.title, response.body.data.cancel_available], [200, 'Cancelling', false]);
    assert.equal(response.body.status.type, 'cancellation_pending');
    const trade = await show(bench, created.id);
    assert.deepEqual([trade.status.type, trade.position.status.type], ['cancelled', 'cancelled']);
    assert.equal((await balances(bench)).USDT!.locked, 0);
  });

  it('cancel in waiting_targets cancels the targets and leaves the bought coins on the account', async () => {
    await tick(bench, '2000');
    const before = await balances(bench);
    const created = await entered({ stop_loss: { enabled: true, order_type: 'market', conditional: { price: { type: 'bid', value: '1700' } } } });
    await call(bench, 'DELETE', `/v2/smart_trades/${created.id}`);
    const trade = await show(bench, created.id);
    assert.deepEqual([trade.status.type, trade.data.entered_amount, trade.data.closed_amount], ['cancelled', '0.999', '0']);
    // The stop loss keeps its settings, with its status cancelled.
    assert.deepEqual(
      [trade.stop_loss.enabled, trade.stop_loss.order_type, trade.stop_loss.conditional.price, trade.stop_loss.status.type],
      [true, 'market', { value: '1700', type: 'bid', percent: null }, 'cancelled'],
    );
    const after = await balances(bench);
    assert.equal(Math.round((after.ETH!.free - before.ETH!.free) * 1e4) / 1e4, 0.999);
    const again = await call(bench, 'DELETE', `/v2/smart_trades/${created.id}`);
    assert.deepEqual([again.status, again.body], [400, wrongStatus('Cancel')]);
  });

  it('close by market sells the whole position (panic_sell_pending, then panic_sold)', async () => {
    await tick(bench, '2000');
    const created = await entered();
    await tick(bench, '2050');
    const response = await call(bench, 'POST', `/v2/smart_trades/${created.id}/close_by_market`);
    assert.deepEqual([response.status, response.body.status.type, response.body.status.title], [201, 'panic_sell_pending', 'Closing at Market Price']);
    const trade = await show(bench, created.id);
    assert.deepEqual([trade.status.type, trade.data.closed_amount, trade.market_close.status.type], ['panic_sold', '0.999', 'finished']);
    // 0.999 × 2050 × 0.999 − 2000
    assert.equal(trade.profit.volume, '45.90205');
  });

  it('close by market is refused while nothing was entered and after the trade ended', async () => {
    await tick(bench, '2000');
    const waiting = await pendingLimit();
    const refused = await call(bench, 'POST', `/v2/smart_trades/${waiting.id}/close_by_market`);
    assert.deepEqual([refused.status, refused.body], [400, wrongStatus('Close by market')]);
    await call(bench, 'DELETE', `/v2/smart_trades/${waiting.id}`);
    const ended = await call(bench, 'POST', `/v2/smart_trades/${waiting.id}/close_by_market`);
    assert.deepEqual([ended.status, ended.body], [400, wrongStatus('Close by market')]);
  });
});

describe('while funds are being reduced', () => {
  const reducing = async () => {
    await tick(bench, '2000');
    const created = await entered();
    const response = await call(bench, 'POST', `/v2/smart_trades/${created.id}/reduce_funds`, { order_type: 'limit', units: { value: '0.5' }, price: { value: '2100' } });
    assert.equal(response.body.status.type, 'pending_reduce_funds');
    return created;
  };

  it('edit, add and reduce funds are refused; a reduce order resting at its limit can be cancelled as a sub-trade', async () => {
    const created = await reducing();
    assert.equal((await show(bench, created.id)).status.type, 'pending_reduce_funds');
    assert.deepEqual((await call(bench, 'PATCH', `/v2/smart_trades/${created.id}`, {})).body, wrongStatus('Edit'));
    assert.deepEqual((await call(bench, 'POST', `/v2/smart_trades/${created.id}/add_funds`, { order_type: 'market', units: { value: '0.1' } })).body, wrongStatus('Add funds'));
    assert.deepEqual((await call(bench, 'GET', `/v2/smart_trades/${created.id}/reduce_funds_info`)).body, wrongStatus('Reduce funds'));
    const reduceId = (await show(bench, created.id)).reduce_funds.steps[0].id;
    const cancelled = await call(bench, 'DELETE', `/v2/smart_trades/${created.id}/trades/${reduceId}`);
    assert.equal(cancelled.status, 200, cancelled.text);
    const trade = await show(bench, created.id);
    assert.deepEqual([trade.status.type, trade.reduce_funds.steps[0].status.type], ['waiting_targets', 'cancelled']);
    assert.deepEqual(trade.take_profit.steps.map((s: any) => s.units.value), ['0.4995', '0.4995']);
    await call(bench, 'DELETE', `/v2/smart_trades/${created.id}`);
  });

  it('cancel stops the reduce order and the targets', async () => {
    const created = await reducing();
    await call(bench, 'DELETE', `/v2/smart_trades/${created.id}`);
    const trade = await show(bench, created.id);
    assert.deepEqual([trade.status.type, trade.reduce_funds.steps[0].status.type], ['cancelled', 'cancelled']);
    assert.equal((await balances(bench)).ETH!.locked, 0);
  });

  it('close by market sells everything held, the reduce order included', async () => {
    const created = await reducing();
    const response = await call(bench, 'POST', `/v2/smart_trades/${created.id}/close_by_market`);
    assert.equal(response.status, 201, response.text);
    const trade = await show(bench, created.id);
    assert.deepEqual([trade.status.type, trade.data.closed_amount], ['panic_sold', '0.999']);
  });
});

describe('force start, force process and sub-trades', () => {
  it('force start enters at market while a limit entry waits; refused afterwards', async () => {
    await tick(bench, '2000');
    const created = await pendingLimit();
    const response = await call(bench, 'POST', `/v2/smart_trades/${created.id}/force_start`);
    assert.equal(response.status, 201, response.text);
    const trade = await show(bench, created.id);
    assert.deepEqual([trade.status.type, trade.data.average_enter_price_without_commission, trade.data.force_start_available], ['waiting_targets', '2000', false]);
    const again = await call(bench, 'POST', `/v2/smart_trades/${created.id}/force_start`);
    assert.deepEqual([again.status, again.body], [400, wrongStatus('Force start')]);
    const processed = await call(bench, 'POST', `/v2/smart_trades/${created.id}/force_process`);
    assert.equal(processed.status, 201, processed.text);
    await call(bench, 'DELETE', `/v2/smart_trades/${created.id}`);
  });

  it('lists its parts, closes one take-profit step at market and cancels another', async () => {
    await tick(bench, '2000');
    const created = await entered({ stop_loss: { enabled: true, order_type: 'market', conditional: { price: { value: '1500' } } } });
    const parts = await call(bench, 'GET', `/v2/smart_trades/${created.id}/trades`);
    assert.equal(parts.status, 200, parts.text);
    assert.deepEqual(parts.body.map((p: any) => [p.trade_purpose, p.status, p.order_side]), [
      ['position', 'finished', 'buy'],
      ['take_profit', 'order_placed', 'sell'],
      ['take_profit', 'order_placed', 'sell'],
      ['stop_loss', 'idle', 'sell'],
    ]);
    const [, first, second] = parts.body;
    const closed = await call(bench, 'POST', `/v2/smart_trades/${created.id}/trades/${first.id}/close_by_market`);
    assert.equal(closed.status, 201, closed.text);
    const cancelled = await call(bench, 'DELETE', `/v2/smart_trades/${created.id}/trades/${second.id}`);
    assert.equal(cancelled.status, 200, cancelled.text);
    const trade = await show(bench, created.id);
    assert.deepEqual(trade.take_profit.steps.map((s: any) => s.status.type), ['finished', 'cancelled']);
    assert.equal(trade.data.closed_amount, '0.4995');
    assert.equal(trade.status.type, 'finished');
    const refused = await call(bench, 'DELETE', `/v2/smart_trades/${created.id}/trades/${second.id}`);
    assert.deepEqual([refused.status, refused.body], [400, { error: 'unprocessable_entity', error_description: 'Trade cannot be cancelled' }]);
    const missing = await call(bench, 'POST', `/v2/smart_trades/${created.id}/trades/999/close_by_market`);
    assert.deepEqual([missing.status, missing.body], [404, { error: 'Not found', error_description: 'Trade not found' }]);
  });
});
