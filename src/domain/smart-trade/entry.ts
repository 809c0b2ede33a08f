/**
 * Entering the position: a market or limit order at once, or a conditional entry that waits for
 * its trigger price (on bid, ask or last) and then enters at market or at its limit price. A
 * trailing entry, after the trigger, follows the price's extreme (the low for a long) and enters
 * at market when the price turns back by its percent. The trigger's direction is fixed at start
 * from where the price is then, as the reference does (`greater_or_equal` when the trigger lies
 * above the price).
 */
import { type Decimal, floorToStep, ZERO } from '../../shared/decimal.ts';
import { TransitionError } from '../automation.ts';
import type { Draft } from './draft.ts';
import { figures, isEntry } from './ledger.ts';
import { syncTargets } from './targets.ts';
import { stopLossArmed } from './stop-loss.ts';
import type { OrderKind, SmartTradeState, TriggerCondition } from './smart-trade.types.ts';

export function startTrade(draft: Draft): void {
  const { state } = draft;
  const { entry } = state.config;
  if (state.config.skipEnterStep) {
    const price = entry.price ?? draft.price('last');
    if (price === undefined) throw new TransitionError('created', 'start');
    state.position.own = { amount: entry.units, price };
    state.position.status = 'smart_sell';
    draft.log(`Trade started on ${entry.units.toFixed()} own coins bought at ${price.toFixed()}`);
    arm(draft);
    return;
  }
  state.status = 'waiting_position';
  if (entry.orderType === 'conditional') {
    const conditional = entry.conditional!;
    state.position.status = 'to_process';
    state.position.condition = conditionFor(draft, conditional.trigger, conditional.priceType);
    draft.log(`Waiting for the ${conditional.priceType} price to reach ${conditional.trigger.toFixed()}`);
    entryTick(draft);
    return;
  }
  placeEntry(draft, entry.orderType, entry.units, entry.price);
}

function conditionFor(draft: Draft, trigger: Decimal, priceType: 'bid' | 'ask' | 'last'): TriggerCondition {
  const price = draft.price(priceType);
  if (price === undefined) return draft.long ? 'less_or_equal' : 'greater_or_equal';
  return price.lt(trigger) ? 'greater_or_equal' : 'less_or_equal';
}

function placeEntry(draft: Draft, orderType: OrderKind, amount: Decimal, price?: Decimal): void {
  draft.own();
  const { state } = draft;
  draft.place('position', state.position.id, draft.entrySide, orderType, amount, price);
  state.position.status = 'order_placed';
  draft.log(`${orderType === 'market' ? 'Market' : 'Limit'} ${draft.entrySide} order placed for ${amount.toFixed()}${price && orderType === 'limit' ? ` at ${price.toFixed()}` : ''}`);
}

/** After an edit of a placed entry: the old order is cancelled and the new one placed. */
export function replaceEntryOrder(draft: Draft): void {
  const { state } = draft;
  for (const order of state.orders) if (order.purpose === 'position' && order.status === 'open') draft.cancel(order);
  const { entry } = state.config;
  const orderType = entry.orderType === 'conditional' ? entry.conditional!.orderType : entry.orderType;
  placeEntry(draft, orderType, entry.units, entry.price);
}

/** After an edit of the trigger: its direction is taken again from where the price is now. */
export function resetCondition(draft: Draft): void {
  const conditional = draft.state.config.entry.conditional!;
  draft.state.position.condition = conditionFor(draft, conditional.trigger, conditional.priceType);
}

