import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dec } from '../../shared/decimal.ts';
import { averages, commissionRate, figures, profit } from './ledger.ts';
import { decodeState, encodeState } from './state-codec.ts';
import type { SmartTradeState } from './smart-trade.types.ts';
import { aStep, aStopLoss, started } from './test-support/fixtures.ts';

const text = (values: Record<string, { toFixed(): string } | undefined>) =>
  Object.fromEntries(Object.entries(values).map(([key, value]) => [key, value?.toFixed()]));

describe('SmartTrade figures', () => {
  it('a long pays its entry fee in base and its exit fee in quote', () => {
    const trade = started({ entry: { units: dec('2') }, steps: [aStep('100', { value: '110' })] });
    trade.tick('111');
    const f = figures(trade.state);
    assert.deepEqual(text({ enteredAmount: f.enteredAmount, enteredTotal: f.enteredTotal, closedAmount: f.closedAmount, closedTotal: f.closedTotal }), {
      enteredAmount: '1.998', enteredTotal: '200', closedAmount: '1.998', closedTotal: '219.56022',
    });
    assert.deepEqual(text({ ...averages(f) }), {
      enter: '100.1001001001001001001001001001001001001001001001',
      enterWithoutCommission: '100',
      close: '109.89',
      closeWithoutCommission: '110',
    });
    // Fees: 0.002 ETH at 100 and 0.21978 USDT, over 200 + 219.78 traded.
    assert.equal(commissionRate(f).toFixed(), '0.001');
    assert.equal(profit(trade.state, f, undefined, false)?.volume.toFixed(), '19.56022');
  });

  it('a short pays its entry fee in quote and its buy-back fee in base', () => {
    const trade = started({ side: 'sell', steps: [aStep('100', { value: '90' })] });
    trade.tick('89');
    const f = figures(trade.state);
    assert.deepEqual(text({ enteredAmount: f.enteredAmount, enteredTotal: f.enteredTotal, closedAmount: f.closedAmount, closedTotal: f.closedTotal }), {
      enteredAmount: '1', enteredTotal: '99.9', closedAmount: '0.999', closedTotal: '90',
    });
    assert.equal(profit(trade.state, f, undefined, false)?.volume.toFixed(), '9.8001');
  });

  it('an open trade counts the held part at the price it would close at now', () => {
    const trade = started({ stopLoss: aStopLoss({ value: '90' }) });
    const f = figures(trade.state);
    const open = profit(trade.state, f, { bid: dec(95), ask: dec(96) }, true)!;
    // 0.999 × 95 − 100.
    assert.deepEqual([open.volume.toFixed(), open.percent.toFixed()], ['-5.095', '-5.095']);
    const waiting = started({ entry: { orderType: 'limit', price: dec(90) } }).state;
    assert.equal(profit(waiting, figures(waiting), undefined, true), undefined);
  });
});

describe('SmartTrade state codec', () => {
  it('writes decimals and dates without floats and reads them back identical', () => {
    const trade = started({ steps: [aStep('50', { value: '110' }), aStep('50', { percent: '15' })], stopLoss: aStopLoss({ value: '90' }) });
    const json = JSON.parse(JSON.stringify(encodeState(trade.state)));
    assert.deepEqual(json.orders[0].amount, { $d: '1' });
    assert.deepEqual(json.orders[0].createdAt, { $t: '2024-01-01T00:00:00.000Z' });
    const back = decodeState<SmartTradeState>(json);
    assert.deepEqual(encodeState(back), encodeState(trade.state));
    assert.ok(back.orders[0]!.amount.eq(1));
    assert.ok(back.orders[0]!.createdAt instanceof Date);
  });
});
