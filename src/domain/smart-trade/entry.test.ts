import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dec } from '../../shared/decimal.ts';
import { TransitionError } from '../automation.ts';
import { figures } from './ledger.ts';
import { aStep, keysOf, started } from './test-support/fixtures.ts';

const conditional = (trigger: string, extra: Record<string, unknown> = {}) => ({
  orderType: 'conditional' as const,
  conditional: { priceType: 'last' as const, trigger: dec(trigger), orderType: 'market' as const, ...extra },
});

describe('SmartTrade entry', () => {
  it('enters a market long at once; the base fee is taken from the amount received', () => {
    const trade = started({ steps: [aStep('100', { value: '110' })] });
    const state = trade.state;
    assert.equal(state.status, 'waiting_targets');
    assert.equal(state.position.status, 'finished');
    const f = figures(state);
    assert.deepEqual([f.enteredGross.toFixed(), f.enteredAmount.toFixed(), f.enteredTotal.toFixed()], ['1', '0.999', '100']);
  });

  it('a simple buy finishes with its entry and places nothing else', () => {
    const trade = started({ instant: true });
    assert.equal(trade.state.status, 'finished');
    assert.deepEqual(keysOf(trade.state, 'position'), ['e1:filled']);
    assert.equal(trade.placed.length, 1);
  });

  it('a limit entry rests until the price reaches it', () => {
    const trade = started({ entry: { orderType: 'limit', price: dec('95') }, steps: [aStep('100', { value: '110' })] });
    assert.deepEqual([trade.state.status, trade.state.position.status], ['waiting_position', 'order_placed']);
    trade.tick('97');
    assert.equal(trade.state.status, 'waiting_position');
    trade.tick('94.5');
    assert.deepEqual([trade.state.status, figures(trade.state).enteredQuote.toFixed()], ['waiting_targets', '95']);
  });

  it('a conditional entry below the price waits for the price to fall to the trigger', () => {
    const trade = started({ entry: conditional('90'), steps: [aStep('100', { percent: '5' })] });
    assert.deepEqual([trade.state.position.status, trade.state.position.condition], ['to_process', 'less_or_equal']);
    trade.tick('95');
    assert.equal(trade.state.position.status, 'to_process');
    trade.tick('89.5');
    assert.equal(trade.state.status, 'waiting_targets');
    assert.equal(figures(trade.state).enteredQuote.toFixed(), '89.5');
  });

  it('a conditional entry above the price is a breakout and enters at its limit price', () => {
    const trade = started({
      entry: { ...conditional('105', { orderType: 'limit' }), price: dec('106') },
      steps: [aStep('100', { value: '120' })],
    });
    assert.equal(trade.state.position.condition, 'greater_or_equal');
    trade.tick('104');
    assert.equal(trade.state.position.status, 'to_process');
    trade.tick('105', { bid: '104.9', ask: '105.1' });
    assert.equal(trade.state.position.status, 'finished');
    assert.equal(figures(trade.state).enteredQuote.toFixed(), '105.1');
  });

  it('the trigger is read on the chosen price type', () => {
    const trade = started({ entry: { orderType: 'conditional', conditional: { priceType: 'bid', trigger: dec('90'), orderType: 'market' } } });
    trade.tick('89.9', { bid: '90.1', ask: '90.2' });
    assert.equal(trade.state.position.status, 'to_process');
    trade.tick('90', { bid: '90', ask: '90.2' });
    assert.equal(trade.state.position.status, 'finished');
  });

  it('a trailing entry follows the low after the trigger and buys on the reversal', () => {
    const trade = started({ entry: conditional('90', { trailingPercent: dec('2') }), steps: [aStep('100', { percent: '10' })] });
    trade.tick('89');
    assert.deepEqual([trade.state.position.status, trade.state.position.extreme?.toFixed()], ['trailing_activated', '89']);
    trade.tick('85');
    trade.tick('86.6');
    assert.equal(trade.state.position.status, 'trailing_activated');
    trade.tick('86.7');
    assert.equal(trade.state.position.status, 'finished');
    assert.equal(figures(trade.state).enteredQuote.toFixed(), '86.7');
  });

  it('a trailing short entry follows the high and sells on the drop', () => {
    const trade = started({ side: 'sell', entry: conditional('110', { trailingPercent: dec('1') }), steps: [aStep('100', { percent: '5' })] });
    assert.equal(trade.state.position.condition, 'greater_or_equal');
    trade.tick('111');
    trade.tick('120');
    trade.tick('118.9');
    assert.equal(trade.state.position.status, 'trailing_activated');
    trade.tick('118.8');
    assert.equal(trade.state.status, 'waiting_targets');
    assert.equal(figures(trade.state).enteredTotal.toFixed(), '118.6812');
  });

  it('force_start enters at market while the entry waits; refused once entered', () => {
    const trade = started({ entry: { orderType: 'limit', price: dec('90') }, steps: [aStep('100', { value: '120' })] });
    trade.act({ type: 'force_start' });
    assert.deepEqual(keysOf(trade.state, 'position'), ['e1:cancelled', 'e2:filled']);
    assert.equal(trade.state.status, 'waiting_targets');
    assert.throws(() => trade.act({ type: 'force_start' }), TransitionError);
  });

  it('a rejected entry fails the trade with the exchange message', () => {
    const trade = started({ entry: { orderType: 'limit', price: dec('90') } });
    trade.act({ type: 'cancel' });
    const second = started({ entry: { orderType: 'limit', price: dec('90') } }, '100');
    second.rejectNextOrder('Not enough USDT');
    second.act({ type: 'edit', edit: { position: { price: dec('91') } } });
    assert.deepEqual([second.state.status, second.state.error, second.state.position.status], ['failed', 'Not enough USDT', 'failed']);
  });

  it('a smart sell starts on own coins at the given price and only places its targets', () => {
    const trade = started({ skipEnterStep: true, entry: { units: dec('2'), price: dec('80') }, steps: [aStep('100', { percent: '50' })] });
    assert.deepEqual([trade.state.status, trade.state.position.status], ['waiting_targets', 'smart_sell']);
    assert.deepEqual(keysOf(trade.state, 'take_profit'), ['t1:open']);
    assert.equal(trade.state.orders[0]!.price?.toFixed(), '120');
    assert.equal(trade.state.orders[0]!.amount.toFixed(), '2');
  });
});
