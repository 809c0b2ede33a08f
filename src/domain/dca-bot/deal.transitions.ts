/**
 * The deal state machine's one table: which inputs each status accepts. Market events (fills,
 * closed orders, ticks, timers) are accepted by every status a deal can be running in, because
 * they are facts to book; user actions are refused with a TransitionError where they make no
 * sense. Finished deals accept nothing: they have left the bot's state.
 */
import { TransitionError } from '../automation.ts';
import type { DealStatus } from './deal.ts';

export const DEAL_INPUTS = [
  'fill',
  'order_closed',
  'tick',
  'timer',
  'cancel',
  'convert',
  'panic_sell',
  'panic_sell_step',
  'add_funds',
  'update_deal',
  'update_max_safety_orders',
  'cancel_order',
] as const;
export type DealInput = (typeof DEAL_INPUTS)[number];

const EVENTS: DealInput[] = ['fill', 'order_closed', 'tick', 'timer'];
const EDITS: DealInput[] = ['update_deal', 'update_max_safety_orders'];

export const DEAL_TRANSITIONS: Readonly<Record<DealStatus, readonly DealInput[]>> = {
  base_order_placed: [...EVENTS, 'cancel', 'panic_sell', ...EDITS],
  bought: [...EVENTS, 'cancel', 'convert', 'panic_sell', 'panic_sell_step', 'add_funds', ...EDITS, 'cancel_order'],
  ttp_activated: [...EVENTS, 'cancel', 'panic_sell', 'add_funds', ...EDITS, 'cancel_order'],
  ttp_order_placed: EVENTS,
  stop_loss_pending: EVENTS,
  panic_sell_pending: EVENTS,
  completed: [],
  cancelled: [],
  panic_sold: [],
  stop_loss_finished: [],
  failed: [],
};

export function dealAllows(status: DealStatus, input: DealInput): boolean {
  return DEAL_TRANSITIONS[status].includes(input);
}

export function assertDealAllows(status: DealStatus, input: DealInput): void {
  if (!dealAllows(status, input)) throw new TransitionError(status, input);
}
