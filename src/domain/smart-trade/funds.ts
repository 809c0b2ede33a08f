/**
 * Adding to and reducing the position. Added funds are bought (long) or sold (short) like the
 * entry and average into it; take-profit steps given as a percent follow the new average, steps
 * given as a value stay where they are (as the reference does). Reducing closes part of the held
 * position outside the take-profit steps, which then share what is left.
 */
import { type Decimal, floorToStep, ZERO } from '../../shared/decimal.ts';
import { errors } from '../../shared/errors.ts';
import { type Side, TransitionError } from '../automation.ts';
import type { Draft } from './draft.ts';
import { figures, remainingOf } from './ledger.ts';
import type { FundsInput, SmartTradeConfig, SmartTradeState } from './smart-trade.types.ts';

export const hasTrailing = (config: SmartTradeConfig) =>
  config.entry.conditional?.trailingPercent !== undefined ||
  config.takeProfit.steps.some((step) => step.trailingPercent !== undefined) ||
  config.stopLoss?.trailing === true;

export const addFundsAllowed = (state: SmartTradeState) =>
  (state.status === 'waiting_position' || state.status === 'waiting_targets') &&
  !state.config.instant &&
  !hasTrailing(state.config) &&
  state.stopLoss?.status !== 'order_placed';

export function addFunds(draft: Draft, input: FundsInput): void {
  const { state } = draft;
  if (!addFundsAllowed(state)) throw new TransitionError(state.status, 'add_funds');
  openPart(draft, 'add_funds', draft.entrySide, input);
  draft.log(`Adding funds: ${input.orderType} ${draft.entrySide} of ${input.units.toFixed()}`);
}

/**
 * The most that can be reduced now: the held position that is not kept, not being reduced or
 * closed already, and not in a take-profit order being sent at market.
 */
export function maxReduce(state: SmartTradeState): Decimal {
  if (state.status !== 'waiting_targets' || state.stopLoss?.status === 'order_placed') return ZERO;
  let reserved = state.kept;
  for (const order of state.orders) {
    const closing = order.purpose === 'reduce_funds' || order.purpose === 'market_close' || order.purpose === 'stop_loss';
    if (closing || (order.purpose === 'take_profit' && order.orderType === 'market')) reserved = reserved.plus(remainingOf(order));
  }
  const free = figures(state).held.minus(reserved);
  return free.isNegative() ? ZERO : floorToStep(free, state.market.lotStep);
}

export function reduceFunds(draft: Draft, input: FundsInput): void {
  const { state } = draft;
  const max = maxReduce(state);
  if (max.isZero()) throw errors.recordInvalid({ entered_amount: ['Too small'] }, 422);
  if (input.units.gt(max)) throw errors.recordInvalid({ 'units[value]': [`must be less than or equal to ${max.toFixed()}`] }, 422);
  openPart(draft, 'reduce_funds', draft.closeSide, input);
  state.status = 'pending_reduce_funds';
  draft.log(`Reducing funds: ${input.orderType} ${draft.closeSide} of ${input.units.toFixed()}`);
}

/** Records an add- or reduce-funds part and places its order. */
function openPart(draft: Draft, kind: 'add_funds' | 'reduce_funds', side: Side, input: FundsInput): void {
  const id = draft.nextId();
  draft.state.funds.push({
    id,
    kind,
    orderType: input.orderType,
    units: input.units,
    ...(input.price === undefined ? {} : { price: input.price }),
    status: 'order_placed',
    createdAt: draft.now,
  });
  draft.place(kind, id, side, input.orderType, input.units, input.price);
}
