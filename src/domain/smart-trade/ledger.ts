/**
 * The trade's books: fills are added to the orders that received them, and every figure the API
 * shows (entered and closed amounts and totals, average prices with and without commission,
 * profit, the commission rate) is summed from those orders.
 *
 * Spot exchanges charge the fee in the currency received: base on buys, quote on sells. So a long
 * holds the bought amount minus the base fee, and a short receives the sold total minus the quote
 * fee. A long's `held` is the base it still owns; a short's is the base it still has to buy back.
 */
import { type Decimal, ZERO } from '../../shared/decimal.ts';
import { type FillInput, fillQuote } from '../automation.ts';
import type { SmartTradeState, TrackedOrder } from './smart-trade.types.ts';

export interface Figures {
  /** Long: base received after fees. Short: base sold. */
  enteredAmount: Decimal;
  /** Base amount of the entry fills before fees. */
  enteredGross: Decimal;
  /** Quote value of the entry fills before fees. */
  enteredQuote: Decimal;
  /** Long: quote spent. Short: quote received after fees. */
  enteredTotal: Decimal;
  /** Long: base sold. Short: base received after fees. */
  closedAmount: Decimal;
  closedGross: Decimal;
  closedQuote: Decimal;
  /** Long: quote received after fees. Short: quote spent. */
  closedTotal: Decimal;
  feeValue: Decimal;
  held: Decimal;
}

export const isEntry = (order: TrackedOrder) => order.purpose === 'position' || order.purpose === 'add_funds';

/**
 * The last figures of each trade, with what they were summed from. A step asks for them several
 * times (targets, the stop, the watches) and a trailing trade on every tick, while they change
 * only with fills. A trade's settings are the same object in all its states (steps never copy
 * them), so they key the memo; what the sums read is compared by identity, which holds because
 * decimals are never changed in place (a fill replaces them) and an order is copied before a step
 * changes it (a tick step shares the orders of the state it was given: draft.ts).
 */
const lastFigures = new WeakMap<object, { inputs: unknown[]; result: Figures }>();

/** What the sums read of each order, after the trade's own position. */
const ORDER_INPUTS = ['purpose', 'filled', 'filledQuote', 'feeBase', 'feeQuote', 'feeValue'] as const;

function figureInputs(state: SmartTradeState): unknown[] {
  const inputs: unknown[] = [state.position.own];
  for (const order of state.orders) for (const field of ORDER_INPUTS) inputs.push(order[field]);
  return inputs;
}

/** Compared where they are, without making the list: a trailing trade asks several times a tick. */
function sameInputs(inputs: readonly unknown[], state: SmartTradeState): boolean {
  if (inputs.length !== 1 + ORDER_INPUTS.length * state.orders.length || inputs[0] !== state.position.own) return false;
  let index = 1;
  for (const order of state.orders) for (const field of ORDER_INPUTS) if (inputs[index++] !== order[field]) return false;
  return true;
}

export function figures(state: SmartTradeState): Figures {
  const last = lastFigures.get(state.config);
  if (last && sameInputs(last.inputs, state)) return last.result;
  const result = sumFigures(state);
  lastFigures.set(state.config, { inputs: figureInputs(state), result });
  return result;
}

function sumFigures(state: SmartTradeState): Figures {
  const long = state.config.side === 'buy';
  let enteredGross = ZERO;
  let enteredQuote = ZERO;
  let entryFeeBase = ZERO;
  let entryFeeQuote = ZERO;
  let closedGross = ZERO;
  let closedQuote = ZERO;
  let closeFeeBase = ZERO;
  let closeFeeQuote = ZERO;
  let feeValue = ZERO;
  const own = state.position.own;
  if (own) {
    enteredGross = own.amount;
    enteredQuote = own.amount.times(own.price);
  }
  for (const order of state.orders) {
    if (order.filled.isZero()) continue;
    feeValue = feeValue.plus(order.feeValue);
    if (isEntry(order)) {
      enteredGross = enteredGross.plus(order.filled);
      enteredQuote = enteredQuote.plus(order.filledQuote);
      entryFeeBase = entryFeeBase.plus(order.feeBase);
      entryFeeQuote = entryFeeQuote.plus(order.feeQuote);
    } else {
      closedGross = closedGross.plus(order.filled);
      closedQuote = closedQuote.plus(order.filledQuote);
      closeFeeBase = closeFeeBase.plus(order.feeBase);
      closeFeeQuote = closeFeeQuote.plus(order.feeQuote);
    }
  }
  const enteredAmount = long ? enteredGross.minus(entryFeeBase) : enteredGross;
  const enteredTotal = long ? enteredQuote.plus(entryFeeQuote) : enteredQuote.minus(entryFeeQuote);
  const closedAmount = long ? closedGross : closedGross.minus(closeFeeBase);
  const closedTotal = long ? closedQuote.minus(closeFeeQuote) : closedQuote.plus(closeFeeQuote);
  const held = long ? enteredAmount.minus(closedGross).minus(closeFeeBase) : enteredAmount.minus(closedGross);
  return {
    enteredAmount, enteredGross, enteredQuote, enteredTotal,
    closedAmount, closedGross, closedQuote, closedTotal,
    feeValue,
    held: held.isNegative() ? ZERO : held,
  };
}

