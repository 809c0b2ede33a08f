/**
 * The bot state machine's one table. A bot is enabled or disabled; either way its running deals
 * go on and can be acted on. A disabled bot starts a deal only when asked to enable itself for it
 * (start_new_deal with only_for_enabled=false).
 */
import { TransitionError } from '../automation.ts';

export type BotStatus = 'enabled' | 'disabled';

export const BOT_INPUTS = [
  'tick',
  'fill',
  'order_closed',
  'timer',
  'enable',
  'disable',
  'update',
  'start_deal',
  'start_deal_and_enable',
  'set_blacklist',
  'panic_sell_all',
  'cancel_all',
  'deal',
] as const;
export type BotInput = (typeof BOT_INPUTS)[number];

const ALWAYS: BotInput[] = ['tick', 'fill', 'order_closed', 'timer', 'enable', 'disable', 'update', 'set_blacklist', 'panic_sell_all', 'cancel_all', 'deal'];

export const BOT_TRANSITIONS: Readonly<Record<BotStatus, readonly BotInput[]>> = {
  enabled: [...ALWAYS, 'start_deal', 'start_deal_and_enable'],
  disabled: [...ALWAYS, 'start_deal_and_enable'],
};

export function assertBotAllows(status: BotStatus, input: BotInput): void {
  if (!BOT_TRANSITIONS[status].includes(input)) throw new TransitionError(status, input);
}
