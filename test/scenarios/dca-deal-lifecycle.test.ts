import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dec } from '../../src/shared/decimal.ts';
import { api, balances, createBot, deals, type DcaBench, startDcaBench, walk } from './dca-support.ts';

let bench: DcaBench;
before(async () => {
  bench = await startDcaBench();
});
after(() => bench.t.close());

describe('a DCA deal on the paper exchange', () => {
  it('completes through safety orders at the re-placed take profit, and nonstop opens the next deal', async () => {
    const before = await balances(bench);
    const bot = await createBot(bench, { max_safety_orders: 3, active_safety_orders_count: 2 });
    const [first] = await deals(bench, bot.id);
    assert.equal(first!.status, 'bought');
    assert.equal(first!.bought_amount, '1');
    const orders = (await api(bench, 'GET', `/ver1/deals/${first!.id}/market_orders`)).body;
    assert.deepEqual(
      orders.map((o: any) => [o.deal_order_type, o.status_string, o.rate]).sort(),
      [['Base', 'Filled', '0'], ['Safety', 'Active', '97.8'], ['Safety', 'Active', '99'], ['Take Profit', 'Active', '102.21']].sort(),
    );
    await walk(bench, 'USDT_ETH', ['99.5', '98.9']);
    const averaged = (await api(bench, 'GET', `/ver1/deals/${first!.id}/show`)).body;
    assert.equal(averaged.completed_safety_orders_count, 1);
    assert.ok(dec(averaged.bought_average_price).lt(100));
    await walk(bench, 'USDT_ETH', ['101', '102.5']);
    const all = await deals(bench, bot.id);
    assert.equal(all[0]!.status, 'completed');
    assert.equal(all.length, 2);
    assert.equal(all[1]!.status, 'bought');
    const after = await balances(bench);
    // The closed deal's profit is what the account gained in USDT, apart from the next deal's buy,
    // plus the ETH its take profit could not sell (under the lot step) at what that cost: 1.5051 ETH
    // bought for 150.0049 USDT, 0.999 of it left after the fees.
    const [closed, next] = [all[0]!, all[1]!];
    const quoteChange = dec(after.USDT!).minus(dec(before.USDT!)).plus(dec(next.bought_volume));
    const held = dec(closed.bought_amount).times('0.999');
    const leftover = held.minus(dec(closed.sold_amount));
    assert.ok(leftover.gt(0) && leftover.lt('0.0001'), leftover.toFixed());
    const value = leftover.times(dec(closed.bought_volume)).div(held).toDecimalPlaces(10);
    assert.equal(dec(closed.final_profit).toFixed(), quoteChange.plus(value).toFixed());
  });

  it('takes tp % of what it spent, though the buy paid its fee in the coins bought', async () => {
    const bot = await createBot(bench, { pairs: ['USDT_BTC'], take_profit: '2.5', max_safety_orders: 0 });
    const [deal] = await deals(bench, bot.id);
    // 0.005 BTC bought for 100 USDT leaves 0.004995 BTC: the target covers that fee and the sell's.
    assert.equal(deal!.take_profit_price, '20541.07');
    await walk(bench, 'USDT_BTC', ['20600']);
    const [closed] = await deals(bench, bot.id);
    assert.equal(closed!.status, 'completed');
    // It sells 0.00499 BTC (the lot step) and keeps 0.000005 BTC at the 0.1001001001 USDT it cost:
    // 2.5 % of 100 USDT, less the 0.0026 the leftover would have made at the target.
    assert.equal(closed!.sold_amount, '0.00499');
    assert.equal(closed!.final_profit, '2.4975394608');
  });
});