const ratio = (a: Decimal, b: Decimal) => (b.isZero() ? undefined : a.div(b));

export interface Averages {
  enter?: Decimal;
  enterWithoutCommission?: Decimal;
  close?: Decimal;
  closeWithoutCommission?: Decimal;
}

export function averages(f: Figures): Averages {
  const result: Averages = {};
  const enter = ratio(f.enteredTotal, f.enteredAmount);
  const enterRaw = ratio(f.enteredQuote, f.enteredGross);
  const close = ratio(f.closedTotal, f.closedAmount);
  const closeRaw = ratio(f.closedQuote, f.closedGross);
  if (enter) result.enter = enter;
  if (enterRaw) result.enterWithoutCommission = enterRaw;
  if (close) result.close = close;
  if (closeRaw) result.closeWithoutCommission = closeRaw;
  return result;
}

export interface Profit {
  volume: Decimal;
  percent: Decimal;
}

/**
 * Realised profit of what was closed, plus, while the trade is open, the held part valued at the
 * price it would close at now (bid for a long, ask for a short). Undefined before any entry.
 */
export function profit(state: SmartTradeState, f: Figures, quote: { bid: Decimal; ask: Decimal } | undefined, open: boolean): Profit | undefined {
  if (f.enteredAmount.isZero()) return undefined;
  const perUnit = f.enteredTotal.div(f.enteredAmount);
  const counted = open && quote !== undefined ? f.held : ZERO;
  let volume: Decimal;
  if (state.config.side === 'buy') {
    const sold = f.enteredAmount.minus(f.held);
    volume = f.closedTotal.minus(perUnit.times(sold)).plus(counted.times(quote?.bid ?? ZERO).minus(perUnit.times(counted)));
  } else {
    volume = perUnit.times(f.closedAmount).minus(f.closedTotal).plus(perUnit.times(counted).minus(counted.times(quote?.ask ?? ZERO)));
  }
  const basis = perUnit.times(f.closedGross.plus(counted));
  return { volume, percent: basis.isZero() ? ZERO : volume.div(basis).times(100) };
}

/** The fee rate the fills actually paid: fees over traded volume, both in quote. */
export function commissionRate(f: Figures): Decimal {
  return ratio(f.feeValue, f.enteredQuote.plus(f.closedQuote)) ?? ZERO;
}

export function findOrder(state: SmartTradeState, key: string): TrackedOrder | undefined {
  return state.orders.find((order) => order.key === key);
}

export const isOpen = (order: TrackedOrder) => order.status === 'open';

export const remainingOf = (order: TrackedOrder) => (isOpen(order) ? order.amount.minus(order.filled) : ZERO);

/** Adds a fill to its order; the fee is booked by currency and valued in quote. */
export function bookFill(state: SmartTradeState, order: TrackedOrder, fill: FillInput): void {
  order.filled = order.filled.plus(fill.amount);
  order.filledQuote = order.filledQuote.plus(fillQuote(fill));
  if (fill.feeCurrency === state.config.base) {
    order.feeBase = order.feeBase.plus(fill.fee);
    order.feeValue = order.feeValue.plus(fill.fee.times(fill.price));
  } else {
    if (fill.feeCurrency === state.config.quote) order.feeQuote = order.feeQuote.plus(fill.fee);
    order.feeValue = order.feeValue.plus(fill.fee);
  }
  if (fill.orderFilled || order.filled.gte(order.amount)) order.status = 'filled';
  order.updatedAt = fill.at;
}

