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
      [['Base', 'Filled', '0'], ['Safety', 'Active', '97.8'], ['Safety', 'Active', '99'], ['Take Profit', 'Active', '102.11']].sort(),
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
    // The closed deal's profit is what the account gained in USDT, apart from the next deal's buy.
    const next = all[1]!;
    const quoteChange = dec(after.USDT!).minus(dec(before.USDT!)).plus(dec(next.bought_volume));
    assert.equal(dec(all[0]!.final_profit).toFixed(8), quoteChange.toDecimalPlaces(8).toFixed());
  });
});
