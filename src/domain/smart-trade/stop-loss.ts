/**
 * The stop loss, watched by the trade (spot exchanges have no native stop for it). Its level is a
 * value or a percent from the average entry; a trailing stop follows the best price since entry
 * at a fixed distance and never moves back; breakeven lifts it to the entry price once the first
 * take-profit step has filled. With a timeout, a hit only starts a timer, and the trade closes
 * when the timer fires only if the price is still beyond the level.
 */
import { type Decimal, floorToStep, roundToStep } from '../../shared/decimal.ts';
import type { Draft } from './draft.ts';
import { averages, type Figures, figures } from './ledger.ts';
import type { SmartTradeState } from './smart-trade.types.ts';
import { isActiveStep, tooSmall } from './targets.ts';
import { stopLossTriggered } from './trade-records.ts';

export const STOP_LOSS_TIMER = 'sl';

export const stopLossArmed = (state: SmartTradeState) => state.stopLoss?.status === 'idle' || state.stopLoss?.status === 'timeout';

const max = (a: Decimal, b: Decimal) => (a.gt(b) ? a : b);
const min = (a: Decimal, b: Decimal) => (a.lt(b) ? a : b);

/** What a stop's level is made of that changes only with fills: its base level and trailing factor. */
interface StopBase {
  level: Decimal | undefined;
  /** What the extreme is multiplied by for the trailed level (undefined: it does not trail). */
  trail: Decimal | undefined;
  enter: Decimal | undefined;
}

/**
 * The last base of each trade's stop, for the figures it was made from: a trailing trade asks for
 * its level on every tick, and the divisions below change only with fills (its settings are the
 * same object in all its states, and `figures` answers the same object until a fill).
 */
const lastBases = new WeakMap<object, { f: Figures; base: StopBase }>();

function stopBase(state: SmartTradeState, f: Figures): StopBase {
  const last = lastBases.get(state.config);
  if (last?.f === f) return last.base;
  const config = state.config.stopLoss!;
  const long = state.config.side === 'buy';
  const entry = f.enteredGross.isZero() ? undefined : f.enteredQuote.div(f.enteredGross);
  let level: Decimal | undefined = config.trigger.value;
  if (level === undefined && entry !== undefined && config.trigger.percent !== undefined) {
    const distance = config.trigger.percent.div(100);
    level = entry.times(long ? distance.negated().plus(1) : distance.plus(1));
  }
  let trail: Decimal | undefined;
  if (level !== undefined && config.trailing && entry !== undefined) {
    const distance = config.trailingPercent?.div(100) ?? entry.minus(level).abs().div(entry);
    trail = long ? distance.negated().plus(1) : distance.plus(1);
  }
  const base = { level, trail, enter: averages(f).enter };
  lastBases.set(state.config, { f, base });
  return base;
}

export function stopLossLevel(state: SmartTradeState, f: Figures = figures(state)): Decimal | undefined {
  const stopLoss = state.stopLoss;
  if (!state.config.stopLoss || !stopLoss) return undefined;
  const long = state.config.side === 'buy';
  const base = stopBase(state, f);
  let level = base.level;
  if (level === undefined) return undefined;
  if (base.trail !== undefined && stopLoss.extreme !== undefined) {
    const trailed = stopLoss.extreme.times(base.trail);
    level = long ? max(level, trailed) : min(level, trailed);
  }
  const enter = stopLoss.atBreakeven ? base.enter : undefined;
  if (enter !== undefined) level = long ? max(level, enter) : min(level, enter);
  return roundToStep(level, state.market.priceStep);
}

const beyond = (long: boolean, price: Decimal, level: Decimal) => (long ? price.lte(level) : price.gte(level));

/** Follows the price and fires the stop; true when the trade is now closing. */
export function stopLossTick(draft: Draft): boolean {
  const { state } = draft;
  const config = state.config.stopLoss;
  const stopLoss = state.stopLoss;
  if (!config || stopLoss?.status !== 'idle') return false;
  const price = draft.price(config.priceType);
  if (price === undefined) return false;
  if (config.trailing && (stopLoss.extreme === undefined || (draft.long ? price.gt(stopLoss.extreme) : price.lt(stopLoss.extreme)))) {
    stopLoss.extreme = price;
    stopLoss.extremeAt = draft.now;
  }
  const level = stopLossLevel(state);
  if (level === undefined || !beyond(draft.long, price, level)) return false;
  if (config.timeoutSeconds !== undefined) {
    stopLoss.status = 'timeout';
    draft.scheduleTimer(STOP_LOSS_TIMER, new Date(draft.now.getTime() + config.timeoutSeconds * 1000));
    draft.log(`Stop loss reached at ${price.toFixed()}; closing in ${config.timeoutSeconds} s unless the price recovers`);
    return false;
  }
  executeStopLoss(draft, price);
  return true;
}

/** The timeout ended: close only if the price is still at or beyond the stop. */
export function stopLossTimer(draft: Draft): void {
  const { state } = draft;
  const config = state.config.stopLoss;
  if (!config || state.stopLoss?.status !== 'timeout') return;
  const price = draft.price(config.priceType);
  const level = stopLossLevel(state);
  if (price !== undefined && level !== undefined && beyond(draft.long, price, level)) {
    executeStopLoss(draft, price);
    return;
  }
  state.stopLoss.status = 'idle';
  draft.log('Stop loss timeout ended with the price recovered; the trade stays open');
}

function executeStopLoss(draft: Draft, price: Decimal): void {
  draft.own();
  const { state } = draft;
  const config = state.config.stopLoss!;
  const stopLoss = state.stopLoss!;
  for (const order of state.orders) if (order.status === 'open') draft.cancel(order);
  for (const step of state.steps) if (isActiveStep(step)) step.status = 'cancelled';
  const amount = floorToStep(figures(state).held, state.market.lotStep);
  draft.log(`Stop loss triggered at ${price.toFixed()}`);
  draft.records.push(stopLossTriggered(state, price, draft.now));
  if (tooSmall(state, amount, config.limitPrice ?? price)) {
    stopLoss.status = 'finished';
    stopLoss.closedAt = draft.now;
    state.status = 'stop_loss_finished';
    state.closedAt = draft.now;
    return;
  }
  draft.place('stop_loss', stopLoss.id, draft.closeSide, config.orderType, amount, config.limitPrice);
  stopLoss.status = 'order_placed';
}

/** Breakeven: the first take-profit step that fills lifts the stop to the entry price. */
export function noteStepFilled(draft: Draft): void {
  const { state } = draft;
  if (!state.config.stopLoss?.breakeven || !state.stopLoss || state.stopLoss.atBreakeven || !stopLossArmed(state)) return;
  state.stopLoss.atBreakeven = true;
  draft.log('Stop loss moved to breakeven');
}
