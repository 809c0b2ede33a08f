/**
 * The ver1 trade's one table: which inputs each status accepts. A trade can be cancelled while it
 * waits for its condition, trails, or has its order on the exchange; ended trades accept nothing.
 */
import { TransitionError } from '../automation.ts';
import type { TradeStatus } from './trade.types.ts';

export const TRADE_INPUTS = ['start', 'tick', 'fill', 'order_closed', 'timer', 'cancel'] as const;
export type TradeInput = (typeof TRADE_INPUTS)[number];

export const TRADE_TRANSITIONS: Readonly<Record<TradeStatus, readonly TradeInput[]>> = {
  to_process: ['start', 'tick', 'timer', 'fill', 'order_closed', 'cancel'],
  trailing_activated: ['tick', 'fill', 'order_closed', 'cancel'],
  order_placed: ['tick', 'fill', 'order_closed', 'cancel'],
  pending_cancellation: ['tick', 'fill', 'order_closed'],
  cancelled: [],
  finished: [],
  failed: [],
};

export const TRADE_ENDED: ReadonlySet<TradeStatus> = new Set(['cancelled', 'finished', 'failed']);

export function tradeAllows(status: TradeStatus, input: TradeInput): boolean {
  return TRADE_TRANSITIONS[status].includes(input);
}

export function assertTradeAllows(status: TradeStatus, input: TradeInput): void {
  if (!tradeAllows(status, input)) throw new TransitionError(status, input);
}
