/**
 * What one step of a DCA bot produces: commands, log lines and records. Deal log lines go to the
 * bot's log and to the deal's own (its bot_events); every deal the step changed is written as a
 * snapshot record once, at the end of the step. Milestones (a deal opened, a safety order filled,
 * a deal closed) are records of their own, so readers (notifications) need not parse log text.
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

export interface DealEventRecord {
  type: 'deal_event';
  dealId: number;
  message: string;
  at: number;
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

export type DcaRecord = DealRecord | DealEventRecord | DealMilestoneRecord;

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
    this.events.push({ message: `${deal.pair} deal #${deal.id}: ${message}`, at: this.now });
    this.records.push({ type: 'deal_event', dealId: deal.id, message, at: this.nowMs });
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
