/**
 * What a user can do to a running deal (api-reference §14): cancel it (its orders go, the coins
 * stay), end it that way to convert it into a SmartTrade, close it at market, close one
 * take-profit step at market, add funds with a manual safety order, edit its settings, change its
 * safety-order count, and cancel a manual safety order. Each is checked against the deal's
 * transitions table first.
 */
import type { StepContext } from '../automation.ts';
import { dec, type Decimal } from '../../shared/decimal.ts';
import type { DealSettings } from './dca-settings.ts';
import { type Deal, entrySide, exitSide, findOrder, workingOrders } from './deal.ts';
import { assertDealAllows } from './deal.transitions.ts';
import { closeAtMarket, finishDeal } from './deal-finish.ts';
import { addOrder, cancelWorking, refillSafetyOrders, replaceTakeProfit, tradable, trimSafetyOrders } from './deal-orders.ts';
import type { StepOutput } from './step-output.ts';
import { idleTakeProfitSteps } from './take-profit.ts';

export type DealAction =
  | { type: 'cancel' }
  /** Ends the deal like cancel, its position going on in a SmartTrade. */
  | { type: 'convert' }
  | { type: 'panic_sell' }
  | { type: 'panic_sell_step'; stepIndex: number }
  /** `price` null: a market order. */
  | { type: 'add_funds'; amount: string; price: string | null }
  | { type: 'update_deal'; changes: Partial<DealSettings>; note?: string }
  | { type: 'update_max_safety_orders'; maxSafetyOrders: number }
  | { type: 'cancel_order'; key: string };

/** A deal action the deal's state allows in general but not with these arguments. */
export class DealActionError extends Error {
  override readonly name = 'DealActionError';

  constructor(
    readonly reason: 'cant_be_cancelled' | 'step_not_open' | 'too_small',
    message: string,
  ) {
    super(message);
  }
}

const TAKE_PROFIT_FIELDS: Array<keyof DealSettings> = [
  'takeProfit',
  'takeProfitSteps',
  'takeProfitType',
  'trailingEnabled',
  'trailingDeviation',
  'profitCurrency',
];
const SAFETY_FIELDS: Array<keyof DealSettings> = ['maxSafetyOrders', 'activeSafetyOrdersCount', 'customSafetySteps'];

const closing = (deal: Deal) => deal.tpSteps.some((step) => step.status === 'filled' || step.status === 'closed_at_market');

export function applyDealAction(deal: Deal, action: DealAction, context: StepContext, out: StepOutput): void {
  assertDealAllows(deal.status, action.type);
  switch (action.type) {
    case 'cancel':
      cancelWorking(deal, out);
      return finishDeal(deal, 'cancelled', context, out);
    case 'convert':
      cancelWorking(deal, out);
      out.dealLog(deal, 'Converting the deal into a SmartTrade: its coins stay on the account for it');
      return finishDeal(deal, 'cancelled', context, out);
    case 'panic_sell':
      if (dec(deal.entryAmount).isZero()) {
        cancelWorking(deal, out);
        return finishDeal(deal, 'cancelled', context, out);
      }
      return closeAtMarket(deal, 'panic_sell', context, out);
    case 'panic_sell_step':
      return closeStep(deal, action.stepIndex, context, out);
    case 'add_funds':
      return addFunds(deal, dec(action.amount), action.price === null ? null : dec(action.price), context, out);
    case 'update_deal':
      return updateDeal(deal, action.changes, action.note, context, out);
    case 'update_max_safety_orders':
      return updateDeal(deal, { maxSafetyOrders: action.maxSafetyOrders }, undefined, context, out);
    case 'cancel_order': {
      const order = findOrder(deal, action.key);
      if (!order || order.role !== 'manual_safety' || order.cancelling) throw new DealActionError('cant_be_cancelled', 'Cant be cancelled');
      order.cancelling = true;
      out.cancel(order.key);
      out.dealLog(deal, 'Cancelling manual safety trade');
      return;
    }
  }
}

function closeStep(deal: Deal, stepIndex: number, context: StepContext, out: StepOutput): void {
  const order = workingOrders(deal, 'take_profit').find((o) => o.index === stepIndex);
  if (!order) throw new DealActionError('step_not_open', 'This take profit step has no working order');
  const amount = dec(order.amount).minus(dec(order.filled));
  const price = context.price(deal.pair)?.last ?? dec(order.price ?? 0);
  if (!tradable(context.rules(deal.pair), amount, price, true)) throw new DealActionError('too_small', 'The step is below the exchange minimum');
  order.cancelling = true;
  out.cancel(order.key);
  addOrder(deal, out, { role: 'take_profit_market', side: exitSide(deal), orderType: 'market', amount, index: stepIndex });
  out.dealLog(deal, `Closing TakeProfit step ${stepIndex + 1} at market: ${amount.toFixed()} ${deal.base}`);
}

function addFunds(deal: Deal, amount: Decimal, price: Decimal | null, context: StepContext, out: StepOutput): void {
  const reference = price ?? context.price(deal.pair)?.last;
  if (!reference || !tradable(context.rules(deal.pair), amount, reference, price === null)) {
    throw new DealActionError('too_small', 'The order is below the exchange minimum');
  }
  addOrder(deal, out, {
    role: 'manual_safety',
    side: entrySide(deal),
    orderType: price === null ? 'market' : 'limit',
    amount,
    ...(price === null ? {} : { price }),
  });
  out.dealLog(deal, `Placing manual safety trade. ${price === null ? 'Market' : `Price: ${price.toFixed()} ${deal.quote}`} Size: ${amount.toFixed()} ${deal.base}`);
}

function updateDeal(deal: Deal, changes: Partial<DealSettings>, note: string | undefined, context: StepContext, out: StepOutput): void {
  const touches = (fields: Array<keyof DealSettings>) => fields.some((field) => changes[field] !== undefined);
  deal.settings = { ...deal.settings, ...changes };
  if (note !== undefined) deal.note = note;
  out.dealLog(deal, 'Deal settings updated');
  if (deal.status !== 'bought' && deal.status !== 'ttp_activated') return;
  if (touches(TAKE_PROFIT_FIELDS) && !closing(deal)) {
    deal.tpSteps = idleTakeProfitSteps(deal.settings);
    deal.status = 'bought';
    deal.trailingMax = null;
    replaceTakeProfit(deal, context, out);
  }
  if (touches(SAFETY_FIELDS)) {
    trimSafetyOrders(deal, out);
    refillSafetyOrders(deal, context, out);
  }
}
