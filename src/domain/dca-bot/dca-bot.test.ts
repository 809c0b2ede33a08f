import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TransitionError } from '../automation.ts';
import { dec } from '../../shared/decimal.ts';
import { newBotState } from './dca-bot-state.ts';
import type { BotConfig, DealSettings } from './dca-settings.ts';
import { DealStartError } from './deal-starts.ts';
import type { DealRecord } from './step-output.ts';
import { BotHarness } from './test-support/bot-harness.ts';
import { botConfig, rules } from './test-support/fixtures.ts';

function harness(config: Partial<BotConfig> = {}, deal: Partial<DealSettings> = {}, price = '100'): BotHarness {
  const h = new BotHarness(newBotState({ userId: 1, accountId: 2, config: botConfig(config, deal) }));
  h.context.setPrice('USDT_ETH', price);
  return h;
}

const lastSnapshot = (h: BotHarness, dealId: number) =>
  h.records.filter((r): r is DealRecord => r.type === 'deal' && r.deal.id === dealId).at(-1)!.deal;
const working = (h: BotHarness, role: string) => [...h.resting.values()].filter((order) => order.role === role);
const milestones = (h: BotHarness, dealId: number) =>
  h.records.flatMap((r) => (r.type === 'deal_milestone' && r.dealId === dealId ? [[r.milestone, r.safetyOrders, r.status]] : []));

