/**
 * A deal's reaction to its orders: fills are booked as they come; a completed base order places
 * the take profit and the first safety orders; each safety fill re-places the take profit at the
 * new average and the next safety order; the last take-profit step (or a market close) ends the
 * deal. An order the exchange rejected or cancelled on its own is logged, and ends the deal when
 * the deal cannot go on without it.
 */
import type { FillInput, OrderClosedInput, StepContext } from '../automation.ts';
import { dec } from '../../shared/decimal.ts';
import { averagePrice, bookFill, type Deal, type DealOrder, findOrder } from './deal.ts';
import { FINAL, finishDeal } from './deal-finish.ts';
import { cancelWorking, placeMarketClose, refillSafetyOrders, replaceTakeProfit } from './deal-orders.ts';
import type { StepOutput } from './step-output.ts';
import { idleTakeProfitSteps } from './take-profit.ts';

const ROLE_NAMES: Record<DealOrder['role'], string> = {
  base: 'Base order',
  safety: 'Safety trade',
  manual_safety: 'Manual safety trade',
  take_profit: 'TakeProfit trade',
  take_profit_market: 'TakeProfit step market close',
  close: 'Market close',
};

const executed = (deal: Deal, order: DealOrder) => {
  const filled = dec(order.filled);
  const total = dec(order.filledTotal);
  return `Price: ${total.div(filled).toDecimalPlaces(8).toFixed()} ${deal.quote}. Size: ${total.toFixed()} ${deal.quote} (${filled.toFixed()} ${deal.base})`;
};

export function dealOnFill(deal: Deal, fill: FillInput, context: StepContext, out: StepOutput): void {
  const order = findOrder(deal, fill.key);
  if (!order) return;
  bookFill(deal, order, fill);
  out.touch(deal);
  if (!fill.orderFilled) return;
  deal.orders = deal.orders.filter((o) => o !== order);
  out.dealLog(deal, `${ROLE_NAMES[order.role]} executed. ${executed(deal, order)}`);
  switch (order.role) {
    case 'base':
      return onBaseFilled(deal, order, context, out);
    case 'safety':
    case 'manual_safety':
      return onSafetyFilled(deal, order, context, out);
    case 'take_profit':
    case 'take_profit_market':
      return onStepDone(deal, order, context, out);
    case 'close':
      // Entries that filled while the close was on its way are closed too, before the deal ends.
      if (deal.orders.some((o) => o.role === 'close') || placeMarketClose(deal, context, out, 'More filled while closing')) return;
      return finishDeal(deal, FINAL[deal.closeReason ?? 'panic_sell'], context, out);
  }
}

function onBaseFilled(deal: Deal, order: DealOrder, context: StepContext, out: StepOutput): void {
  if (deal.status !== 'base_order_placed') return;
  deal.status = 'bought';
  deal.baseOrderPrice = dec(order.filledTotal).div(dec(order.filled)).toFixed();
  deal.baseOrderVolume = order.filledTotal;
  deal.tslExtreme = deal.baseOrderPrice;
  deal.tpSteps = idleTakeProfitSteps(deal.settings);
  out.milestone(deal, 'opened');
  replaceTakeProfit(deal, context, out);
  refillSafetyOrders(deal, context, out);
}

function onSafetyFilled(deal: Deal, order: DealOrder, context: StepContext, out: StepOutput): void {
  if (order.role === 'safety') {
    deal.safetyCompleted += 1;
    out.milestone(deal, 'safety_order_filled');
  } else deal.manualCompleted += 1;
  if (deal.status !== 'bought' && deal.status !== 'ttp_activated') return;
  // The average moved: trailing starts over from the new take-profit price.
  deal.status = 'bought';
  deal.trailingMax = null;
  deal.tslExtreme = averagePrice(deal).toFixed();
  if (!deal.tpSteps.some((step) => step.status === 'filled' || step.status === 'closed_at_market')) replaceTakeProfit(deal, context, out);
  refillSafetyOrders(deal, context, out);
}

function onStepDone(deal: Deal, order: DealOrder, context: StepContext, out: StepOutput): void {
  const step = deal.tpSteps[order.index];
  if (!step) return;
  const first = !deal.tpSteps.some((s) => s.status === 'filled' || s.status === 'closed_at_market');
  step.status = order.role === 'take_profit' ? 'filled' : 'closed_at_market';
  step.executedAt = out.nowMs;
  step.orderKey = order.key;
  // A replacement for this step may have gone out while this order was being cancelled.
  for (const other of deal.orders) {
    if (!other.cancelling && other.index === order.index && (other.role === 'take_profit' || other.role === 'take_profit_market')) {
      other.cancelling = true;
      out.cancel(other.key);
    }
  }
  if (first) {
    // Once the position starts closing, it is not averaged down any more.
    cancelWorking(deal, out, ['safety', 'manual_safety']);
    if (deal.settings.slToBreakevenEnabled && deal.tpSteps.length >= 2) {
      deal.breakeven = true;
      out.dealLog(deal, `Stop Loss moved to breakeven at ${averagePrice(deal).toDecimalPlaces(8).toFixed()} ${deal.quote}`);
    }
  }
  if (deal.tpSteps.every((s) => s.status === 'filled' || s.status === 'closed_at_market')) finishDeal(deal, 'completed', context, out);
}

export function dealOnOrderClosed(deal: Deal, input: OrderClosedInput, context: StepContext, out: StepOutput): void {
  const order = findOrder(deal, input.key);
  if (!order) return;
  deal.orders = deal.orders.filter((o) => o !== order);
  out.touch(deal);
  if (input.status === 'cancelled' && order.cancelling) return;
  const reason = input.message ?? input.reason ?? input.status;
  out.dealLog(deal, `${ROLE_NAMES[order.role]} ${input.status}: ${reason}`);
  const step = deal.tpSteps[order.index];
  switch (order.role) {
    case 'base':
      if (dec(deal.entryAmount).isZero()) return finishDeal(deal, 'failed', context, out, `Base order ${input.status}: ${reason}`);
      // What the base order did fill is the position the deal goes on with.
      return onBaseFilled(deal, order, context, out);
    case 'close':
      return finishDeal(deal, 'failed', context, out, `Market close ${input.status}: ${reason}`);
    case 'take_profit':
    case 'take_profit_market':
      if (step && step.status === 'placed') step.status = 'idle';
      return;
    default:
      return;
  }
}
