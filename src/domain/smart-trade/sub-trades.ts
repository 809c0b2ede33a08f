/**
 * The trade's parts as the reference lists them (`GET /v2/smart_trades/:id/trades`): the position,
 * each take-profit step, the stop loss, each add and reduce funds order, and a close at market.
 * Each part can be closed at market or cancelled on its own where that makes sense.
 */
import { ZERO } from '../../shared/decimal.ts';
import { TransitionError } from '../automation.ts';
import { closeByMarket } from './closing.ts';
import type { Draft } from './draft.ts';
import { entryPending, forceStart } from './entry.ts';
import { remainingOf } from './ledger.ts';
import type { FundsStep, SmartTradeState, TakeProfitStep } from './smart-trade.types.ts';
import { STOP_LOSS_TIMER } from './stop-loss.ts';
import { allocate, executeStep, isActiveStep } from './targets.ts';

export type SubTrade =
  | { purpose: 'position'; id: number }
  | { purpose: 'take_profit'; id: number; step: TakeProfitStep }
  | { purpose: 'stop_loss'; id: number }
  | { purpose: 'funds'; id: number; step: FundsStep }
  | { purpose: 'market_close'; id: number };

export function subTrades(state: SmartTradeState): SubTrade[] {
  const list: SubTrade[] = [];
  if (!state.config.skipEnterStep) list.push({ purpose: 'position', id: state.position.id });
  for (const step of state.funds) list.push({ purpose: 'funds', id: step.id, step });
  for (const step of state.steps) list.push({ purpose: 'take_profit', id: step.id, step });
  if (state.stopLoss) list.push({ purpose: 'stop_loss', id: state.stopLoss.id });
  if (state.marketClose) list.push({ purpose: 'market_close', id: state.marketClose.id });
  return list;
}

export const findSubTrade = (state: SmartTradeState, id: number) => subTrades(state).find((part) => part.id === id);

const working = (state: SmartTradeState) =>
  (state.status === 'waiting_targets' || state.status === 'pending_reduce_funds') && state.stopLoss?.status !== 'order_placed';

const openOrder = (state: SmartTradeState, id: number) =>
  state.orders.find((order) => order.subTradeId === id && order.status === 'open' && !order.cancelRequested);

export function subTradeClosable(state: SmartTradeState, part: SubTrade): boolean {
  switch (part.purpose) {
    case 'position':
      return state.status === 'waiting_position' && entryPending(state);
    case 'take_profit':
      return working(state) && (part.step.status === 'idle' || part.step.status === 'trailing_activated' || limitPlaced(state, part.id));
    case 'funds':
      return openOrder(state, part.id)?.orderType === 'limit';
    case 'stop_loss':
      return working(state) && (state.stopLoss?.status === 'idle' || state.stopLoss?.status === 'timeout');
    case 'market_close':
      return false;
  }
}

const limitPlaced = (state: SmartTradeState, id: number) => openOrder(state, id)?.orderType === 'limit';

export function subTradeCancelable(state: SmartTradeState, part: SubTrade): boolean {
  switch (part.purpose) {
    case 'take_profit':
      return working(state) && isActiveStep(part.step) && !state.orders.some((o) => o.subTradeId === part.id && o.status === 'open' && o.orderType === 'market');
    case 'funds':
      return openOrder(state, part.id) !== undefined;
    case 'stop_loss':
      return working(state) && (state.stopLoss?.status === 'idle' || state.stopLoss?.status === 'timeout');
    default:
      return false;
  }
}

export function closeSubTrade(draft: Draft, id: number): void {
  const { state } = draft;
  const part = findSubTrade(state, id);
  if (!part || !subTradeClosable(state, part)) throw new TransitionError(state.status, 'close_sub_trade');
  if (part.purpose === 'position') return forceStart(draft);
  if (part.purpose === 'stop_loss') return closeByMarket(draft);
  if (part.purpose === 'take_profit') return executeStep(draft, part.step);
  if (part.purpose === 'funds') {
    const order = openOrder(state, part.id)!;
    const rest = remainingOf(order);
    draft.cancel(order);
    draft.place(order.purpose, part.id, order.side, 'market', rest);
    draft.log(`${part.step.kind === 'add_funds' ? 'Add funds' : 'Reduce funds'} order sent at market`);
  }
}

export function cancelSubTrade(draft: Draft, id: number): void {
  const { state } = draft;
  const part = findSubTrade(state, id);
  if (!part || !subTradeCancelable(state, part)) throw new TransitionError(state.status, 'cancel_sub_trade');
  if (part.purpose === 'take_profit') {
    const share = allocate(state).get(part.id) ?? ZERO;
    for (const order of state.orders) if (order.subTradeId === part.id && order.status === 'open') draft.cancel(order);
    part.step.status = 'cancelled';
    part.step.closedAt = draft.now;
    state.kept = state.kept.plus(share);
    draft.log(`Take profit step cancelled; ${share.toFixed()} stays on the account`);
  } else if (part.purpose === 'funds') {
    draft.cancel(openOrder(state, part.id)!);
  } else if (part.purpose === 'stop_loss' && state.stopLoss) {
    if (state.stopLoss.status === 'timeout') draft.cancelTimer(STOP_LOSS_TIMER);
    state.stopLoss.status = 'cancelled';
    draft.log('Stop loss cancelled');
  }
}