describe('a DCA deal', () => {
  it('averages down through safety orders, re-places the take profit, completes and restarts', () => {
    const h = harness();
    h.act({ type: 'enable' });
    const deal = h.deal()!;
    assert.equal(deal.status, 'bought');
    // 1 ETH bought for 100 USDT leaves 0.999 ETH after the fee: each costs 100.1001, so 2 % is 102.21.
    assert.deepEqual(working(h, 'take_profit').map((o) => [o.price!.toFixed(), o.amount.toFixed()]), [['102.21', '0.999']]);
    assert.deepEqual(working(h, 'safety').map((o) => [o.price!.toFixed(), o.amount.toFixed()]), [['99', '0.5051'], ['97.8', '0.7669']]);

    h.tick('USDT_ETH', '99');
    assert.equal(h.deal()!.safetyCompleted, 1);
    assert.deepEqual(working(h, 'take_profit').map((o) => [o.price!.toFixed(), o.amount.toFixed()]), [['101.87', '1.5035']]);
    assert.deepEqual(working(h, 'safety').map((o) => o.price!.toFixed()), ['97.8', '96.36']);

    h.tick('USDT_ETH', '101.9');
    const closed = lastSnapshot(h, deal.id);
    assert.equal(closed.status, 'completed');
    // 1.5035949 ETH held: 1.5035 sold, 0.0000949 (under the lot step) left over at what it cost.
    const spent = dec(100).plus(dec('0.5051').times(99));
    const leftover = dec('0.0000949').times(spent).div('1.5035949').toDecimalPlaces(10);
    assert.deepEqual(closed.leftover, { base: '0.0000949', value: leftover.toFixed() });
    const expected = dec('1.5035').times('101.87').times('0.999').minus(spent).plus(leftover);
    assert.equal(closed.finalProfit, expected.toFixed());
    // 2 % of what the deal spent, and a little more: the price rounds up to its step.
    assert.equal(expected.div(spent).times(100).toDecimalPlaces(3).toFixed(), '2.009');
    assert.equal(closed.usdProfit, expected.toDecimalPlaces(8).toFixed());
    // The safety orders went with it, and nonstop opened the next deal at once.
    assert.equal(working(h, 'safety').filter((o) => o.key.startsWith('d1')).length, 0);
    assert.equal(h.state.deals.length, 1);
    assert.equal(h.deal()!.no, 2);
    assert.equal(h.state.finishedDealsCount, 1);
    // The next deal on the pair starts with the leftover, so its take profit sells it too.
    const next = h.deal()!;
    assert.deepEqual([h.state.leftovers, next.baseDelta], [{}, dec(next.entryHeld!).plus('0.0000949').toFixed()]);
    assert.deepEqual(milestones(h, deal.id), [['opened', 0, 'bought'], ['safety_order_filled', 1, 'bought'], ['closed', 1, 'completed']]);
    assert.deepEqual(milestones(h, next.id), [['opened', 0, 'bought']]);
  });

  it('splits take-profit steps and moves the stop loss to breakeven after the first', () => {
    const h = harness({}, {
      takeProfitSteps: [{ amountPercentage: '50', profitPercentage: '1' }, { amountPercentage: '50', profitPercentage: '3' }],
      slToBreakevenEnabled: true,
      stopLossPercentage: '10',
    });
    h.act({ type: 'enable' });
    assert.deepEqual(working(h, 'take_profit').map((o) => [o.price!.toFixed(), o.amount.toFixed()]), [['101.21', '0.4995'], ['103.21', '0.4995']]);
    h.tick('USDT_ETH', '101.3');
    assert.equal(h.deal()!.breakeven, true);
    assert.equal(working(h, 'safety').length, 0);
    h.tick('USDT_ETH', '99.9');
    assert.equal(lastSnapshot(h, 1000).status, 'stop_loss_finished');
  });

  it('closes at market on the stop loss and disables the bot when asked to', () => {
    const h = harness({}, { stopLossPercentage: '5', stopLossType: 'stop_loss_and_disable_bot', maxSafetyOrders: 0 });
    h.act({ type: 'enable' });
    h.tick('USDT_ETH', '96');
    assert.equal(h.deal()!.status, 'bought');
    h.tick('USDT_ETH', '94.9');
    assert.equal(lastSnapshot(h, 1000).status, 'stop_loss_finished');
    assert.equal(h.state.enabled, false);
    assert.equal(h.state.deals.length, 0);
    assert.ok(dec(lastSnapshot(h, 1000).finalProfit!).lt(-5));
    assert.deepEqual(milestones(h, 1000), [['opened', 0, 'bought'], ['closed', 0, 'stop_loss_finished']]);
  });

  it('waits out the stop-loss timeout and closes only if the price is still past the level', () => {
    const h = harness({}, { stopLossPercentage: '5', stopLossTimeoutEnabled: true, stopLossTimeoutSeconds: 300, maxSafetyOrders: 0 });
    h.act({ type: 'enable' });
    h.tick('USDT_ETH', '94');
    assert.equal(h.deal()!.slTriggeredAt !== null, true);
    h.tick('USDT_ETH', '98', 100_000);
    h.tick('USDT_ETH', '98.5', 250_000);
    assert.equal(h.deal()!.status, 'bought');
    assert.equal(h.deal()!.slTriggeredAt, null);
    h.tick('USDT_ETH', '94');
    h.tick('USDT_ETH', '93', 400_000);
    assert.equal(lastSnapshot(h, 1000).status, 'stop_loss_finished');
  });

  it('trails the take profit and sells when the price gives back the deviation', () => {
    const h = harness({ strategyList: [{ strategy: 'manual', options: {} }] }, { trailingEnabled: true, trailingDeviation: '1', maxSafetyOrders: 0 });
    h.act({ type: 'start_deal', pair: 'USDT_ETH', skipSignalChecks: false, skipOpenDealsChecks: false, onlyForEnabled: false });
    assert.equal(working(h, 'take_profit').length, 0);
    assert.equal(h.deal()!.takeProfitPrice, '102.21');
    h.tick('USDT_ETH', '102.5');
    assert.equal(h.deal()!.status, 'ttp_activated');
    h.tick('USDT_ETH', '105');
    h.tick('USDT_ETH', '104.1');
    assert.equal(h.deal()!.status, 'ttp_activated');
    h.tick('USDT_ETH', '103.9');
    const closed = lastSnapshot(h, 1000);
    assert.equal(closed.status, 'completed');
    assert.equal(closed.trailingMax, '105');
  });

  it('trails the stop loss up behind the best price', () => {
    const h = harness({}, { stopLossPercentage: '5', tslEnabled: true, maxSafetyOrders: 0, takeProfit: '20' });
    h.act({ type: 'enable' });
    h.tick('USDT_ETH', '110');
    assert.equal(h.deal()!.tslExtreme, '110');
    h.tick('USDT_ETH', '104.6');
    assert.equal(h.deal()!.status, 'bought');
    h.tick('USDT_ETH', '104.4');
    const closed = lastSnapshot(h, 1000);
    assert.equal(closed.status, 'stop_loss_finished');
    assert.ok(dec(closed.finalProfit!).gt(3));
  });

  it('values a BTC-quoted deal’s profit in USD and BTC at the close', () => {
    const h = harness({ pairs: ['BTC_ETH'] }, { baseOrderVolume: '0.001', safetyOrderVolume: '0.001', maxSafetyOrders: 0 });
    h.context.marketRules.BTC_ETH = rules('0.00001', '0.001', '0.0001');
    h.context.setPrice('BTC_ETH', '0.05');
    h.context.setPrice('USDT_BTC', '30000');
    h.act({ type: 'enable' });
    h.tick('BTC_ETH', '0.052');
    const closed = lastSnapshot(h, 1000);
    assert.equal(closed.status, 'completed');
    assert.equal(closed.btcProfit, closed.finalProfit);
    assert.equal(closed.usdProfit, dec(closed.finalProfit!).times(30000).toDecimalPlaces(8).toFixed());
  });

  it('keeps a short deal mirrored: sells first, buys back below', () => {
    const h = harness({}, { strategy: 'short', baseOrderVolume: '1', baseOrderVolumeType: 'base_currency', safetyOrderVolume: '1', safetyOrderVolumeType: 'base_currency', maxSafetyOrders: 1 });
    h.act({ type: 'enable' });
    // Sold 1 ETH for 99.9 USDT after the fee: 2 % under 99.9, with the buy-back's fee built in.
    assert.deepEqual(working(h, 'take_profit').map((o) => [o.side, o.price!.toFixed(), o.amount.toFixed()]), [['buy', '97.8', '1.0011']]);
    h.tick('USDT_ETH', '97.7');
    const closed = lastSnapshot(h, 1000);
    assert.equal(closed.status, 'completed');
    // 0.0000989 ETH bought back beyond what was owed, valued at the 97.8 it cost
    assert.deepEqual(closed.leftover, { base: '0.0000989', value: '0.00967242' });
    assert.equal(closed.finalProfit, '2.00209242');
  });
});

