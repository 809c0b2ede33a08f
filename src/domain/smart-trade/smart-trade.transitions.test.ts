import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dec } from '../../shared/decimal.ts';
import { TransitionError } from '../automation.ts';
import { stepSmartTrade } from './smart-trade.ts';
import { ENDED, SMART_TRADE_INPUTS, SMART_TRADE_TRANSITIONS, assertSmartTradeAllows, smartTradeAllows } from './smart-trade.transitions.ts';
import type { SmartTradeAction, SmartTradeState, TradeStatus } from './smart-trade.types.ts';
import { aStep, started } from './test-support/fixtures.ts';

const ACTIONS: Record<string, SmartTradeAction> = {
  start: { type: 'start' },
  edit: { type: 'edit', edit: {} },
  set_note: { type: 'set_note', note: 'n' },
  cancel: { type: 'cancel' },
  close_by_market: { type: 'close_by_market' },
  add_funds: { type: 'add_funds', funds: { orderType: 'market', units: dec('0.1') } },
  reduce_funds: { type: 'reduce_funds', funds: { orderType: 'market', units: dec('0.1') } },
  force_start: { type: 'force_start' },
  force_process: { type: 'force_process' },
  close_sub_trade: { type: 'close_sub_trade', subTradeId: 1 },
  cancel_sub_trade: { type: 'cancel_sub_trade', subTradeId: 1 },
};

describe('SmartTrade transitions table', () => {
  it('lists every status with only known inputs', () => {
    for (const inputs of Object.values(SMART_TRADE_TRANSITIONS)) {
      for (const input of inputs) assert.ok(SMART_TRADE_INPUTS.includes(input), input);
    }
  });

  it('ended trades accept nothing but a note', () => {
    for (const status of ENDED) assert.deepEqual(SMART_TRADE_TRANSITIONS[status], ['set_note']);
  });

  it('edit is allowed only in waiting_position and waiting_targets; reduce funds only in waiting_targets', () => {
    const statuses = Object.keys(SMART_TRADE_TRANSITIONS) as TradeStatus[];
    assert.deepEqual(statuses.filter((s) => smartTradeAllows(s, 'edit')), ['waiting_position', 'waiting_targets']);
    assert.deepEqual(statuses.filter((s) => smartTradeAllows(s, 'reduce_funds')), ['waiting_targets']);
    assert.deepEqual(statuses.filter((s) => smartTradeAllows(s, 'force_start')), ['waiting_position']);
  });

  it('a refused input raises TransitionError naming the status and the input', () => {
    assert.throws(() => assertSmartTradeAllows('finished', 'cancel'), (error: TransitionError) => error.status === 'finished' && error.input === 'cancel');
  });

  it('the step enforces the table for every action in every reachable status', () => {
    const states: SmartTradeState[] = [
      started({ entry: { orderType: 'limit', price: dec('90') } }).state,
      started({ steps: [aStep('100', { value: '120' })] }).state,
      started({ instant: true }).state,
    ];
    for (const state of states) {
      for (const [name, action] of Object.entries(ACTIONS)) {
        if (smartTradeAllows(state.status, action.type)) continue;
        assert.throws(
          () => stepSmartTrade(state, action, { now: new Date(), rules: () => { throw new Error('unused'); }, price: () => undefined }),
          TransitionError,
          `${name} in ${state.status}`,
        );
      }
    }
  });

  it('a refused action leaves the state it was given untouched', () => {
    const trade = started({ steps: [aStep('100', { value: '120' })] });
    const before = JSON.stringify(trade.state);
    assert.throws(() => trade.act({ type: 'reduce_funds', funds: { orderType: 'market', units: dec('5') } }));
    assert.equal(JSON.stringify(trade.state), before);
  });
});
