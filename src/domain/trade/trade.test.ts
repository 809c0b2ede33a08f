import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dec } from '../../shared/decimal.ts';
import { TransitionError } from '../automation.ts';
import { Harness } from '../smart-trade/test-support/harness.ts';
import { isTradeRunning, newTrade, stepTrade, tradeWatches } from './trade.ts';
import { TRADE_TRANSITIONS, tradeAllows } from './trade.transitions.ts';
import type { TradeAction, TradeConfig, TradeState, TradeStatus } from './trade.types.ts';

const MACHINE = { step: stepTrade, watches: tradeWatches, isRunning: isTradeRunning };

function trade(config: Partial<TradeConfig> = {}, price = '100'): Harness<TradeState, TradeAction> {
  const full: TradeConfig = {
    pair: 'USDT_ETH', base: 'ETH', quote: 'USDT', side: 'buy', orderType: 'market', strategy: 'gtc',
    positionSide: 'both', reduceOnly: false, units: dec('1'), ...config,
  };
  const harness = new Harness<TradeState, TradeAction>(MACHINE, newTrade('uuid-1', full, dec('0.01')));
  harness.quote = { bid: dec(price), ask: dec(price), last: dec(price) };
  harness.act({ type: 'start' });
  return harness;
}

const filledAt = (state: TradeState) => state.order!.filledQuote.div(state.order!.filled).toFixed();

describe('ver1 trade', () => {
  it('a market order fills at once and finishes the trade', () => {
    const t = trade({}, '101');
    assert.deepEqual([t.state.status, filledAt(t.state)], ['finished', '101']);
    assert.ok(t.state.closedAt);
  });

  it('a gtc limit rests; ioc and fok that cannot fill end cancelled; post_only that would take is refused', () => {
    const gtc = trade({ orderType: 'limit', price: dec('95') });
    assert.equal(gtc.state.status, 'order_placed');
    gtc.tick('94');
    assert.equal(gtc.state.status, 'finished');
    assert.equal(trade({ orderType: 'limit', price: dec('95'), strategy: 'ioc' }).state.status, 'cancelled');
    assert.equal(trade({ orderType: 'limit', price: dec('95'), strategy: 'fok' }).state.status, 'cancelled');
    assert.equal(trade({ orderType: 'limit', price: dec('101'), strategy: 'ioc' }).state.status, 'finished');
    const postOnly = trade({ orderType: 'limit', price: dec('101'), strategy: 'post_only' });
    assert.deepEqual([postOnly.state.status, postOnly.state.error], ['failed', 'A post-only order would execute at once']);
  });

  it('a conditional order waits for its comparison on the chosen price', () => {
    const t = trade({ conditional: { comparison: 'greater', priceType: 'bid', price: dec('105') } });
    t.tick('106', { bid: '105', ask: '107' });
    assert.equal(t.state.status, 'to_process');
    t.tick('106', { bid: '105.01', ask: '107' });
    assert.deepEqual([t.state.status, filledAt(t.state)], ['finished', '107']);
  });

  it('with a timeout, places the order only if the condition still holds after the wait', () => {
    const held = trade({ conditional: { comparison: 'less_or_equal', priceType: 'last', price: dec('95') }, timeoutSeconds: 60 });
    held.tick('94');
    assert.deepEqual([held.state.status, held.state.waitingTimeout], ['to_process', true]);
    held.tick('94.5', {}, 60_000);
    assert.equal(held.state.status, 'finished');
    const recovered = trade({ conditional: { comparison: 'less_or_equal', priceType: 'last', price: dec('95') }, timeoutSeconds: 60 });
    recovered.tick('94');
    recovered.tick('96', {}, 60_000);
    assert.deepEqual([recovered.state.status, recovered.state.waitingTimeout], ['to_process', false]);
    recovered.tick('95');
    assert.equal(recovered.state.waitingTimeout, true);
  });

  it('a conditional trailing sell follows the high and sells on a percent drop', () => {
    const t = trade({ side: 'sell', conditional: { comparison: 'greater_or_equal', priceType: 'last', price: dec('110') }, trailing: { percent: dec('1') } });
    t.tick('110');
    assert.deepEqual([t.state.status, t.state.extreme?.toFixed()], ['trailing_activated', '110']);
    t.tick('120');
    t.tick('118.81');
    assert.equal(t.state.status, 'trailing_activated');
    t.tick('118.8');
    assert.deepEqual([t.state.status, filledAt(t.state)], ['finished', '118.8']);
  });

  it('a trailing buy with an absolute value follows the low from the start', () => {
    const t = trade({ trailing: { value: dec('2') } });
    t.tick('97');
    t.tick('98.99');
    assert.equal(t.state.status, 'trailing_activated');
    t.tick('99');
    assert.deepEqual([t.state.status, filledAt(t.state)], ['finished', '99']);
  });

  it('cancel: at once while waiting, after the exchange confirmed when an order rests', () => {
    const waiting = trade({ conditional: { comparison: 'less', priceType: 'last', price: dec('90') } });
    waiting.act({ type: 'cancel' });
    assert.equal(waiting.state.status, 'cancelled');
    const resting = trade({ orderType: 'limit', price: dec('90') });
    const step = stepTrade(resting.state, { type: 'cancel' }, resting.context());
    assert.equal(step.state.status, 'pending_cancellation');
    resting.act({ type: 'cancel' });
    assert.equal(resting.state.status, 'cancelled');
    assert.throws(() => resting.act({ type: 'cancel' }), TransitionError);
  });

  it('the table lets ended trades do nothing and cancels only while open', () => {
    const statuses = Object.keys(TRADE_TRANSITIONS) as TradeStatus[];
    assert.deepEqual(statuses.filter((s) => tradeAllows(s, 'cancel')), ['to_process', 'trailing_activated', 'order_placed']);
    for (const status of ['cancelled', 'finished', 'failed'] as const) assert.deepEqual(TRADE_TRANSITIONS[status], []);
  });

  it('watches only its condition or its trailing band', () => {
    const t = trade({ conditional: { comparison: 'less', priceType: 'last', price: dec('90') } });
    assert.deepEqual(tradeWatches(t.state).map((w) => [w.below?.toFixed(), w.above?.toFixed()]), [['89.99', undefined]]);
    const trailing = trade({ trailing: { percent: dec('1') } });
    assert.deepEqual(tradeWatches(trailing.state).map((w) => [w.below?.toFixed(), w.above?.toFixed()]), [['99.99', '101']]);
  });
});
