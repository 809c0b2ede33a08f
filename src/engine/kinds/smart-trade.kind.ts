/**
 * The SmartTrade (v2) as the engine runs it. Its state is stored through the state codec, so
 * decimals and dates come back exactly; its one pair is the pair it trades.
 */
import { isSmartTradeRunning, stepSmartTrade } from '../../domain/smart-trade/smart-trade.ts';
import type { SmartTradeAction, SmartTradeState } from '../../domain/smart-trade/smart-trade.types.ts';
import { decodeState, encodeState } from '../../domain/smart-trade/state-codec.ts';
import type { SmartTradeRecord } from '../../domain/smart-trade/trade-records.ts';
import { smartTradeWatches } from '../../domain/smart-trade/watches.ts';
import type { AutomationKind } from '../automation-kind.ts';
import { diffParts } from '../state-changes.ts';

export const smartTradeKind: AutomationKind<SmartTradeState, SmartTradeAction, SmartTradeRecord> = {
  name: 'smart_trade',
  orderIdPrefix: 's',
  step: stepSmartTrade,
  watches: smartTradeWatches,
  isRunning: isSmartTradeRunning,
  quarantine: (state, reason) => ({ ...state, status: 'failed', error: reason }),
  pairs: (state) => [state.config.pair],
  toJson: (state) => encodeState(state),
  changesBetween: (base, next, path, out) => diffParts(base, next, path, out, encodeState),
  replaysTicks: true,
  fromJson: (json) => {
    const state = decodeState<SmartTradeState>(json);
    if (typeof state !== 'object' || state === null || typeof state.config !== 'object' || !Array.isArray(state.orders)) {
      throw new Error('Stored SmartTrade state is malformed');
    }
    return state;
  },
};