describe('fills that race a deal’s end', () => {
  it('books a safety fill that arrives after the take profit closed the deal into that deal', () => {
    const h = harness({ strategyList: [{ strategy: 'manual', options: {} }] });
    h.act({ type: 'start_deal', pair: 'USDT_ETH', skipSignalChecks: false, skipOpenDealsChecks: false, onlyForEnabled: false });
    const takeProfit = working(h, 'take_profit')[0]!.key;
    const safety = working(h, 'safety')[0]!.key;
    h.deliver([h.fillOf(takeProfit), h.fillOf(safety)]);
    const closed = lastSnapshot(h, 1000);
    assert.equal(closed.status, 'completed');
    // The safety order bought 0.5051 ETH at 99 after the deal ended: its cost is in the profit and
    // its coins (less the fee) are what the deal leaves behind.
    assert.equal(closed.finalProfit, h.quote.toFixed());
    assert.equal(closed.baseDelta, h.base.toFixed());
    assert.equal(dec(closed.baseDelta).toFixed(), dec('0.5051').times('0.999').toFixed());
    assert.deepEqual(h.state.settling, []);
    assert.ok(h.messages.some((m) => m.includes('Late fill')));
  });
});

describe('a stop loss racing safety fills', () => {
  it('closes what the safety orders added while the market close was on its way', () => {
    const h = harness({ strategyList: [{ strategy: 'manual', options: {} }] }, { stopLossPercentage: '5' });
    h.act({ type: 'start_deal', pair: 'USDT_ETH', skipSignalChecks: false, skipOpenDealsChecks: false, onlyForEnabled: false });
    const safety = working(h, 'safety').map((order) => order.key);
    h.context.setPrice('USDT_ETH', '90');
    h.deliver([{ type: 'tick', pair: 'USDT_ETH', price: dec(90), bid: dec(90), ask: dec(90), at: h.context.now }, ...safety.map((key) => h.fillOf(key))]);
    const closed = lastSnapshot(h, 1000);
    assert.equal(closed.status, 'stop_loss_finished');
    assert.equal(h.placed.filter((order) => order.role === 'close').length, 2);
    assert.equal(closed.baseDelta, '0');
    assert.equal(closed.leftover?.base, h.base.toFixed());
    assert.equal(closed.finalProfit, h.quote.plus(closed.leftover!.value).toFixed());
  });
});

