/**
 * Ending a trade early. Cancelling stops every open order and leaves what was bought on the
 * account; the trade shows `cancellation_pending` until the exchange confirmed every cancellation.
 * Closing at market cancels the open orders too and then closes the held position at market.
 */
import { TransitionError } from '../automation.ts';
import type { Draft } from './draft.ts';
import { floorToStep } from '../../shared/decimal.ts';
import { figures } from './ledger.ts';
import type { SmartTradeState } from './smart-trade.types.ts';
import { STOP_LOSS_TIMER } from './stop-loss.ts';
import { isActiveStep, tooSmall } from './targets.ts';

/** Fires when a cancellation had no order to wait for, so the trade still ends by an input. */
export const CANCEL_TIMER = 'cancel';

export const cancelAllowed = (state: SmartTradeState) =>
  state.status === 'waiting_position' || state.status === 'waiting_targets' || state.status === 'pending_reduce_funds';

export function panicSellAllowed(state: SmartTradeState): boolean {
  if (!cancelAllowed(state) || state.config.instant || state.stopLoss?.status === 'order_placed') return false;
  const held = floorToStep(figures(state).held, state.market.lotStep);
  return !tooSmall(state, held, undefined);
}

function stopEverything(draft: Draft): void {
  const { state } = draft;
  for (const order of state.orders) if (order.status === 'open') draft.cancel(order);
  const position = state.position;
  if (position.status === 'to_process' || position.status === 'order_placed' || position.status === 'trailing_activated') {
    position.status = figures(state).enteredAmount.isZero() ? 'cancelled' : 'finished';
  }
  for (const step of state.steps) if (isActiveStep(step)) step.status = 'cancelled';
  if (state.stopLoss && (state.stopLoss.status === 'idle' || state.stopLoss.status === 'timeout')) {
    if (state.stopLoss.status === 'timeout') draft.cancelTimer(STOP_LOSS_TIMER);
    state.stopLoss.status = 'cancelled';
  }
}

export function cancelTrade(draft: Draft): void {
  const { state } = draft;
  if (!cancelAllowed(state)) throw new TransitionError(state.status, 'cancel');
  stopEverything(draft);
  state.status = 'cancellation_pending';
  draft.log('Cancel requested: open orders are being cancelled; coins already bought stay on the account');
  if (!state.orders.some((order) => order.status === 'open')) draft.scheduleTimer(CANCEL_TIMER, draft.now);
}

export function closeByMarket(draft: Draft): void {
  const { state } = draft;
  if (!panicSellAllowed(state)) throw new TransitionError(state.status, 'close_by_market');
  stopEverything(draft);
  const amount = floorToStep(figures(state).held, state.market.lotStep);
  const id = draft.nextId();
  state.marketClose = { id, status: 'order_placed', createdAt: draft.now };
  state.status = 'panic_sell_pending';
  draft.place('market_close', id, draft.closeSide, 'market', amount);
  draft.log(`Closing at market: ${draft.closeSide} ${amount.toFixed()}`);
}

export function fail(draft: Draft, message: string): void {
  const { state } = draft;
  stopEverything(draft);
  state.status = 'failed';
  state.error = message;
  state.closedAt = draft.now;
  draft.log(`Trade failed: ${message}`);
}

/** Ends a cancellation once no order is open any more. */
export function settleCancellation(draft: Draft): void {
  const { state } = draft;
  if (state.status !== 'cancellation_pending') return;
  if (state.orders.some((order) => order.status === 'open')) return;
  state.status = 'cancelled';
  state.closedAt = draft.now;
  draft.log('Trade cancelled');
}
