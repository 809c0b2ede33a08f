import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dec } from '../../shared/decimal.ts';
import { TransitionError } from '../automation.ts';
import { figures, profit } from './ledger.ts';
import { stepSmartTrade } from './smart-trade.ts';
import { aStep, aStopLoss, keysOf, started } from './test-support/fixtures.ts';

describe('SmartTrade cancel', () => {
  it('cancels the open orders, shows cancellation_pending, then cancelled once the exchange confirmed', () => {
    const trade = started({ entry: { orderType: 'limit', price: dec('90') }, steps: [aStep('100', { value: '120' })] });
    const result = trade.act({ type: 'cancel' });
    assert.equal(result.status, 'cancelled');
    assert.deepEqual(keysOf(trade.state, 'position'), ['e1:cancelled']);
    assert.ok(trade.log.includes('Cancel requested: open orders are being cancelled; coins already bought stay on the account'));
  });

  it('the cancel step itself leaves the trade in cancellation_pending', () => {
    const trade = started({ steps: [aStep('100', { value: '120' })] });
    const result = stepSmartTrade(trade.state, { type: 'cancel' }, trade.context());
    assert.equal(result.state.status, 'cancellation_pending');
    assert.deepEqual(result.commands, [{ type: 'cancel_order', key: 't2' }]);
  });

  it('keeps what was bought: a cancelled long still holds its coins', () => {
    const trade = started({ steps: [aStep('100', { value: '120' })] });
    trade.act({ type: 'cancel' });
    assert.equal(trade.state.status, 'cancelled');
    assert.equal(figures(trade.state).held.toFixed(), '0.999');
  });

  it('without an open order, the cancellation ends on its timer', () => {
    const trade = started({ steps: [aStep('100', { value: '120' }, { orderType: 'market' })] });
    trade.act({ type: 'cancel' });
    assert.equal(trade.state.status, 'cancellation_pending');
    assert.ok(trade.pendingTimer('cancel'));
    trade.tick('100');
    assert.equal(trade.state.status, 'cancelled');
  });

  it('is refused once the trade ended', () => {
    const trade = started({ instant: true });
    assert.throws(() => trade.act({ type: 'cancel' }), TransitionError);
  });
});

describe('SmartTrade close by market', () => {
  it('cancels the targets and sells the whole position at market', () => {
    const trade = started({ entry: { units: dec('2') }, steps: [aStep('50', { value: '110' }), aStep('50', { value: '120' })], stopLoss: aStopLoss({ value: '90' }) });
    trade.tick('104');
    const result = trade.act({ type: 'close_by_market' });
    assert.equal(result.status, 'panic_sold');
    assert.deepEqual(keysOf(trade.state, 'market_close'), ['m4:filled']);
    assert.deepEqual(trade.state.steps.map((s) => s.status), ['cancelled', 'cancelled']);
    assert.equal(trade.state.stopLoss?.status, 'cancelled');
    const f = figures(trade.state);
    assert.deepEqual([f.held.toFixed(), f.closedAmount.toFixed()], ['0', '1.998']);
    // 1.998 × 104 × 0.999 − 200.
    assert.equal(profit(trade.state, f, undefined, false)?.volume.toFixed(), '7.584208');
  });

  it('in waiting_position sells what the entry filled so far and cancels the rest', () => {
    const trade = started({ entry: { orderType: 'limit', price: dec('90') } });
    trade.act({ type: 'add_funds', funds: { orderType: 'market', units: dec('0.5') } });
    trade.act({ type: 'close_by_market' });
    assert.deepEqual(keysOf(trade.state, 'position'), ['e1:cancelled']);
    assert.equal(trade.state.status, 'panic_sold');
  });

  it('is refused while nothing was entered', () => {
    const trade = started({ entry: { orderType: 'limit', price: dec('90') } });
    assert.throws(() => trade.act({ type: 'close_by_market' }), TransitionError);
  });
});
