import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dec } from '../../shared/decimal.ts';
import { ApiError } from '../../shared/errors.ts';
import { TransitionError } from '../automation.ts';
import { averages, figures } from './ledger.ts';
import { maxReduce } from './funds.ts';
import { aStep, aStopLoss, keysOf, started } from './test-support/fixtures.ts';

const resting = (trade: ReturnType<typeof started>) =>
  trade.state.orders.filter((o) => o.purpose === 'take_profit' && o.status === 'open').map((o) => `${o.amount.toFixed()}@${o.price?.toFixed()}`);

describe('SmartTrade add funds', () => {
  it('buys more, averages the entry and resizes the resting targets; percent targets follow the average', () => {
    const trade = started({ steps: [aStep('50', { value: '120' }), aStep('50', { percent: '10' })] });
    assert.deepEqual(resting(trade), ['0.4995@120', '0.4995@110']);
    trade.tick('90');
    trade.act({ type: 'add_funds', funds: { orderType: 'market', units: dec('1') } });
    const f = figures(trade.state);
    assert.deepEqual([f.enteredGross.toFixed(), f.enteredQuote.toFixed()], ['2', '190']);
    assert.equal(averages(f).enterWithoutCommission?.toFixed(), '95');
    assert.deepEqual(resting(trade), ['0.999@120', '0.999@104.5']);
    assert.equal(trade.state.funds[0]?.status, 'finished');
  });

  it('a limit add waits for its price; its sub-trade can be cancelled', () => {
    const trade = started({ steps: [aStep('100', { value: '120' })] });
    trade.act({ type: 'add_funds', funds: { orderType: 'limit', units: dec('1'), price: dec('90') } });
    assert.equal(trade.state.funds[0]?.status, 'order_placed');
    trade.act({ type: 'cancel_sub_trade', subTradeId: trade.state.funds[0]!.id });
    assert.equal(trade.state.funds[0]?.status, 'cancelled');
    assert.deepEqual(resting(trade), ['0.999@120']);
  });

  it('is refused with trailing, on simple trades and after the trade ended', () => {
    const trailing = started({ stopLoss: aStopLoss({ value: '90' }, { trailing: true }) });
    assert.throws(() => trailing.act({ type: 'add_funds', funds: { orderType: 'market', units: dec('1') } }), TransitionError);
    const simple = started({ instant: true });
    assert.throws(() => simple.act({ type: 'add_funds', funds: { orderType: 'market', units: dec('1') } }), TransitionError);
  });
});

describe('SmartTrade reduce funds', () => {
  it('sells part of the position and the resting targets share the rest', () => {
    const trade = started({ entry: { units: dec('2') }, steps: [aStep('50', { value: '110' }), aStep('50', { value: '120' })] });
    assert.equal(maxReduce(trade.state).toFixed(), '1.998');
    trade.act({ type: 'reduce_funds', funds: { orderType: 'market', units: dec('0.998') } });
    assert.equal(trade.state.status, 'waiting_targets');
    assert.deepEqual(resting(trade), ['0.5@110', '0.5@120']);
    assert.deepEqual(keysOf(trade.state, 'reduce_funds'), ['r4:filled']);
    assert.equal(figures(trade.state).held.toFixed(), '1');
  });

  it('a limit reduce keeps the status pending_reduce_funds until it fills', () => {
    const trade = started({ entry: { units: dec('2') }, steps: [aStep('100', { value: '120' })] });
    trade.act({ type: 'reduce_funds', funds: { orderType: 'limit', units: dec('1'), price: dec('105') } });
    assert.equal(trade.state.status, 'pending_reduce_funds');
    assert.deepEqual(resting(trade), ['0.998@120']);
    trade.tick('105.5');
    assert.equal(trade.state.status, 'waiting_targets');
    assert.equal(trade.state.funds[0]?.status, 'finished');
  });

  it('refuses more than the maximum and anything outside waiting_targets', () => {
    const trade = started({ steps: [aStep('100', { value: '120' })] });
    assert.throws(
      () => trade.act({ type: 'reduce_funds', funds: { orderType: 'market', units: dec('1') } }),
      (error: ApiError) => error.status === 422 && error.attributes?.['units[value]']?.[0] === 'must be less than or equal to 0.999',
    );
    const waiting = started({ entry: { orderType: 'limit', price: dec('90') } });
    assert.equal(maxReduce(waiting.state).toFixed(), '0');
    assert.throws(() => waiting.act({ type: 'reduce_funds', funds: { orderType: 'market', units: dec('0.1') } }), TransitionError);
  });

  it('reducing everything ends the trade', () => {
    const trade = started({ steps: [aStep('100', { value: '120' })] });
    trade.act({ type: 'reduce_funds', funds: { orderType: 'market', units: dec('0.999') } });
    assert.equal(trade.state.status, 'finished');
  });
});

describe('SmartTrade reduce funds with only a stop loss', () => {
  it('reducing the whole position ends the trade instead of leaving the stop to guard nothing', () => {
    const trade = started({ stopLoss: aStopLoss({ value: '90' }) });
    trade.act({ type: 'reduce_funds', funds: { orderType: 'market', units: dec('0.999') } });
    assert.deepEqual([trade.state.status, trade.state.stopLoss?.status], ['finished', 'cancelled']);
  });
});