describe('deal actions', () => {
  it('adds funds, cancels a manual safety order and changes the safety-order count', () => {
    const h = harness({ strategyList: [{ strategy: 'manual', options: {} }] });
    h.act({ type: 'start_deal', pair: 'USDT_ETH', skipSignalChecks: false, skipOpenDealsChecks: false, onlyForEnabled: false });
    h.act({ type: 'deal', dealId: 1000, action: { type: 'add_funds', amount: '0.2', price: '90' } });
    const manual = working(h, 'manual_safety');
    assert.equal(manual.length, 1);
    assert.throws(
      () => h.act({ type: 'deal', dealId: 1000, action: { type: 'cancel_order', key: working(h, 'safety')[0]!.key } }),
      /Cant be cancelled/,
    );
    h.act({ type: 'deal', dealId: 1000, action: { type: 'cancel_order', key: manual[0]!.key } });
    assert.equal(working(h, 'manual_safety').length, 0);
    const botSafetyOrders = h.state.config.deal.maxSafetyOrders;
    h.act({ type: 'deal', dealId: 1000, action: { type: 'update_max_safety_orders', maxSafetyOrders: 1 } });
    assert.deepEqual(working(h, 'safety').map((o) => o.price!.toFixed()), ['99']);
    // The deal's settings changed, not the bot's, which its next deals start from.
    assert.equal(h.state.config.deal.maxSafetyOrders, botSafetyOrders);
    h.act({ type: 'deal', dealId: 1000, action: { type: 'update_max_safety_orders', maxSafetyOrders: 3 } });
    assert.deepEqual(working(h, 'safety').map((o) => o.price!.toFixed()), ['99', '97.8']);
    // A manual safety order filling is no milestone; a planned one is.
    h.act({ type: 'deal', dealId: 1000, action: { type: 'add_funds', amount: '0.2', price: '99.5' } });
    h.tick('USDT_ETH', '99.2');
    assert.equal(h.deal()!.manualCompleted, 1);
    h.tick('USDT_ETH', '98.5');
    assert.deepEqual(milestones(h, 1000).map(([milestone, count]) => [milestone, count]), [['opened', 0], ['safety_order_filled', 1]]);
  });

  it('closes one take-profit step at market and refuses actions a closing deal cannot take', () => {
    const h = harness({}, { takeProfitSteps: [{ amountPercentage: '40', profitPercentage: '2' }, { amountPercentage: '60', profitPercentage: '4' }] });
    h.act({ type: 'enable' });
    h.act({ type: 'deal', dealId: 1000, action: { type: 'panic_sell_step', stepIndex: 0 } });
    assert.equal(h.deal()!.tpSteps[0]!.status, 'closed_at_market');
    assert.equal(working(h, 'take_profit').length, 1);
    h.act({ type: 'deal', dealId: 1000, action: { type: 'panic_sell' } });
    const closed = lastSnapshot(h, 1000);
    assert.equal(closed.status, 'panic_sold');
    assert.ok(dec(closed.baseDelta).lt('0.0001'));
  });

  it('cancels a deal leaving its coins, and refuses to act on it afterwards', () => {
    const h = harness({ strategyList: [{ strategy: 'manual', options: {} }] });
    h.act({ type: 'start_deal', pair: 'USDT_ETH', skipSignalChecks: false, skipOpenDealsChecks: false, onlyForEnabled: false });
    h.act({ type: 'deal', dealId: 1000, action: { type: 'cancel' } });
    assert.equal(lastSnapshot(h, 1000).status, 'cancelled');
    assert.equal(h.resting.size, 0);
    assert.ok(h.base.gt(0));
    assert.throws(() => h.act({ type: 'deal', dealId: 1000, action: { type: 'panic_sell' } }), TransitionError);
  });
});

