import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { balances, type Bench, call, createSmartTrade, position, show, startBench, step, tick } from './smart-trade-support.ts';

let bench: Bench;
before(async () => {
  bench = await startBench();
});
after(() => bench.t.close());

const target = (price: string) => ({ enabled: true, steps: [step('100', { value: price })] });

describe('SmartTrade entry on the paper exchange', () => {
  it('market: enters at once at the ask; the fee is paid in ETH, so 0.999 of 1 ETH is held', async () => {
    await tick(bench, '2000', { bid: '1999', ask: '2001' });
    const before = await balances(bench);
    const created = await createSmartTrade(bench, { position: position('1'), take_profit: target('2500') });
    const trade = await show(bench, created.id);
    assert.deepEqual([trade.status.type, trade.position.status.type], ['waiting_targets', 'finished']);
    assert.deepEqual(
      [trade.data.entered_amount, trade.data.entered_total, trade.data.average_enter_price_without_commission, trade.data.average_enter_price],
      ['0.999', '2001', '2001', '2003.003003'],
    );
    assert.equal(trade.data.commission, 0.001);
    const after = await balances(bench);
    // 2001 USDT spent; 0.999 ETH received, all of it locked in the take-profit order.
    assert.equal(Math.round((before.USDT!.free - after.USDT!.free) * 100) / 100, 2001);
    assert.equal(after.ETH!.locked, 0.999);
    await call(bench, 'DELETE', `/v2/smart_trades/${created.id}`);
  });

  it('limit: rests below the price and fills when the market comes down to it', async () => {
    await tick(bench, '2000');
    const created = await createSmartTrade(bench, { position: position('0.5', { order_type: 'limit', price: { value: '1950' } }), take_profit: target('2100') });
    assert.deepEqual([created.status.type, created.position.status.type], ['created', 'to_process']);
    assert.equal((await balances(bench)).USDT!.locked, 975);
    await tick(bench, '1960');
    assert.equal((await show(bench, created.id)).status.type, 'waiting_position');
    await tick(bench, '1949');
    const trade = await show(bench, created.id);
    assert.deepEqual([trade.status.type, trade.data.average_enter_price_without_commission, trade.data.entered_amount], ['waiting_targets', '1950', '0.4995']);
    await tick(bench, '2100');
    const done = await show(bench, created.id);
    assert.deepEqual([done.status.type, done.data.closed_amount, done.data.average_close_price_without_commission], ['finished', '0.4995', '2100']);
    // 0.4995 × 2100 × 0.999 − 0.5 × 1950
    assert.equal(done.profit.volume, '72.90105');
  });

  it('conditional market: waits for the trigger on the chosen price, then buys at market', async () => {
    await tick(bench, '2000');
    const created = await createSmartTrade(bench, {
      position: position('0.5', { order_type: 'conditional', conditional: { order_type: 'market', price: { type: 'bid', value: '1900' } } }),
      take_profit: target('2100'),
    });
    assert.deepEqual([created.position.status.type, created.position.conditional.price], ['to_process', { type: 'bid', value: '1900' }]);
    await tick(bench, '1899', { bid: '1901', ask: '1903' });
    assert.equal((await show(bench, created.id)).position.status.type, 'to_process');
    await tick(bench, '1899', { bid: '1899', ask: '1900' });
    const trade = await show(bench, created.id);
    assert.deepEqual([trade.status.type, trade.data.average_enter_price_without_commission], ['waiting_targets', '1900']);
    await call(bench, 'DELETE', `/v2/smart_trades/${created.id}`);
  });

  it('conditional limit: a breakout trigger above the price places a limit buy at the given price', async () => {
    await tick(bench, '2000');
    const created = await createSmartTrade(bench, {
      position: position('0.5', { order_type: 'conditional', price: { value: '2040' }, conditional: { order_type: 'limit', price: { type: 'last', value: '2050' } } }),
      take_profit: target('2200'),
    });
    await tick(bench, '2050');
    const placed = await show(bench, created.id);
    assert.deepEqual([placed.status.type, placed.position.status.type], ['waiting_position', 'order_placed']);
    await tick(bench, '2039');
    assert.equal((await show(bench, created.id)).data.average_enter_price_without_commission, '2040');
    await call(bench, 'DELETE', `/v2/smart_trades/${created.id}`);
  });

  it('trailing entry: after the trigger it follows the low and buys when the price turns up by the percent', async () => {
    await tick(bench, '2000');
    const created = await createSmartTrade(bench, {
      position: position('0.5', { order_type: 'conditional', conditional: { order_type: 'market', price: { type: 'last', value: '1900' }, trailing: { enabled: true, percent: '1' } } }),
      take_profit: target('2100'),
    });
    await tick(bench, '1890');
    assert.equal((await show(bench, created.id)).position.status.type, 'trailing_activated');
    await tick(bench, '1800');
    await tick(bench, '1817');
    assert.equal((await show(bench, created.id)).position.status.type, 'trailing_activated');
    await tick(bench, '1818');
    const trade = await show(bench, created.id);
    assert.deepEqual([trade.status.type, trade.data.average_enter_price_without_commission], ['waiting_targets', '1818']);
    await call(bench, 'DELETE', `/v2/smart_trades/${created.id}`);
  });

  it('simple buy and simple sell: one market order each, finished at once', async () => {
    await tick(bench, '2000');
    const buy = await createSmartTrade(bench, { instant: true, position: position('0.1') });
    const sell = await createSmartTrade(bench, { instant: true, position: position('0.1', { type: 'sell' }) });
    const [bought, sold] = [await show(bench, buy.id), await show(bench, sell.id)];
    assert.deepEqual([bought.data.type, bought.status.type, bought.data.entered_amount, bought.data.entered_total], ['simple_buy', 'finished', '0.0999', '200']);
    assert.deepEqual([sold.data.type, sold.status.type, sold.data.entered_amount, sold.data.entered_total], ['simple_sell', 'finished', '0.1', '199.8']);
  });

  it('smart sell: no entry; the targets sell coins already held, valued at the price given', async () => {
    await tick(bench, '2000');
    const created = await createSmartTrade(bench, {
      skip_enter_step: true,
      position: position('0.2', { price: { value: '1800' } }),
      take_profit: { enabled: true, steps: [step('100', { percent: '20' })] },
    });
    const trade = await show(bench, created.id);
    assert.deepEqual([trade.data.type, trade.position.status.type, trade.take_profit.steps[0].price.value], ['smart_sell', 'smart_sell', '2160']);
    await tick(bench, '2160');
    const done = await show(bench, created.id);
    // 0.2 × 2160 × 0.999 − 0.2 × 1800
    assert.deepEqual([done.status.type, done.profit.volume], ['finished', '71.568']);
  });

  it('smart cover: a short sells first and buys back lower', async () => {
    await tick(bench, '2000');
    const created = await createSmartTrade(bench, {
      position: position('0.2', { type: 'sell' }),
      take_profit: { enabled: true, steps: [step('100', { percent: '5' })] },
    });
    const open = await show(bench, created.id);
    assert.deepEqual([open.data.type, open.take_profit.steps[0].price.value, open.data.entered_total], ['smart_cover', '1900', '399.6']);
    await tick(bench, '1899');
    const done = await show(bench, created.id);
    assert.deepEqual([done.status.type, done.data.closed_amount, done.data.closed_total], ['finished', '0.1998', '380']);
    // 399.6 received for 0.2; 380 paid for 0.1998 after the 0.0002 ETH fee: 1998 × 0.1998 − 380.
    assert.equal(done.profit.volume, '19.2004');
  });

  it('an entry the exchange refuses fails the trade with its reason', async () => {
    await tick(bench, '2000');
    const created = await createSmartTrade(bench, { position: position('9'), take_profit: target('2500') });
    const trade = await show(bench, created.id);
    assert.equal(trade.status.type, 'failed');
    assert.match(trade.status.error, /insufficient|funds|balance/i);
  });
});
