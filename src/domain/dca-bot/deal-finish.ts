/**
 * How a deal ends: at market (stop loss, trailing take profit, panic sell, timeout) through a
 * close order, or at once (its last take profit filled, cancelled, failed). A finished deal's
 * profit is what its balance changes add up to in the profit currency (a cancelled deal's kept
 * position valued at the cancel's price), valued in USD and BTC at the rates known at close.
 */
import type { FillInput, OrderClosedInput, StepContext } from '../automation.ts';
import { dec } from '../../shared/decimal.ts';
import { bookFill, type CloseReason, type Deal, type DealStatus, findOrder, handOverLeftover, PROFIT_STATUSES } from './deal.ts';
import { cancelWorking, placeMarketClose } from './deal-orders.ts';
import { profitCurrency, profitPercentage, realisedProfit, unrealisedProfit, usdRate } from './deal-profit.ts';
import type { StepOutput } from './step-output.ts';

export const stopLossTimer = (deal: Deal) => `d${deal.no}sl`;
export const closeTimeoutTimer = (deal: Deal) => `d${deal.no}to`;

const PENDING: Record<CloseReason, DealStatus> = {
  stop_loss: 'stop_loss_pending',
  panic_sell: 'panic_sell_pending',
  timeout: 'panic_sell_pending',
  trailing: 'ttp_order_placed',
  close_strategy: 'panic_sell_pending',
};

export const FINAL: Record<CloseReason, DealStatus> = {
  stop_loss: 'stop_loss_finished',
  panic_sell: 'panic_sold',
  timeout: 'panic_sold',
  trailing: 'completed',
  close_strategy: 'completed',
};

const WHY: Record<CloseReason, string> = {
  stop_loss: 'Stop Loss reached',
  panic_sell: 'Close at market requested',
  timeout: 'Deal timeout reached',
  trailing: 'Trailing Take Profit triggered',
  close_strategy: 'Close strategy conditions met',
};

const ENDINGS: Partial<Record<DealStatus, string>> = {
  completed: 'Deal completed',
  panic_sold: 'Deal closed at market price',
  stop_loss_finished: 'Deal closed by Stop Loss',
  cancelled: 'Deal cancelled',
  failed: 'Deal failed',
};

export function closeAtMarket(deal: Deal, reason: CloseReason, context: StepContext, out: StepOutput): void {
  deal.closeReason = reason;
  deal.slTriggeredAt = null;
  out.cancelTimer(stopLossTimer(deal));
  out.cancelTimer(closeTimeoutTimer(deal));
  if (placeMarketClose(deal, context, out, WHY[reason])) {
    deal.status = PENDING[reason];
    out.touch(deal);
  } else {
    out.dealLog(deal, `${WHY[reason]}; nothing left to close`);
    finishDeal(deal, FINAL[reason], context, out);
  }
}

/** Books a fill or an end that reached a deal after it finished, and its changed profit. */
export function settleLateInput(deal: Deal, input: FillInput | OrderClosedInput, context: StepContext, out: StepOutput): void {
  const order = findOrder(deal, input.key);
  if (!order) return;
  if (input.type === 'order_closed' || input.orderFilled) deal.orders = deal.orders.filter((o) => o !== order);
  if (input.type === 'order_closed') return out.touch(deal);
  bookFill(deal, order, input);
  bookProfit(deal, context);
  out.dealLog(deal, `Late fill of an order being cancelled: ${input.side} ${input.amount.toFixed()} ${deal.base} at ${input.price.toFixed()} ${deal.quote}. Profit now ${deal.finalProfit} ${profitCurrency(deal)}`);
}

/**
 * A cancelled deal leaves its position on the account, so its profit values that position at the
 * price of the cancel rather than counting the coins it bought as lost.
 */
function bookProfit(deal: Deal, context: StepContext): void {
  const price = context.price(deal.pair);
  const profit = deal.status === 'cancelled' && price ? unrealisedProfit(deal, price.bid, price.ask) : realisedProfit(deal);
  const currency = profitCurrency(deal);
  const prices = (pair: string) => context.price(pair);
  const usd = usdRate(currency, prices);
  const btcUsd = usdRate('BTC', prices);
  deal.finalProfit = profit.toFixed();
  deal.usdProfit = usd ? profit.times(usd).toDecimalPlaces(8).toFixed() : null;
  deal.btcProfit =
    currency === 'BTC' ? profit.toFixed() : usd && btcUsd ? profit.times(usd).div(btcUsd).toDecimalPlaces(18).toFixed() : null;
}

export function finishDeal(deal: Deal, status: DealStatus, context: StepContext, out: StepOutput, error?: string): void {
  cancelWorking(deal, out);
  out.cancelTimer(stopLossTimer(deal));
  out.cancelTimer(closeTimeoutTimer(deal));
  deal.status = status;
  deal.closedAt = out.nowMs;
  if (error !== undefined) deal.errorMessage = error;
  if (PROFIT_STATUSES.includes(status)) handOverLeftover(deal, context.rules(deal.pair).lotStep);
  bookProfit(deal, context);
  const profit = dec(deal.finalProfit!);
  const currency = profitCurrency(deal);
  const percent = profitPercentage(deal, profit).toDecimalPlaces(2);
  const detail = error === undefined ? '' : `: ${error}`;
  out.dealLog(deal, `${ENDINGS[status] ?? status}${detail}. Profit: ${profit.toDecimalPlaces(8).toFixed()} ${currency} (${percent.toFixed()}%)`);
  out.milestone(deal, 'closed');
}
