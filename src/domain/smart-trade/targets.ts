/**
 * Take-profit steps. Limit steps rest on the exchange as soon as the position is entered; market
 * steps and the trailing last step are watched and sent at market when their price is reached.
 *
 * Amounts are never stored per step: each active step's share of the held base is computed from
 * the volumes whenever something changes (entry, add or reduce funds, a step ending), and resting
 * orders whose amount or price no longer match are replaced. The last active step takes what the
 * others leave, so the whole position is closed; a share too small for the market's minimums is
 * folded into the steps after it.
 */
import { type Decimal, floorToStep, roundToStep, ZERO } from '../../shared/decimal.ts';
import type { Draft } from './draft.ts';
import { averages, type Figures, figures, remainingOf } from './ledger.ts';
import type { SmartTradeState, TakeProfitStep } from './smart-trade.types.ts';

export const isActiveStep = (step: TakeProfitStep) =>
  step.status === 'idle' || step.status === 'order_placed' || step.status === 'trailing_activated' || step.status === 'failed';

const isWatched = (step: TakeProfitStep) => step.orderType === 'market' || step.trailingPercent !== undefined;

/**
 * The last price of each step's percent target, for the figures it was made from: a watched trade
 * asks for it on every tick, and it changes only with fills. A step's price settings are the same
 * object in all states of its trade (steps are copied, their settings never changed in place).
 */
const lastPrices = new WeakMap<object, { f: Figures; step: Decimal; price: Decimal | undefined }>();

/** A step's price: its value, or its percent from the average entry price (before commission). */
export function targetPrice(state: SmartTradeState, step: TakeProfitStep, f: Figures = figures(state)): Decimal | undefined {
  if (step.price.value !== undefined) return step.price.value;
  const last = lastPrices.get(step.price);
  if (last?.f === f && last.step === state.market.priceStep) return last.price;
  const price = percentTarget(state, step, f);
  lastPrices.set(step.price, { f, step: state.market.priceStep, price });
  return price;
}

function percentTarget(state: SmartTradeState, step: TakeProfitStep, f: Figures): Decimal | undefined {
  const entry = averages(f).enterWithoutCommission;
  if (entry === undefined || step.price.percent === undefined) return undefined;
  const factor = step.price.percent.div(100);
  const price = state.config.side === 'buy' ? entry.times(factor.plus(1)) : entry.times(factor.negated().plus(1));
  return roundToStep(price, state.market.priceStep);
}

/** What the steps may sell (long) or buy back (short): held base not kept and not being reduced or closed. */
function pool(state: SmartTradeState, f: Figures): Decimal {
  let reserved = state.kept;
  for (const order of state.orders) {
    if (order.purpose === 'reduce_funds' || order.purpose === 'stop_loss' || order.purpose === 'market_close') {
      reserved = reserved.plus(remainingOf(order));
    }
  }
  const free = f.held.minus(reserved);
  return free.isNegative() ? ZERO : free;
}

const filledBy = (state: SmartTradeState, stepId: number) =>
  state.orders.reduce((sum, order) => (order.subTradeId === stepId ? sum.plus(order.filled) : sum), ZERO);

/** Each active step's remaining amount to close, by step id. */
export function allocate(state: SmartTradeState, f: Figures = figures(state)): Map<number, Decimal> {
  const active = state.steps.filter(isActiveStep);
  const lot = state.market.lotStep;
  const free = pool(state, f);
  const shares = new Map<number, Decimal>();
  const volume = active.reduce((sum, step) => sum.plus(step.volume), ZERO);
  if (active.length === 0 || volume.isZero()) return shares;
  const base = active.reduce((sum, step) => sum.plus(filledBy(state, step.id)), free);
  let given = ZERO;
  active.forEach((step, index) => {
    if (index === active.length - 1) {
      const rest = free.minus(given);
      shares.set(step.id, rest.isNegative() ? ZERO : floorToStep(rest, lot));
      return;
    }
    const target = floorToStep(base.times(step.volume).div(volume), lot);
    const remaining = target.minus(filledBy(state, step.id));
    const share = remaining.isNegative() ? ZERO : remaining;
    shares.set(step.id, share);
    given = given.plus(share);
  });
  return shares;
}

export function tooSmall(state: SmartTradeState, amount: Decimal, price: Decimal | undefined): boolean {
  const { minLotSize, minTotal } = state.market;
  if (amount.isZero() || amount.lt(minLotSize)) return true;
  return price !== undefined && amount.times(price).lt(minTotal);
}

const openOrdersOf = (state: SmartTradeState, stepId: number) =>
  state.orders.filter((order) => order.subTradeId === stepId && order.status === 'open' && !order.cancelRequested);