/** A conditional or trailing entry on a price move. */
export function entryTick(draft: Draft): void {
  const { state } = draft;
  const conditional = state.config.entry.conditional;
  if (!conditional) return;
  const price = draft.price(conditional.priceType);
  if (price === undefined) return;
  const position = state.position;
  if (position.status === 'to_process') {
    const met = position.condition === 'greater_or_equal' ? price.gte(conditional.trigger) : price.lte(conditional.trigger);
    if (!met) return;
    if (conditional.trailingPercent !== undefined) {
      const own = draft.ownPosition();
      own.status = 'trailing_activated';
      own.extreme = price;
      own.extremeAt = draft.now;
      draft.log(`Trailing entry activated at ${price.toFixed()}`);
      return;
    }
    draft.log(`Entry condition met at ${price.toFixed()}`);
    placeEntry(draft, conditional.orderType, state.config.entry.units, state.config.entry.price);
  } else if (position.status === 'trailing_activated') {
    const extreme = position.extreme ?? price;
    const turn = conditional.trailingPercent!.div(100);
    if (draft.long ? price.lt(extreme) : price.gt(extreme)) {
      const own = draft.ownPosition();
      own.extreme = price;
      own.extremeAt = draft.now;
    } else if (draft.long ? price.gte(extreme.times(turn.plus(1))) : price.lte(extreme.times(turn.negated().plus(1)))) {
      draft.log(`Trailing entry: the price turned back to ${price.toFixed()}`);
      placeEntry(draft, 'market', state.config.entry.units);
    }
  }
}

export const entryPending = (state: SmartTradeState) =>
  state.position.status === 'to_process' || state.position.status === 'order_placed' || state.position.status === 'trailing_activated';

const positionFilled = (state: SmartTradeState) =>
  state.orders.reduce((sum, order) => (order.purpose === 'position' ? sum.plus(order.filled) : sum), ZERO);

/** Enters at market now, for what the entry has not filled yet. */
export function forceStart(draft: Draft): void {
  const { state } = draft;
  if (!entryPending(state)) throw new TransitionError(state.position.status, 'force_start');
  for (const order of state.orders) if (order.purpose === 'position' && order.status === 'open') draft.cancel(order);
  const rest = state.config.entry.units.minus(positionFilled(state));
  draft.log('Forced start: entering at market');
  if (rest.lte(0)) {
    positionDone(draft);
    return;
  }
  placeEntry(draft, 'market', rest);
}

/** The entry ended (filled, or ended by the exchange after part of it filled). */
export function positionDone(draft: Draft): void {
  const { state } = draft;
  state.position.status = 'finished';
  const entered = figures(state).enteredAmount;
  draft.log(`Position entered: ${entered.toFixed()}`);
  if (state.config.instant) {
    state.status = 'finished';
    state.closedAt = draft.now;
    return;
  }
  arm(draft);
}

/** The position is in: watch and place the targets and the stop loss. */
function arm(draft: Draft): void {
  const { state } = draft;
  state.status = 'waiting_targets';
  if (state.stopLoss) {
    state.stopLoss.status = 'idle';
    const f = figures(state);
    const entry = f.enteredGross.isZero() ? undefined : f.enteredQuote.div(f.enteredGross);
    if (entry !== undefined) {
      state.stopLoss.extreme = entry;
      state.stopLoss.extremeAt = draft.now;
    }
  }
  syncTargets(draft);
  finishIfDone(draft);
}

/** Ends the trade when nothing is left to close: every step ended and no stop loss guards it. */
export function finishIfDone(draft: Draft): void {
  const { state } = draft;
  if (state.status !== 'waiting_targets' && state.status !== 'pending_reduce_funds') return;
  const active = state.steps.some((step) => step.status === 'idle' || step.status === 'order_placed' || step.status === 'trailing_activated' || step.status === 'failed');
  if (active) return;
  const someFilled = state.steps.some((step) => step.status === 'finished');
  const nothingLeft = floorToStep(figures(state).held, state.market.lotStep).lt(state.market.minLotSize);
  if (!someFilled && !nothingLeft && stopLossArmed(state)) return;
  if (state.orders.some((order) => order.status === 'open' && !isEntry(order))) return;
  for (const order of state.orders) if (order.status === 'open') draft.cancel(order);
  state.status = 'finished';
  state.closedAt = draft.now;
  if (state.stopLoss && stopLossArmed(state)) {
    if (state.stopLoss.status === 'timeout') draft.cancelTimer('sl');
    state.stopLoss.status = 'cancelled';
  }
  draft.log(someFilled ? 'Take profit reached: trade finished' : 'Nothing left to watch: trade finished');
}
