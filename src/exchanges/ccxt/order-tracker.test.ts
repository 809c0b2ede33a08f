import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dec } from '../../shared/decimal.ts';
import type { ExchangeOrder } from '../exchange.ts';
import { OrderTracker } from './order-tracker.ts';

const at = new Date(Date.UTC(2024, 0, 1));
const order = (changes: Partial<ExchangeOrder>): ExchangeOrder => ({
  id: '1', clientOrderId: 'c1', pair: 'USDT_BTC', side: 'buy', type: 'limit', price: dec('100'), amount: dec('3'),
  filled: dec('0'), filledTotal: dec('0'), fee: dec('0'), feeCurrency: 'BTC', status: 'open', createdAt: at, updatedAt: at, ...changes,
});

describe(OrderTracker.name, () => {
  it('stays silent about a newly seen resting order', () => {
    assert.equal(new OrderTracker().observe(order({})), undefined);
  });

  it('turns cumulative figures into fills of the increments', () => {
    const tracker = new OrderTracker();
    tracker.observe(order({}));
    const first = tracker.observe(order({ filled: dec('1'), filledTotal: dec('100'), fee: dec('0.001') }))!;
    const second = tracker.observe(order({ filled: dec('3'), filledTotal: dec('299'), fee: dec('0.003'), status: 'filled' }))!;
    assert.deepEqual(
      [first, second].map(({ fill }) => [fill!.amount.toFixed(), fill!.price.toFixed(), fill!.fee.toFixed(), fill!.maker]),
      [['1', '100', '0.001', true], ['2', '99.5', '0.002', true]],
    );
    assert.equal(second.order.status, 'filled');
    assert.deepEqual(tracker.open(), []);
  });

  it('counts a fill seen at placement as taker', () => {
    const update = new OrderTracker().observe(order({ filled: dec('3'), filledTotal: dec('300'), status: 'filled' }))!;
    assert.equal(update.fill!.maker, false);
  });

  it('falls back to the limit price when the exchange gives no quote total', () => {
    const tracker = new OrderTracker();
    tracker.observe(order({}));
    assert.equal(tracker.observe(order({ filled: dec('1') }))!.fill!.price.toFixed(), '100');
  });

  it('ignores a report older than what was seen, and repeats of the same state', () => {
    const tracker = new OrderTracker();
    tracker.observe(order({ filled: dec('2'), filledTotal: dec('200') }));
    assert.equal(tracker.observe(order({ filled: dec('1'), filledTotal: dec('100') })), undefined);
    assert.equal(tracker.observe(order({ filled: dec('2'), filledTotal: dec('200') })), undefined);
  });

  it('reports a cancellation without a fill', () => {
    const tracker = new OrderTracker();
    tracker.observe(order({}));
    const update = tracker.observe(order({ status: 'cancelled' }))!;
    assert.equal(update.fill, undefined);
    assert.equal(update.order.status, 'cancelled');
    assert.equal(tracker.latestByClientOrderId('c1', 'USDT_BTC')!.status, 'cancelled');
  });
});
