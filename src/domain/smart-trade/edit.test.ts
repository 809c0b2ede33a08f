import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dec } from '../../shared/decimal.ts';
import type { ApiError } from '../../shared/errors.ts';
import { TransitionError } from '../automation.ts';
import { stopLossLevel } from './stop-loss.ts';
import { aStep, aStopLoss, keysOf, started } from './test-support/fixtures.ts';

const resting = (trade: ReturnType<typeof started>) =>
  trade.state.orders.filter((o) => o.purpose === 'take_profit' && o.status === 'open').map((o) => `${o.amount.toFixed()}@${o.price?.toFixed()}`);

describe('SmartTrade edit', () => {
  it('moves a pending limit entry: the old order is cancelled and a new one placed', () => {
    const trade = started({ entry: { orderType: 'limit', price: dec('90') } });
    trade.act({ type: 'edit', edit: { position: { price: dec('92'), units: dec('2') } } });
    assert.deepEqual(keysOf(trade.state, 'position'), ['e1:cancelled', 'e2:open']);
    assert.deepEqual([trade.state.orders[1]!.price?.toFixed(), trade.state.orders[1]!.amount.toFixed()], ['92', '2']);
  });

  it('refuses to change an entry that has started filling', () => {
    const trade = started({ steps: [aStep('100', { value: '120' })] });
    assert.throws(
      () => trade.act({ type: 'edit', edit: { position: { units: dec('3') } } }),
      (error: ApiError) => error.attributes?.position?.[0] === 'is not editable',
    );
  });

  it('replaces waiting steps and re-places their orders', () => {
    const trade = started({ steps: [aStep('100', { value: '120' })] });
    const id = trade.state.steps[0]!.id;
    trade.act({ type: 'edit', edit: { takeProfit: { enabled: true, steps: [{ ...aStep('50', { value: '115' }), id }, aStep('50', { value: '125' })] } } });
    assert.deepEqual(resting(trade), ['0.4995@115', '0.4995@125']);
    assert.equal(trade.state.steps[0]!.id, id);
  });

  it('keeps executed steps, which must be sent again by id', () => {
    const trade = started({ entry: { units: dec('2') }, steps: [aStep('50', { value: '110' }), aStep('50', { value: '120' })] });
    trade.tick('111');
    const done = trade.state.steps[0]!;
    assert.throws(
      () => trade.act({ type: 'edit', edit: { takeProfit: { enabled: true, steps: [aStep('100', { value: '130' })] } } }),
      (error: ApiError) => error.attributes?.['take_profit[steps]']?.[0] === 'must include the steps already executed',
    );
    trade.act({ type: 'edit', edit: { takeProfit: { enabled: true, steps: [{ ...aStep('50', { value: '999' }), id: done.id }, aStep('50', { value: '130' })] } } });
    assert.deepEqual([trade.state.steps[0]!.status, trade.state.steps[0]!.price.value?.toFixed()], ['finished', '110']);
    assert.deepEqual(resting(trade), ['0.999@130']);
  });

  it('adds, changes and removes the stop loss', () => {
    const trade = started({ steps: [aStep('100', { value: '120' })] });
    trade.act({ type: 'edit', edit: { stopLoss: aStopLoss({ value: '95' }) } });
    assert.equal(stopLossLevel(trade.state)?.toFixed(), '95');
    trade.act({ type: 'edit', edit: { stopLoss: aStopLoss({ percent: '10' }) } });
    assert.equal(stopLossLevel(trade.state)?.toFixed(), '90');
    trade.act({ type: 'edit', edit: { stopLoss: null } });
    assert.equal(trade.state.stopLoss?.status, 'cancelled');
    trade.tick('80');
    assert.equal(trade.state.status, 'waiting_targets');
  });

  it('disabling both targets and stop ends the trade with its coins held', () => {
    const trade = started({ steps: [aStep('100', { value: '120' })] });
    trade.act({ type: 'edit', edit: { takeProfit: { enabled: false, steps: [] } } });
    assert.equal(trade.state.status, 'finished');
    assert.deepEqual(keysOf(trade.state, 'take_profit'), ['t2:cancelled']);
  });

  it('is refused outside waiting_position and waiting_targets', () => {
    const trade = started({ instant: true });
    assert.throws(() => trade.act({ type: 'edit', edit: {} }), TransitionError);
  });
});
