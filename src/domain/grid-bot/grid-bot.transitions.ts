/**
 * The one table of what a grid bot accepts in each status. Fills and order closes are accepted
 * whenever the bot may still have orders out, so a late fill is always accounted for; a stopping
 * bot also takes the timer that ends its stop loss's wait. Anything else not listed is refused
 * with a TransitionError.
 */
import { TransitionError } from '../automation.ts';
import type { GridBotStatus } from './grid-bot-state.ts';

export type GridBotInputType =
  | 'start'
  | 'enable'
  | 'disable'
  | 'edit'
  | 'note'
  | 'delete'
  | 'tick'
  | 'fill'
  | 'order_closed'
  | 'timer';

export const GRID_BOT_TRANSITIONS: Readonly<Record<GridBotStatus, ReadonlySet<GridBotInputType>>> = {
  new: new Set(['start', 'edit', 'note', 'delete']),
  balancing: new Set(['disable', 'edit', 'note', 'delete', 'tick', 'fill', 'order_closed']),
  running: new Set(['disable', 'edit', 'note', 'delete', 'tick', 'fill', 'order_closed']),
  stopping: new Set(['disable', 'note', 'delete', 'tick', 'fill', 'order_closed', 'timer']),
  disabled: new Set(['enable', 'edit', 'note', 'delete', 'tick', 'fill', 'order_closed']),
  deleted: new Set(['fill', 'order_closed']),
};

export function isAllowed(status: GridBotStatus, input: GridBotInputType): boolean {
  return GRID_BOT_TRANSITIONS[status].has(input);
}

export function assertAllowed(status: GridBotStatus, input: GridBotInputType): void {
  if (!isAllowed(status, input)) throw new TransitionError(status, input);
}
