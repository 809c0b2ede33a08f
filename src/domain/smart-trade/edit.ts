/**
 * Editing a trade in waiting_position or waiting_targets. The entry can change only before any
 * of it filled; take-profit steps already at work (filled, filling, trailing, sent at market)
 * must be sent again by id and keep their state, while the others are replaced; the stop loss is
 * replaced as a whole and keeps its trailing extreme and breakeven.
 */
import { ZERO } from '../../shared/decimal.ts';
import { errors } from '../../shared/errors.ts';
import { TransitionError } from '../automation.ts';
import type { Draft } from './draft.ts';
import { entryPending, entryTick, finishIfDone, replaceEntryOrder, resetCondition } from './entry.ts';
import { figures } from './ledger.ts';
import type { EditInput, StopLossConfig, TakeProfitStep } from './smart-trade.types.ts';
import { STOP_LOSS_TIMER } from './stop-loss.ts';
import { isActiveStep, syncTargets } from './targets.ts';

export function editTrade(draft: Draft, edit: EditInput): void {
  const { state } = draft;
  if (state.stopLoss?.status === 'order_placed') throw new TransitionError(state.status, 'edit');
  if (edit.position) editPosition(draft, edit.position);
  if (edit.takeProfit) editTargets(draft, edit.takeProfit);
  if (edit.stopLoss !== undefined) editStopLoss(draft, edit.stopLoss);
  draft.log('Trade edited');
  if (state.status === 'waiting_targets') {
    syncTargets(draft);
    finishIfDone(draft);
  } else if (state.position.status === 'to_process') {
    entryTick(draft);
  }
}

export function positionEditable(draft: Draft['state']): boolean {
  const entered = draft.orders.some((order) => order.purpose === 'position' && order.filled.gt(0));
  return draft.status === 'waiting_position' && entryPending(draft) && !entered;
}

function editPosition(draft: Draft, position: NonNullable<EditInput['position']>): void {
  const { state } = draft;
  if (!positionEditable(state)) throw errors.recordInvalid({ position: ['is not editable'] });
  const entry = { ...state.config.entry };
  if (position.units !== undefined) entry.units = position.units;
  if (position.price !== undefined) entry.price = position.price;
  if (position.conditional !== undefined) {
    if (entry.orderType !== 'conditional') throw errors.recordInvalid({ 'position[conditional]': ['is not editable'] });
    entry.conditional = position.conditional;
  }
  state.config = { ...state.config, entry };
  if (state.position.status === 'order_placed') replaceEntryOrder(draft);
  else if (state.position.status === 'to_process' && position.conditional !== undefined) resetCondition(draft);
}

/** A step is at work once it filled anything, trails, or was sent at market. */
function atWork(draft: Draft, step: TakeProfitStep): boolean {
  if (step.status === 'finished' || step.status === 'trailing_activated') return true;
  return draft.state.orders.some(
    (order) => order.subTradeId === step.id && (order.filled.gt(0) || (order.status === 'open' && order.orderType === 'market')),
  );
}

function editTargets(draft: Draft, takeProfit: NonNullable<EditInput['takeProfit']>): void {
  const { state } = draft;
  const kept: TakeProfitStep[] = [];
  if (takeProfit.enabled) {
    for (const input of takeProfit.steps) {
      const existing = input.id === undefined ? undefined : state.steps.find((step) => step.id === input.id);
      if (existing && atWork(draft, existing)) {
        kept.push(existing);
        continue;
      }
      const { id: _id, ...config } = input;
      kept.push({ ...config, id: existing?.id ?? draft.nextId(), status: 'idle' });
    }
    const dropped = state.steps.filter((step) => atWork(draft, step) && !kept.includes(step));
    if (dropped.length > 0) throw errors.recordInvalid({ 'take_profit[steps]': ['must include the steps already executed'] });
  }
  for (const step of state.steps) {
    if (kept.includes(step)) continue;
    for (const order of state.orders) if (order.subTradeId === step.id && order.status === 'open') draft.cancel(order);
  }
  const history = takeProfit.enabled ? [] : state.steps.filter((step) => step.status === 'finished');
  state.steps = takeProfit.enabled ? kept : history;
  for (const step of state.steps) if (!takeProfit.enabled && isActiveStep(step)) step.status = 'cancelled';
  if (!takeProfit.enabled) state.kept = ZERO;
  state.config = {
    ...state.config,
    takeProfit: {
      enabled: takeProfit.enabled,
      steps: state.steps.map(({ orderType, volume, priceType, price, trailingPercent }) => ({
        orderType, volume, priceType, price, ...(trailingPercent === undefined ? {} : { trailingPercent }),
      })),
    },
  };
}

function editStopLoss(draft: Draft, stopLoss: StopLossConfig | null): void {
  const { state } = draft;
  const current = state.stopLoss;
  if (current?.status === 'timeout') draft.cancelTimer(STOP_LOSS_TIMER);
  if (stopLoss === null) {
    const { stopLoss: _removed, ...config } = state.config;
    state.config = config;
    if (current && (current.status === 'idle' || current.status === 'timeout')) current.status = 'cancelled';
    return;
  }
  state.config = { ...state.config, stopLoss };
  if (current && current.status !== 'cancelled') {
    current.status = 'idle';
    if (!stopLoss.breakeven) current.atBreakeven = false;
    return;
  }
  const f = figures(state);
  state.stopLoss = {
    id: current?.id ?? draft.nextId(),
    status: 'idle',
    atBreakeven: false,
    ...(f.enteredGross.isZero() ? {} : { extreme: f.enteredQuote.div(f.enteredGross), extremeAt: draft.now }),
  };
}
