/**
 * What one step of a DCA bot produces: commands, log lines and records. A deal's log lines go to
 * the bot's log, led by `dealLinePrefix`: the deal's own log (its bot_events) is read from there.
 * Every deal the step changed is written as a snapshot record once, at the end of the step.
 * Milestones (a deal opened, a safety order filled, a deal closed) are records of their own, so
 * readers (notifications) need not parse log text.
 */
import type { Command, LogEvent, PlaceOrder } from '../automation.ts';
import { copyDeal, type Deal } from './deal.ts';

export interface DealRecord {
  type: 'deal';
  deal: Deal;
  botName: string;
  accountId: number;
  userId: number;
}

export type DealMilestone = 'opened' | 'safety_order_filled' | 'closed';

export interface DealMilestoneRecord {
  type: 'deal_milestone';
  dealId: number;
  milestone: DealMilestone;
  /** The deal's safety orders filled so far, this one included (planned ones, not manual). */
  safetyOrders: number;
  /** The deal's status once the milestone was reached (how it closed, for `closed`). */
  status: Deal['status'];
  at: number;
}

export type DcaRecord = DealRecord | DealMilestoneRecord;

/** What leads a deal's lines in its bot's log; the stores read the deal's own log by it. */
export const dealLinePrefix = (pair: string, dealId: number): string => `${pair} deal #${dealId}: `;

export class StepOutput {
  readonly commands: Command[] = [];
  readonly events: LogEvent[] = [];
  readonly records: DcaRecord[] = [];
  private readonly touched = new Map<number, Deal>();

  constructor(readonly now: Date) {}

  get nowMs(): number {
    return this.now.getTime();
  }

  place(command: Omit<PlaceOrder, 'type'>): void {
    this.commands.push({ type: 'place_order', ...command });
  }

  cancel(key: string): void {
    this.commands.push({ type: 'cancel_order', key });
  }

  schedule(key: string, atMs: number): void {
    this.commands.push({ type: 'schedule_timer', key, at: new Date(atMs) });
  }

  cancelTimer(key: string): void {
    this.commands.push({ type: 'cancel_timer', key });
  }

  log(message: string): void {
    this.events.push({ message, at: this.now });
  }

  dealLog(deal: Deal, message: string): void {
    this.events.push({ message: `${dealLinePrefix(deal.pair, deal.id)}${message}`, at: this.now });
    this.touch(deal);
  }

  milestone(deal: Deal, milestone: DealMilestone): void {
    this.records.push({ type: 'deal_milestone', dealId: deal.id, milestone, safetyOrders: deal.safetyCompleted, status: deal.status, at: this.nowMs });
    this.touch(deal);
  }

  touch(deal: Deal): void {
    deal.updatedAt = this.nowMs;
    this.touched.set(deal.id, deal);
  }

  /** The deals changed so far in this step. */
  touchedDeals(): number[] {
    return [...this.touched.keys()];
  }

  /** Appends one snapshot per changed deal. */
  flushDeals(owner: { botName: string; accountId: number; userId: number }): void {
    for (const deal of this.touched.values()) this.records.push({ type: 'deal', deal: copyDeal(deal), ...owner });
    this.touched.clear();
  }
}
