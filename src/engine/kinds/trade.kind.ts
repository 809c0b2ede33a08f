/** The ver1 trade ("simple trading") as the engine runs it: one order, its condition and trailing. */
import { decodeState, encodeState } from '../../domain/smart-trade/state-codec.ts';
import { isTradeRunning, stepTrade, tradeWatches } from '../../domain/trade/trade.ts';
import type { TradeAction, TradeState } from '../../domain/trade/trade.types.ts';
import type { AutomationKind } from '../automation-kind.ts';
import { diffParts } from '../state-changes.ts';

export const tradeKind: AutomationKind<TradeState, TradeAction> = {
  name: 'trade',
  orderIdPrefix: 't',
  step: stepTrade,
  watches: tradeWatches,
  isRunning: isTradeRunning,
  quarantine: (state, reason) => ({ ...state, status: 'failed', error: reason }),
  pairs: (state) => [state.config.pair],
  toJson: (state) => encodeState(state),
  changesBetween: (base, next, path, out) => diffParts(base, next, path, out, encodeState),
  replaysTicks: true,
  fromJson: (json) => {
    const state = decodeState<TradeState>(json);
    if (typeof state !== 'object' || state === null || typeof state.uuid !== 'string' || typeof state.config !== 'object') {
      throw new Error('Stored trade state is malformed');
    }
    return state;
  },
};
