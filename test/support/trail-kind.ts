/**
 * A trailing stop for the engine's tests: follows the highest USDT_BTC price and sells 0.5 BTC at
 * market once the price is 5 % below it. Its ticks replay (`replaysTicks`).
 */
import type { EngineInput, StepResult } from '../../src/domain/automation.ts';
import type { AutomationKind } from '../../src/engine/automation-kind.ts';
import { dec } from '../../src/shared/decimal.ts';

export interface TrailState {
  high: string;
  sold: boolean;
}

export const trailKind: AutomationKind<TrailState, { type: 'start' }> = {
  name: 'trail_test',
  orderIdPrefix: 'y',
  step(state, input: EngineInput | { type: 'start' }, context): StepResult<TrailState> {
    const result: StepResult<TrailState> = { state, commands: [], events: [], records: [] };
    if (input.type === 'start') result.events.push({ message: 'started', at: context.now });
    if (input.type !== 'tick' || state.sold) return result;
    if (input.price.gt(state.high)) result.state = { ...state, high: input.price.toFixed() };
    else if (input.price.lte(dec(state.high).times('0.95'))) {
      result.state = { ...state, sold: true };
      result.commands.push({ type: 'place_order', key: 's', pair: 'USDT_BTC', side: 'sell', orderType: 'market', amount: dec('0.5'), role: 'exit' });
      result.events.push({ message: `stop at ${input.price.toFixed()}`, at: context.now });
    }
    return result;
  },
  watches: (state) => (state.sold ? [] : [{ pair: 'USDT_BTC', above: dec(state.high), below: dec(state.high).times('0.95') }]),
  isRunning: () => true,
  toJson: (state) => state,
  fromJson: (json) => json as TrailState,
  replaysTicks: true,
};
