import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TransitionError } from '../automation.ts';
import { dec } from '../../shared/decimal.ts';
import { type GridBotInput, stepGridBot } from './grid-bot.ts';
import { GRID_BOT_TRANSITIONS, type GridBotInputType } from './grid-bot.transitions.ts';
import { type GridBotStatus, newGridBot } from './grid-bot-state.ts';
import { GridHarness, gridConfig, RULES } from './test-kit.ts';

const at = new Date(Date.UTC(2024, 0, 1));
const funding = { funds: { base: dec(10), quote: dec(10000) }, feeRate: dec('0.001') };
const INPUTS: Record<GridBotInputType, GridBotInput> = {
  start: { type: 'start', ...funding },
  enable: { type: 'enable', ...funding },
  disable: { type: 'disable' },
  edit: { type: 'edit', config: gridConfig(), ...funding },
  note: { type: 'note', note: 'n' },
  delete: { type: 'delete' },
  tick: { type: 'tick', pair: 'USDT_BTC', price: dec(121), bid: dec(121), ask: dec(121), at },
  fill: { type: 'fill', key: 'o999', side: 'buy', price: dec(110), amount: dec(1), fee: dec(0), feeCurrency: 'BTC', orderFilled: true, at },
  order_closed: { type: 'order_closed', key: 'o999', status: 'cancelled', at },
  timer: { type: 'timer', key: 't', at },
};

const ALLOWED: Record<GridBotStatus, GridBotInputType[]> = {
  new: ['start', 'edit', 'note', 'delete'],
  balancing: ['disable', 'edit', 'note', 'delete', 'tick', 'fill', 'order_closed'],
  running: ['disable', 'edit', 'note', 'delete', 'tick', 'fill', 'order_closed'],
  stopping: ['disable', 'note', 'delete', 'tick', 'fill', 'order_closed', 'timer'],
  disabled: ['enable', 'edit', 'note', 'delete', 'tick', 'fill', 'order_closed'],
  deleted: ['fill', 'order_closed'],
};

function inStatus(status: GridBotStatus) {
  const state = status === 'new' ? newGridBot(gridConfig(), RULES.priceStep) : new GridHarness(gridConfig(), 121).start().state;
  return { ...state, status };
}

describe('grid bot transitions', () => {
  it('the table lists exactly the allowed inputs of each status', () => {
    for (const [status, allowed] of Object.entries(ALLOWED)) {
      assert.deepEqual([...GRID_BOT_TRANSITIONS[status as GridBotStatus]].sort(), [...allowed].sort(), status);
    }
  });

  for (const status of Object.keys(ALLOWED) as GridBotStatus[]) {
    it(`a ${status} bot takes its allowed inputs and refuses the others`, () => {
      const context = new GridHarness(gridConfig(), 121).context();
      for (const [type, input] of Object.entries(INPUTS) as Array<[GridBotInputType, GridBotInput]>) {
        const step = () => stepGridBot(inStatus(status), input, context);
        if (ALLOWED[status].includes(type)) assert.doesNotThrow(step, `${status} x ${type}`);
        else assert.throws(step, (error: unknown) => error instanceof TransitionError && error.status === status && error.input === type);
      }
    });
  }

  it('never changes the state it is given', () => {
    const state = new GridHarness(gridConfig(), 121).start().state;
    const before = JSON.stringify(state);
    stepGridBot(state, INPUTS.disable, new GridHarness(gridConfig(), 121).context());
    stepGridBot(state, INPUTS.tick, new GridHarness(gridConfig(), 121).context());
    assert.equal(JSON.stringify(state), before);
  });
});
