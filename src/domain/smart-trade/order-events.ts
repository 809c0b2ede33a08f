/**
 * What the exchange reports about the trade's orders: fills are booked, and an order that ends
 * moves the part of the trade it belonged to on. An order ending that the trade did not ask to
 * cancel is a refusal (or an expiry) and is reported on its step.
 */
import type { FillInput, OrderClosedInput } from '../automation.ts';
import { fail, settleCancellation } from './closing.ts';
import type { Draft } from './draft.ts';
import { finishIfDone, positionDone } from './entry.ts';
import { bookFill, figures, findOrder } from './ledger.ts';
import type { SmartTradeState, TrackedOrder } from './smart-trade.types.ts';
import { noteStepFilled } from './stop-loss.ts';
import { stepNumber, syncTargets } from './targets.ts';

export function onFill(draft: Draft, fill: FillInput): void {
  const { state } = draft;
  const order = findOrder(state, fill.key);
  if (!order) return;
  bookFill(state, order, fill);
  if (order.status === 'filled') orderEnded(draft, order);
  settleCancellation(draft);
}

export function onOrderClosed(draft: Draft, input: OrderClosedInput): void {
  const { state } = draft;
  const order = findOrder(state, input.key);
  if (!order || order.status !== 'open') return;
  order.status = input.status;
  order.updatedAt = input.at;
  if (input.status === 'rejected' || !order.cancelRequested) {
    order.error = input.message ?? input.reason ?? `The order was ${input.status} by the exchange`;
  }
  orderEnded(draft, order);
  settleCancellation(draft);
}

const openOf = (state: SmartTradeState, purpose: TrackedOrder['purpose']) =>
  state.orders.some((order) => order.purpose === purpose && order.status === 'open');

function orderEnded(draft: Draft, order: TrackedOrder): void {
  const { state } = draft;
  const filled = order.status === 'filled';
  const refused = !filled && !order.cancelRequested;
  switch (order.purpose) {
    case 'position': {
      if (state.position.status !== 'order_placed' || openOf(state, 'position')) return;
      if (filled || !figures(state).enteredAmount.isZero()) {
        positionDone(draft);
      } else if (refused) {
        state.position.status = 'failed';
        state.position.error = order.error!;
        fail(draft, order.error!);
      }
      return;
    }
    case 'add_funds':
    case 'reduce_funds': {
      const step = state.funds.find((candidate) => candidate.id === order.subTradeId);
      if (step) {
        step.status = filled ? 'finished' : refused ? 'failed' : order.filled.isZero() ? 'cancelled' : 'finished';
        if (refused) step.error = order.error!;
        step.closedAt = draft.now;
      }
      if (order.purpose === 'reduce_funds' && state.status === 'pending_reduce_funds' && !openOf(state, 'reduce_funds')) {
        state.status = 'waiting_targets';
      }
      draft.log(`${order.purpose === 'add_funds' ? 'Add funds' : 'Reduce funds'} order ${filled ? 'filled' : 'ended'}`);
      resync(draft);
      return;
    }
    case 'take_profit': {
      const step = state.steps.find((candidate) => candidate.id === order.subTradeId);
      if (!step || step.status !== 'order_placed') {
        resync(draft);
        return;
      }
      if (filled) {
        step.status = 'finished';
        step.closedAt = draft.now;
        draft.log(`Take profit step ${stepNumber(state, step)} filled at ${order.filledQuote.div(order.filled).toFixed()}`);
        noteStepFilled(draft);
      } else if (refused) {
        step.status = 'failed';
        step.error = order.error!;
        draft.log(`Take profit step ${stepNumber(state, step)} failed: ${order.error!}`);
      }
      resync(draft);
      return;
    }
    case 'stop_loss':
      return closingEnded(draft, order, 'stop_loss_finished');
    case 'market_close':
      return closingEnded(draft, order, 'panic_sold');
  }
}

/** After anything that changes what the steps share: their orders follow, and the trade may end. */
export function resync(draft: Draft): void {
  const { state } = draft;
  if (state.status !== 'waiting_targets' && state.status !== 'pending_reduce_funds') return;
  if (state.stopLoss?.status === 'order_placed') return;
  syncTargets(draft);
  finishIfDone(draft);
}

function closingEnded(draft: Draft, order: TrackedOrder, done: 'stop_loss_finished' | 'panic_sold'): void {
  const { state } = draft;
  const part = order.purpose === 'stop_loss' ? state.stopLoss : state.marketClose;
  if (!part || part.status !== 'order_placed') return;
  if (order.status !== 'filled') {
    part.status = 'failed';
    fail(draft, order.error ?? 'The closing order ended unfilled');
    return;
  }
  part.status = 'finished';
  part.closedAt = draft.now;
  state.status = done;
  state.closedAt = draft.now;
  draft.log(done === 'panic_sold' ? 'Closed at market' : `Stop loss filled at ${order.filledQuote.div(order.filled).toFixed()}`);
}