const sentAtMarket = (state: SmartTradeState, step: TakeProfitStep) =>
  openOrdersOf(state, step.id).some((order) => order.orderType === 'market');

function endStep(draft: Draft, step: TakeProfitStep): void {
  for (const order of openOrdersOf(draft.state, step.id)) draft.cancel(order);
  step.status = 'finished';
  step.closedAt = draft.now;
}

/**
 * Brings the resting take-profit orders in line with the current shares. Cancellations come
 * first in the commands, so funds they release are free for the orders placed after them.
 */
export function syncTargets(draft: Draft): void {
  const { state } = draft;
  const f = figures(state);
  for (let round = 0; round <= state.steps.length; round += 1) {
    const shares = allocate(state, f);
    const small = state.steps.find((step) => {
      if (!isActiveStep(step) || step.status === 'failed' || step.status === 'trailing_activated') return false;
      if (sentAtMarket(state, step)) return false;
      return tooSmall(state, shares.get(step.id) ?? ZERO, targetPrice(state, step, f));
    });
    if (!small) break;
    endStep(draft, small);
  }
  const shares = allocate(state, f);
  const limitSteps = state.steps.filter(
    (step) => isActiveStep(step) && step.status !== 'failed' && !isWatched(step) && !sentAtMarket(state, step),
  );
  for (const step of limitSteps) {
    const price = targetPrice(state, step, f);
    const amount = shares.get(step.id) ?? ZERO;
    if (price === undefined || amount.isZero()) continue;
    const open = openOrdersOf(state, step.id);
    const current = open[0];
    if (open.length === 1 && current?.price?.eq(price) && remainingOf(current).eq(amount)) continue;
    for (const order of open) draft.cancel(order);
  }
  for (const step of limitSteps) {
    const price = targetPrice(state, step, f);
    const amount = shares.get(step.id) ?? ZERO;
    if (price === undefined || amount.isZero() || openOrdersOf(state, step.id).length > 0) continue;
    draft.place('take_profit', step.id, draft.closeSide, 'limit', amount, price);
    step.status = 'order_placed';
  }
}

const reached = (long: boolean, price: Decimal, target: Decimal) => (long ? price.gte(target) : price.lte(target));

/** Sends a watched step at market with its share; one whose share is too small ends. */
export function executeStep(draft: Draft, step: TakeProfitStep): void {
  draft.own();
  const { state } = draft;
  for (const order of openOrdersOf(state, step.id)) draft.cancel(order);
  const amount = allocate(state).get(step.id) ?? ZERO;
  if (tooSmall(state, amount, draft.price(step.priceType))) {
    endStep(draft, step);
    return;
  }
  draft.place('take_profit', step.id, draft.closeSide, 'market', amount);
  step.status = 'order_placed';
  draft.log(`Take profit step ${stepNumber(state, step)} is closing ${amount.toFixed()} at market`);
}

export const stepNumber = (state: SmartTradeState, step: TakeProfitStep) => state.steps.indexOf(step) + 1;

/** Market and trailing steps on a price move. */
export function targetsTick(draft: Draft): void {
  const { state } = draft;
  const watched = state.steps.filter((step) => isWatched(step) && (step.status === 'idle' || step.status === 'trailing_activated'));
  if (watched.length === 0) return;
  const f = figures(state);
  for (const watchedStep of watched) {
    // As the trade now has it: an earlier turn of this loop may have copied the steps (`ownStep`).
    const step = state.steps.find((candidate) => candidate.id === watchedStep.id)!;
    if (step.status !== 'idle' && step.status !== 'trailing_activated') continue;
    const price = draft.price(step.priceType);
    const target = targetPrice(state, step, f);
    if (price === undefined || target === undefined) continue;
    if (step.trailingPercent === undefined) {
      if (reached(draft.long, price, target)) executeStep(draft, draft.ownStep(step));
    } else if (step.status === 'idle') {
      if (reached(draft.long, price, target)) {
        const own = draft.ownStep(step);
        own.status = 'trailing_activated';
        own.extreme = price;
        own.extremeAt = draft.now;
        draft.log(`Trailing take profit activated at ${price.toFixed()}`);
      }
    } else {
      trailStep(draft, step, price);
    }
  }
}

function trailStep(draft: Draft, step: TakeProfitStep, price: Decimal): void {
  const extreme = step.extreme ?? price;
  const pullback = step.trailingPercent!.div(100);
  if (draft.long ? price.gt(extreme) : price.lt(extreme)) {
    const own = draft.ownStep(step);
    own.extreme = price;
    own.extremeAt = draft.now;
  } else if (draft.long ? price.lte(extreme.times(pullback.negated().plus(1))) : price.gte(extreme.times(pullback.plus(1)))) {
    executeStep(draft, draft.ownStep(step));
  }
}
