import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { balances, type Bench, call, createSmartTrade, position, show, startBench, step, tick, walk } from './smart-trade-support.ts';

let bench: Bench;
before(async () => {
  bench = await startBench();
});
after(() => bench.t.close());

const stopLoss = (price: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  enabled: true,
  order_type: 'market',
  conditional: { price: { type: 'last', ...price } },
  ...extra,
});

describe('SmartTrade exits on the paper exchange', () => {
  it('multi-step take profit: each step sells its volume at its price, the last takes the rest', async () => {
    await tick(bench, '2000');
    const created = await createSmartTrade(bench, {
      position: position('1'),
      take_profit: { enabled: true, steps: [step('50', { value: '2100' }), step('30', { value: '2200' }), step('20', { percent: '15' })] },
    });
    const open = await show(bench, created.id);
    assert.deepEqual(open.take_profit.steps.map((s: any) => [s.units.value, s.price.value, s.status.type]), [
      ['0.4995', '2100', 'order_placed'],
      ['0.2997', '2200', 'order_placed'],
      ['0.1998', '2300', 'order_placed'],
    ]);
    await tick(bench, '2150');
    const first = await show(bench, created.id);
    assert.deepEqual([first.status.type, first.take_profit.steps.map((s: any) => s.status.type)], ['waiting_targets', ['finished', 'order_placed', 'order_placed']]);
    assert.equal(first.data.closed_amount, '0.4995');
    await walk(bench, ['2250', '2310']);
    const done = await show(bench, created.id);
    assert.deepEqual([done.status.type, done.data.closed_amount], ['finished', '0.999']);
    // (0.4995 × 2100 + 0.2997 × 2200 + 0.1998 × 2300) × 0.999
    assert.deepEqual([done.data.closed_total, done.data.average_close_price_without_commission], ['2165.66217', '2170']);
  });

  it('trailing take profit: activates at the target, follows the high, exits at market on the pullback', async () => {
    await tick(bench, '2000');
    const created = await createSmartTrade(bench, {
      position: position('0.5'),
      take_profit: { enabled: true, steps: [step('100', { percent: '10' }, { trailing: { enabled: true, percent: '2' } })] },
    });
    await tick(bench, '2200');
    assert.equal((await show(bench, created.id)).take_profit.steps[0].status.type, 'trailing_activated');
    await walk(bench, ['2300', '2400', '2353']);
    assert.equal((await show(bench, created.id)).status.type, 'waiting_targets');
    await tick(bench, '2352');
    const done = await show(bench, created.id);
    assert.deepEqual([done.status.type, done.data.average_close_price_without_commission], ['finished', '2352']);
  });

  it('stop loss: a market sell of the whole position when the price falls to it; resting targets are cancelled first', async () => {
    await tick(bench, '2000');
    const created = await createSmartTrade(bench, {
      position: position('0.5'),
      take_profit: { enabled: true, steps: [step('100', { value: '2400' })] },
      stop_loss: stopLoss({ value: '1900' }),
    });
    await tick(bench, '1899');
    const done = await show(bench, created.id);
    assert.deepEqual([done.status.type, done.stop_loss.status.type, done.take_profit.steps[0].status.type], ['stop_loss_finished', 'finished', 'cancelled']);
    assert.deepEqual([done.data.closed_amount, done.data.average_close_price_without_commission], ['0.4995', '1899']);
    assert.equal((await balances(bench)).ETH!.locked, 0);
  });

  it('trailing stop: moves up with the high at its distance, never down, and closes when hit', async () => {
    await tick(bench, '2000');
    const created = await createSmartTrade(bench, {
      position: position('0.5'),
      take_profit: { enabled: true, steps: [step('100', { value: '3000' })] },
      stop_loss: stopLoss({ percent: '5' }, { conditional: { price: { type: 'last', percent: '5' }, trailing: { enabled: true, percent: '5' } } }),
    });
    assert.equal((await show(bench, created.id)).stop_loss.conditional.price.value, '1900');
    await walk(bench, ['2100', '2200']);
    assert.equal((await show(bench, created.id)).stop_loss.conditional.price.value, '2090');
    await tick(bench, '2100');
    assert.equal((await show(bench, created.id)).stop_loss.conditional.price.value, '2090');
    await tick(bench, '2089');
    const done = await show(bench, created.id);
    assert.deepEqual([done.status.type, done.data.average_close_price_without_commission], ['stop_loss_finished', '2089']);
    assert.ok(Number(done.profit.volume) > 0);
  });

  it('breakeven: after the first step fills, the stop moves to the entry price', async () => {
    await tick(bench, '2000');
    const created = await createSmartTrade(bench, {
      position: position('1'),
      take_profit: { enabled: true, steps: [step('50', { value: '2100' }), step('50', { value: '2300' })] },
      stop_loss: stopLoss({ value: '1800' }, { breakeven: true }),
    });
    await tick(bench, '2100');
    const moved = await show(bench, created.id);
    // Entry with commission: 2000 USDT for 0.999 ETH.
    assert.equal(moved.stop_loss.conditional.price.value, '2002');
    await tick(bench, '2001');
    const done = await show(bench, created.id);
    assert.deepEqual([done.status.type, done.take_profit.steps.map((s: any) => s.status.type)], ['stop_loss_finished', ['finished', 'cancelled']]);
  });

  it('stop loss timeout: the trade stays open when the price has recovered when the wait ends', async () => {
    const start = Date.now();
    await tick(bench, '2000', { at: new Date(start) });
    const created = await createSmartTrade(bench, { position: position('0.5'), stop_loss: stopLoss({ value: '1900' }, { timeout: { enabled: true, value: 60 } }) });
    await tick(bench, '1890', { at: new Date(start + 1_000) });
    assert.deepEqual((await show(bench, created.id)).stop_loss.status, { type: 'timeout', basic_type: 'timeout', title: 'Waiting Timeout' });
    await tick(bench, '1950', { at: new Date(start + 62_000) });
    const open = await show(bench, created.id);
    assert.deepEqual([open.status.type, open.stop_loss.status.type], ['waiting_targets', 'idle']);
    await call(bench, 'DELETE', `/v2/smart_trades/${created.id}`);
  });

  it('stop loss timeout: closes when the price is still beyond the stop when the wait ends', async () => {
    const start = Date.now() + 100_000;
    await tick(bench, '2000', { at: new Date(start) });
    const created = await createSmartTrade(bench, { position: position('0.5'), stop_loss: stopLoss({ value: '1900' }, { timeout: { enabled: true, value: 60 } }) });
    await tick(bench, '1890', { at: new Date(start + 1_000) });
    await tick(bench, '1950', { at: new Date(start + 30_000) });
    assert.equal((await show(bench, created.id)).status.type, 'waiting_targets');
    await tick(bench, '1880', { at: new Date(start + 62_000) });
    const done = await show(bench, created.id);
    assert.deepEqual([done.status.type, done.data.average_close_price_without_commission], ['stop_loss_finished', '1880']);
  });
});
