/**
 * Which actions a trade offers now: the `*_available` flags of the entity, and the guards the
 * service checks before it asks the engine (the step checks the same rules again).
 */
import { addFundsAllowed } from './funds.ts';
import { cancelAllowed, panicSellAllowed } from './closing.ts';
import { entryPending } from './entry.ts';
import { maxReduce } from './funds.ts';
import type { SmartTradeState, SmartTradeType, TradeStatus } from './smart-trade.types.ts';

export interface Availability {
  editable: boolean;
  panicSell: boolean;
  addFunds: boolean;
  reduceFunds: boolean;
  forceStart: boolean;
  forceProcess: boolean;
  cancel: boolean;
  finished: boolean;
  positionEntered: boolean;
}

const FINISHED: ReadonlySet<TradeStatus> = new Set(['finished', 'stop_loss_finished', 'panic_sold']);

export function availability(state: SmartTradeState): Availability {
  const working = state.status === 'waiting_position' || state.status === 'waiting_targets' || state.status === 'pending_reduce_funds';
  return {
    editable: (state.status === 'waiting_position' || state.status === 'waiting_targets') && state.stopLoss?.status !== 'order_placed',
    panicSell: panicSellAllowed(state),
    addFunds: addFundsAllowed(state),
    reduceFunds: maxReduce(state).gt(0),
    forceStart: state.status === 'waiting_position' && entryPending(state),
    forceProcess: working,
    cancel: cancelAllowed(state),
    finished: FINISHED.has(state.status),
    positionEntered: state.position.status === 'finished' || state.position.status === 'smart_sell',
  };
}

export function smartTradeType(state: SmartTradeState): SmartTradeType {
  const { instant, skipEnterStep, side } = state.config;
  if (instant) return side === 'buy' ? 'simple_buy' : 'simple_sell';
  if (skipEnterStep) return side === 'buy' ? 'smart_sell' : 'smart_buy';
  return side === 'buy' ? 'smart_trade' : 'smart_cover';
}
