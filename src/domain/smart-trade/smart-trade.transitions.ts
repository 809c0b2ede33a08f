/**
 * The SmartTrade state machine's one table: which inputs each trade status accepts. Market events
 * (fills, closed orders, ticks, timers) are accepted wherever the trade can still have orders or
 * watches, because they are facts to book. Ended trades accept only a note. Finer guards that
 * depend on more than the status (force_start needs an entry still pending, add_funds refuses
 * trailing) raise the same TransitionError from the step.
 */
import { TransitionError } from '../automation.ts';
import type { TradeStatus } from './smart-trade.types.ts';

export const SMART_TRADE_INPUTS = [
  'start',
  'tick',
  'fill',
  'order_closed',
  'timer',
  'edit',
  'set_note',
  'cancel',
  'close_by_market',
  'add_funds',
  'reduce_funds',
  'force_start',
  'force_process',
  'close_sub_trade',
  'cancel_sub_trade',
] as const;
export type SmartTradeInput = (typeof SMART_TRADE_INPUTS)[number];

const EVENTS: SmartTradeInput[] = ['tick', 'fill', 'order_closed', 'timer'];
const SUB_TRADES: SmartTradeInput[] = ['close_sub_trade', 'cancel_sub_trade'];

export const SMART_TRADE_TRANSITIONS: Readonly<Record<TradeStatus, readonly SmartTradeInput[]>> = {
  created: ['start', 'set_note'],
  waiting_position: [
    ...EVENTS, 'edit', 'set_note', 'cancel', 'close_by_market', 'add_funds', 'force_start', 'force_process', ...SUB_TRADES,
  ],
  waiting_targets: [
    ...EVENTS, 'edit', 'set_note', 'cancel', 'close_by_market', 'add_funds', 'reduce_funds', 'force_process', ...SUB_TRADES,
  ],
  pending_reduce_funds: [...EVENTS, 'set_note', 'cancel', 'close_by_market', 'force_process', ...SUB_TRADES],
  panic_sell_pending: [...EVENTS, 'set_note'],
  cancellation_pending: [...EVENTS, 'set_note'],
  cancelled: ['set_note'],
  finished: ['set_note'],
  stop_loss_finished: ['set_note'],
  panic_sold: ['set_note'],
  failed: ['set_note'],
};

export function smartTradeAllows(status: TradeStatus, input: SmartTradeInput): boolean {
  return SMART_TRADE_TRANSITIONS[status].includes(input);
}

export function assertSmartTradeAllows(status: TradeStatus, input: SmartTradeInput): void {
  if (!smartTradeAllows(status, input)) throw new TransitionError(status, input);
}

/** Statuses after which the trade places nothing and hears nothing more. */
export const ENDED: ReadonlySet<TradeStatus> = new Set(['cancelled', 'finished', 'stop_loss_finished', 'panic_sold', 'failed']);
