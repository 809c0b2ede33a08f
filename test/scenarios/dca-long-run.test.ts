/**
 * A DCA bot run over 66 days of real ETH/USD 4h candles (May to early July 2021, with the May
 * crash), each candle walked open → first extreme → second extreme → close on the paper exchange,
 * one tick per request so that the bot answers each price before the next one arrives.
 *
 * What is compared, after the last deal is closed at market:
 * - the bot's stats equal the sums over its closed deals as /ver1/deals lists them: overall_stats
 *   USDT exactly, profits_in_usd.overall_usd_profit to the cent, deals_stats counts;
 * - the paper account's ETH balance changed by what the last deal's exit could not sell: less than
 *   one lot step (0.0001 ETH), however many deals ran, since each deal starts with what the one
 *   before it left over on the pair;
 * - its USDT balance changed by exactly the sum of those deals' final_profit (every fee included:
 *   buys pay theirs in ETH, sells in USDT), less that leftover at what it cost the last deal.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { intraCandlePath } from '../../src/domain/market/candle.ts';
import { candleDurationMs, MARKET_FIXTURES_DIR, readCandles } from '../../src/market-data/market-files.ts';
import { dec, ZERO } from '../../src/shared/decimal.ts';
import { api, balances, createBot, type DcaBench, startDcaBench, ticks } from './dca-support.ts';

const FILE = path.join(MARKET_FIXTURES_DIR, 'coinbase-ETHUSD-4h-2016-05_2025-10.csv.gz');
const FROM = Date.UTC(2021, 4, 1);
const CANDLES = 400;

let bench: DcaBench;
before(async () => {
  bench = await startDcaBench({ USDT_BTC: '57000' });
});
after(() => bench.t.close());

describe('a DCA bot over real candles', () => {
  it('reports stats equal to its closed deals and to the paper account’s balance change', async () => {
    const all = readCandles(FILE);
    const start = all.findIndex((candle) => candle.time.getTime() >= FROM);
    const candles = all.slice(start, start + CANDLES);
    const duration = candleDurationMs(FILE);
    await ticks(bench, [{ pair: 'USDT_ETH', price: candles[0]!.open.toFixed(), at: candles[0]!.time.toISOString() }]);
    const before = await balances(bench);
    const bot = await createBot(bench, {
      max_safety_orders: 4,
      active_safety_orders_count: 2,
      safety_order_step_percentage: '2',
      martingale_step_coefficient: '1.5',
      stop_loss_percentage: '25',
    });
    for (const candle of candles) {
      for (const point of intraCandlePath(candle, duration)) {
        await ticks(bench, [{ pair: 'USDT_ETH', price: point.price.toFixed(), at: point.at.toISOString() }]);
      }
    }
    // Disabled first, or nonstop would open a new deal as soon as the last one closed.
    assert.equal((await api(bench, 'POST', `/ver1/bots/${bot.id}/disable`)).status, 201);
    const closedAll = await api(bench, 'POST', `/ver1/bots/${bot.id}/panic_sell_all_deals`);
    assert.equal(closedAll.status, 201, closedAll.text);
    await bench.t.core.engine.settled();

    const listed = (await api(bench, 'GET', `/ver1/deals?bot_id=${bot.id}&limit=1000`)).body as Array<Record<string, string>>;
    assert.ok(listed.length > 20, `only ${listed.length} deals`);
    assert.ok(listed.every((deal) => deal['finished?']), JSON.stringify(listed.filter((deal) => !deal['finished?']).map((d) => [d.id, d.status, d.error_message])));
    const statuses = new Set(listed.map((deal) => deal.status));
    assert.ok(statuses.has('completed') && statuses.has('stop_loss_finished') && statuses.has('panic_sold'), [...statuses].join());
    const sum = (field: string) => listed.reduce((total, deal) => total.plus(dec(deal[field]!)), ZERO);
    const profit = sum('final_profit');

    const stats = (await api(bench, 'GET', `/ver1/bots/stats?bot_id=${bot.id}`)).body;
    assert.equal(stats.overall_stats.USDT, profit.toFixed());
    // USDT profits are their own dollar value.
    assert.equal(stats.profits_in_usd.overall_usd_profit, Number(profit.toDecimalPlaces(2).toFixed()));
    assert.equal(stats.profits_in_usd.active_deals_usd_profit, 0);
    assert.equal(stats.profits_in_usd.funds_locked_in_active_deals, 0);
    const dealsStats = (await api(bench, 'GET', `/ver1/bots/${bot.id}/deals_stats`)).body;
    assert.equal(dealsStats.completed, listed.filter((deal) => deal.status === 'completed').length);
    assert.equal(dealsStats.panic_sold, 1);
    assert.equal(dealsStats.active, 0);

    const after = await balances(bench);
    const ethLeft = dec(after.ETH!).minus(dec(before.ETH!));
    assert.ok(ethLeft.gte(0) && ethLeft.lt('0.0001'), ethLeft.toFixed());
    const last = listed.reduce((newest, deal) => (Number(deal.id) > Number(newest.id) ? deal : newest));
    const cost = dec(last.bought_volume!).div(dec(last.bought_amount!).times('0.999'));
    assert.equal(dec(after.USDT!).minus(dec(before.USDT!)).toFixed(), profit.minus(ethLeft.times(cost).toDecimalPlaces(10)).toFixed());
  });
});
