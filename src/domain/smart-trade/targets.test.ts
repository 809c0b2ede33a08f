import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dec } from '../../shared/decimal.ts';
import { averages, figures } from './ledger.ts';
import { allocate } from './targets.ts';
import { aStep, keysOf, started } from './test-support/fixtures.ts';

const resting = (trade: ReturnType<typeof started>) =>
  trade.state.orders.filter((o) => o.purpose === 'take_profit' && o.status === 'open').map((o) => `${o.amount.toFixed()}@${o.price?.toFixed()}`);

describe('SmartTrade take profit', () => {
  it('places every limit step at once, sharing the held amount by volume; the last takes the rest', () => {
    const trade = started({ entry: { units: dec('3') }, steps: [aStep('50', { value: '110' }), aStep('30', { value: '120' }), aStep('20', { value: '130' })] });
    // 3 bought, 0.003 paid as fee: 2.997 held.
    assert.deepEqual(resting(trade), ['1.4985@110', '0.8991@120', '0.5994@130']);
    trade.tick('111');
    assert.equal(trade.state.steps[0]!.status, 'finished');
    assert.equal(trade.state.status, 'waiting_targets');
    trade.tick('125');
    trade.tick('131');
    assert.equal(trade.state.status, 'finished');
    const f = figures(trade.state);
    assert.deepEqual([f.closedAmount.toFixed(), f.held.toFixed()], ['2.997', '0']);
    // (1.4985 × 110 + 0.8991 × 120 + 0.5994 × 130) less 0.1 % fees.
    assert.equal(f.closedTotal.toFixed(), '350.298351');
  });

  it('market steps are watched and sent at market when their price is reached', () => {
    const trade = started({ steps: [aStep('50', { percent: '5' }, { orderType: 'market' }), aStep('50', { percent: '10' }, { orderType: 'market' })] });
    assert.deepEqual(resting(trade), []);
    trade.tick('104.99');
    assert.equal(trade.state.steps[0]!.status, 'idle');
    trade.tick('105.2');
    assert.deepEqual(keysOf(trade.state, 'take_profit'), ['t2:filled']);
    assert.equal(trade.state.orders.at(-1)!.amount.toFixed(), '0.4995');
    trade.tick('110');
    assert.equal(trade.state.status, 'finished');
    assert.equal(averages(figures(trade.state)).closeWithoutCommission?.toFixed(), '107.6');
  });

  it('a percent target follows the average entry price', () => {
    const trade = started({ entry: { orderType: 'limit', price: dec('80') }, steps: [aStep('100', { percent: '10' })] }, '81');
    trade.tick('79.5');
    assert.deepEqual(resting(trade), ['0.999@88']);
  });

  it('trailing take profit activates at the target and exits at market on the pullback from the high', () => {
    const trade = started({ steps: [aStep('100', { percent: '10' }, { trailingPercent: dec('2') })] });
    assert.deepEqual(resting(trade), []);
    trade.tick('109');
    assert.equal(trade.state.steps[0]!.status, 'idle');
    trade.tick('110');
    assert.equal(trade.state.steps[0]!.status, 'trailing_activated');
    trade.tick('115');
    trade.tick('112.71');
    assert.equal(trade.state.status, 'waiting_targets');
    trade.tick('112.7');
    assert.equal(trade.state.status, 'finished');
    assert.equal(averages(figures(trade.state)).closeWithoutCommission?.toFixed(), '112.7');
  });

  it('a short closes its steps by buying back below the entry', () => {
    const trade = started({ side: 'sell', steps: [aStep('100', { percent: '10' })] });
    assert.deepEqual(resting(trade), ['1@90']);
    trade.tick('89');
    assert.equal(trade.state.status, 'finished');
    const f = figures(trade.state);
    assert.deepEqual([f.enteredTotal.toFixed(), f.closedTotal.toFixed(), f.closedAmount.toFixed()], ['99.9', '90', '0.999']);
  });

  it('a share below the market minimum is folded into the next step', () => {
    const trade = started({ entry: { units: dec('0.1') }, steps: [aStep('20', { value: '110' }), aStep('80', { value: '120' })] });
    // 0.0999 × 20 % = 0.01998 ETH at 110 is under the 5 USDT minimum.
    assert.equal(trade.state.steps[0]!.status, 'finished');
    assert.deepEqual(resting(trade), ['0.0999@120']);
  });

  it('shares the free amount only: kept coins stay out of the steps', () => {
    const trade = started({ entry: { units: dec('2') }, steps: [aStep('50', { value: '110' }), aStep('50', { value: '120' })] });
    trade.act({ type: 'cancel_sub_trade', subTradeId: trade.state.steps[0]!.id });
    assert.equal(trade.state.kept.toFixed(), '0.999');
    assert.deepEqual([...allocate(trade.state).values()].map((v) => v.toFixed()), ['0.999']);
    trade.tick('121');
    assert.equal(trade.state.status, 'finished');
    assert.equal(figures(trade.state).held.toFixed(), '0.999');
  });

  it('closing one step at market sells its share now and keeps the others resting', () => {
    const trade = started({ entry: { units: dec('2') }, steps: [aStep('50', { value: '110' }), aStep('50', { value: '120' })] });
    trade.tick('105');
    trade.act({ type: 'close_sub_trade', subTradeId: trade.state.steps[1]!.id });
    assert.deepEqual([trade.state.steps.map((s) => s.status)], [['order_placed', 'finished']]);
    assert.deepEqual(resting(trade), ['0.999@110']);
  });

  it('a refused step is reported and retried by force_process', () => {
    const trade = started({ steps: [aStep('100', { value: '110' }, { orderType: 'market' })] });
    trade.rejectNextOrder('Not enough ETH');
    trade.tick('111');
    assert.deepEqual([trade.state.steps[0]!.status, trade.state.steps[0]!.error], ['failed', 'Not enough ETH']);
    trade.act({ type: 'force_process' });
    assert.equal(trade.state.status, 'finished');
  });
});