describe('deal starts', () => {
  it('respects max_active_deals and allowed_deals_on_same_pair on a multi-pair bot', () => {
    const h = harness({ pairs: ['USDT_ETH', 'USDT_BTC'], maxActiveDeals: 3, allowedDealsOnSamePair: 2 });
    h.context.setPrice('USDT_BTC', '20000');
    h.act({ type: 'enable' });
    assert.deepEqual(h.state.deals.map((deal) => deal.pair), ['USDT_ETH', 'USDT_BTC', 'USDT_ETH']);
    const start = (pair: string, skip = false) =>
      h.act({ type: 'start_deal', pair, skipSignalChecks: false, skipOpenDealsChecks: skip, onlyForEnabled: true });
    assert.throws(() => start('USDT_BTC'), (error: unknown) => error instanceof DealStartError && error.reason === 'max_active_deals');
    start('USDT_BTC', true);
    assert.equal(h.state.deals.length, 4);
  });

  it('waits for the cooldown after a deal on the pair closes', () => {
    const h = harness({ cooldown: 600 }, { maxSafetyOrders: 0 });
    h.act({ type: 'enable' });
    h.tick('USDT_ETH', '103');
    assert.equal(h.state.deals.length, 0);
    h.tick('USDT_ETH', '103', 300_000);
    assert.equal(h.state.deals.length, 0);
    h.tick('USDT_ETH', '103', 300_000);
    assert.equal(h.state.deals.length, 1);
  });

  it('starts only inside min/max price and stops after disable_after_deals_count', () => {
    const h = harness({ maxPrice: '90', disableAfterDealsCount: 2 }, { maxSafetyOrders: 0 });
    h.act({ type: 'enable' });
    assert.equal(h.state.deals.length, 0);
    h.tick('USDT_ETH', '89');
    assert.equal(h.state.deals.length, 1);
    h.tick('USDT_ETH', '90');
    h.tick('USDT_ETH', '89');
    assert.equal(h.state.deals.length, 1);
    h.tick('USDT_ETH', '91');
    assert.equal(h.state.deals.length, 0);
    h.tick('USDT_ETH', '89');
    assert.equal(h.state.dealsCounter, 2);
    assert.equal(h.state.enabled, false);
  });

  it('starts a deal when RSI on closed candles falls below the threshold', () => {
    const options = { time: '1m', points: 30, trigger_condition: 'less', time_period: 7 };
    const h = harness({ strategyList: [{ strategy: 'rsi', options }] }, { maxSafetyOrders: 0 });
    h.act({ type: 'enable' });
    for (let i = 0; i < 8; i += 1) h.tick('USDT_ETH', String(100 + i));
    assert.equal(h.state.deals.length, 0);
    for (let i = 0; i < 12; i += 1) h.tick('USDT_ETH', String(106 - i * 2));
    assert.equal(h.state.deals.length, 1);
    assert.ok(h.messages.some((m) => m.includes('RSI start condition met')));
  });

  it('starts a deal when the fast average crosses above the slow one, only when every condition holds', () => {
    const cross = { time: '1m', indicator_type: 'sma', time_period_first: 3, time_period_second: 6, trigger_condition: 'crossing_up' };
    const h = harness({ strategyList: [{ strategy: 'ma_cross', options: cross }] }, { maxSafetyOrders: 0 });
    h.act({ type: 'enable' });
    for (let i = 0; i < 10; i += 1) h.tick('USDT_ETH', String(110 - i));
    assert.equal(h.state.deals.length, 0);
    for (let i = 0; i < 4; i += 1) h.tick('USDT_ETH', String(101 + i * 3));
    assert.equal(h.state.deals.length, 1);
    assert.ok(h.messages.some((m) => m.includes('MA_CROSS start condition met')));
  });

  it('refuses start_new_deal on a disabled bot when only_for_enabled', () => {
    const h = harness();
    assert.throws(
      () => h.act({ type: 'start_deal', pair: 'USDT_ETH', skipSignalChecks: false, skipOpenDealsChecks: false, onlyForEnabled: true }),
      TransitionError,
    );
  });
});

describe('signals', () => {
  const start = { type: 'start_deal' as const, pair: 'USDT_ETH', skipSignalChecks: false, skipOpenDealsChecks: false, onlyForEnabled: true };

  it('take effect once: the mark stored with the effect makes a second run change nothing, whatever the bot is now', () => {
    const h = harness({ strategyList: [{ strategy: 'manual', options: {} }], maxActiveDeals: 3 });
    h.act({ type: 'enable' });
    h.act({ type: 'signal', id: 's1', action: start });
    const [deal] = h.state.deals;
    assert.deepEqual(h.state.signals, [{ id: 's1', deals: [deal!.id] }]);
    h.act({ type: 'disable' });
    const before = h.state;
    h.act({ type: 'signal', id: 's1', action: start });
    assert.equal(h.state.deals.length, 1);
    assert.deepEqual(h.state, before);
    assert.throws(() => h.act({ type: 'signal', id: 's2', action: start }), TransitionError);
    assert.deepEqual(h.state.signals?.map((mark) => mark.id), ['s1']);
  });

  it('close one pair’s deals at market, note which, and keep only the latest marks', () => {
    const h = harness({ strategyList: [{ strategy: 'manual', options: {} }], pairs: ['USDT_ETH', 'USDT_BTC'], maxActiveDeals: 3 });
    h.context.setPrice('USDT_BTC', '20000');
    h.act({ type: 'enable' });
    h.act({ type: 'signal', id: 'eth', action: start });
    h.act({ type: 'signal', id: 'btc', action: { ...start, pair: 'USDT_BTC' } });
    const eth = h.state.deals.find((deal) => deal.pair === 'USDT_ETH')!;
    h.act({ type: 'signal', id: 'close', action: { type: 'panic_sell_all', pair: 'USDT_ETH' } });
    assert.deepEqual(h.state.deals.map((deal) => deal.pair), ['USDT_BTC']);
    assert.deepEqual(h.state.signals?.at(-1), { id: 'close', deals: [eth.id] });
    for (let n = 0; n < 25; n += 1) h.act({ type: 'signal', id: `late${n}`, action: { type: 'panic_sell_all', pair: 'USDT_ETH' } });
    assert.equal(h.state.signals?.length, 20);
    assert.equal(h.state.signals?.[0]!.id, 'late5');
  });
});
