import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dec } from '../../shared/decimal.ts';
import { averages, figures } from './ledger.ts';
import { stopLossLevel } from './stop-loss.ts';
import type { SmartTradeRecord, TradeClosedRecord } from './trade-records.ts';
import { aStep, aStopLoss, keysOf, started } from './test-support/fixtures.ts';

const level = (trade: ReturnType<typeof started>) => stopLossLevel(trade.state)?.toFixed();

describe('SmartTrade stop loss', () => {
  it('closes at market when the price falls to the stop, cancelling the resting targets first', () => {
    const trade = started({ steps: [aStep('100', { value: '120' })], stopLoss: aStopLoss({ value: '95' }) });
    assert.deepEqual(keysOf(trade.state, 'take_profit'), ['t2:open']);
    trade.tick('95.01');
    assert.equal(trade.state.status, 'waiting_targets');
    trade.tick('94.8');
    assert.equal(trade.state.status, 'stop_loss_finished');
    assert.deepEqual(keysOf(trade.state, 'take_profit'), ['t2:cancelled']);
    assert.deepEqual(keysOf(trade.state, 'stop_loss'), ['s3:filled']);
    const cancelAt = trade.placed.findIndex((c) => c.type === 'cancel_order');
    const sellAt = trade.placed.findIndex((c) => c.type === 'place_order' && c.key === 's3');
    assert.ok(cancelAt >= 0 && cancelAt < sellAt);
    assert.equal(averages(figures(trade.state)).closeWithoutCommission?.toFixed(), '94.8');
    // What notifications read: the trigger, then the end with its realised profit: 0.999 ETH
    // bought for 100 USDT, sold at 94.8 less 0.1 %.
    const records = trade.records as SmartTradeRecord[];
    assert.deepEqual(records.map((r) => [r.type, r.type === 'stop_loss_triggered' ? r.price : r.status]), [['stop_loss_triggered', '94.8'], ['closed', 'stop_loss_finished']]);
    const closed = records[1] as TradeClosedRecord;
    assert.deepEqual([closed.pair, closed.side, closed.profit, closed.profitPercentage], ['USDT_ETH', 'buy', '-5.3895052', '-5.39']);
  });

  it('a percent stop is measured from the average entry; a short stops above it', () => {
    assert.equal(level(started({ stopLoss: aStopLoss({ percent: '5' }) }, '200')), '190');
    const short = started({ side: 'sell', stopLoss: aStopLoss({ percent: '5' }) }, '200');
    assert.equal(level(short), '210');
    short.tick('210.5');
    assert.equal(short.state.status, 'stop_loss_finished');
  });

  it('a limit stop places its limit order when triggered; after a gap it rests until the price returns', () => {
    const trade = started({ stopLoss: aStopLoss({ value: '95' }, { orderType: 'limit', limitPrice: dec('94') }) });
    trade.tick('95', { bid: '94.5', ask: '95.5' });
    assert.equal(trade.state.status, 'stop_loss_finished');
    assert.equal(averages(figures(trade.state)).closeWithoutCommission?.toFixed(), '94.5');
    const gapped = started({ stopLoss: aStopLoss({ value: '95' }, { orderType: 'limit', limitPrice: dec('94') }) });
    gapped.tick('93', { bid: '92.9', ask: '93.1' });
    assert.deepEqual(keysOf(gapped.state, 'stop_loss'), ['s2:open']);
    gapped.tick('94', { bid: '94', ask: '94.2' });
    assert.equal(gapped.state.status, 'stop_loss_finished');
  });

  it('a trailing stop follows the high at its distance and never moves back down', () => {
    const trade = started({ stopLoss: aStopLoss({ value: '90' }, { trailing: true, trailingPercent: dec('5') }) });
    assert.equal(level(trade), '95');
    trade.tick('110');
    assert.equal(level(trade), '104.5');
    trade.tick('106');
    assert.equal(level(trade), '104.5');
    trade.tick('120');
    assert.equal(level(trade), '114');
    trade.tick('114.01');
    assert.equal(trade.state.status, 'waiting_targets');
    trade.tick('113.9');
    assert.equal(trade.state.status, 'stop_loss_finished');
  });

  it('without its own percent a trailing stop keeps the initial distance', () => {
    const trade = started({ stopLoss: aStopLoss({ value: '90' }, { trailing: true }) });
    trade.tick('120');
    assert.equal(level(trade), '108');
  });

  it('breakeven lifts the stop to the entry price once the first step filled', () => {
    const trade = started(
      { entry: { units: dec('2') }, steps: [aStep('50', { value: '110' }), aStep('50', { value: '130' })], stopLoss: aStopLoss({ value: '90' }, { breakeven: true }) },
    );
    assert.equal(level(trade), '90');
    trade.tick('111');
    assert.equal(trade.state.stopLoss?.atBreakeven, true);
    // Entry with commission: 200 USDT for 1.998 ETH.
    assert.equal(level(trade), '100.1');
    trade.tick('100.05');
    assert.equal(trade.state.status, 'stop_loss_finished');
  });

  it('with a timeout, closes when the price is still beyond the stop after the wait', () => {
    const trade = started({ stopLoss: aStopLoss({ value: '95' }, { timeoutSeconds: 60 }) });
    trade.tick('94');
    assert.equal(trade.state.stopLoss?.status, 'timeout');
    assert.equal(trade.pendingTimer('sl')?.toISOString(), '2024-01-01T00:01:01.000Z');
    trade.tick('93', {}, 30_000);
    assert.equal(trade.state.status, 'waiting_targets');
    trade.tick('94.5', {}, 31_000);
    assert.equal(trade.state.status, 'stop_loss_finished');
  });

  it('with a timeout, stays open when the price recovered by the end of the wait, and watches again', () => {
    const trade = started({ stopLoss: aStopLoss({ value: '95' }, { timeoutSeconds: 60 }) });
    trade.tick('94');
    trade.tick('97', {}, 61_000);
    assert.deepEqual([trade.state.status, trade.state.stopLoss?.status], ['waiting_targets', 'idle']);
    trade.tick('94.9');
    assert.equal(trade.state.stopLoss?.status, 'timeout');
  });

  it('take profit reaching the end cancels a pending timeout', () => {
    const trade = started({ steps: [aStep('100', { value: '99' }, { orderType: 'market', priceType: 'ask' })], stopLoss: aStopLoss({ value: '95' }, { timeoutSeconds: 60, priceType: 'bid' }) }, '98');
    trade.tick('94', { bid: '94', ask: '99' });
    assert.equal(trade.state.status, 'finished');
    assert.ok(trade.placed.some((c) => c.type === 'cancel_timer' && c.key === 'sl'));
  });
});
