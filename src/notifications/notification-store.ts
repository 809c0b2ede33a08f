/** The port through which notifications keep their targets, outbox and deliveries (migration 0031). */
import type { Sql } from '../store/database.ts';
import type { AutomationNotice, GridCycles, Notice } from './batch-notices.ts';
import type { NotificationEvent, OutboxNotification } from './notification-events.ts';

export type TargetKind = 'webhook' | 'telegram';
export type TargetStatus = 'active' | 'failing';

export interface NotificationTarget {
  id: number;
  userId: number;
  kind: TargetKind;
  name: string;
  url: string | null;
  chatId: string | null;
  /** The sealed webhook signing secret or Telegram bot token; opened only to send. */
  secretSealed: string;
  events: NotificationEvent[];
  enabled: boolean;
  status: TargetStatus;
  consecutiveFailures: number;
  lastError: string | null;
  lastDeliveredAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewTarget = Omit<NotificationTarget, 'id' | 'status' | 'consecutiveFailures' | 'lastError' | 'lastDeliveredAt' | 'updatedAt'>;
export type TargetChanges = Partial<Pick<NotificationTarget, 'name' | 'url' | 'chatId' | 'secretSealed' | 'events' | 'enabled'>>;

export interface DueDelivery {
  notification: OutboxNotification;
  target: NotificationTarget;
  attempts: number;
}

export interface NotificationStore {
  list(userId: number): Promise<NotificationTarget[]>;
  get(userId: number, id: number): Promise<NotificationTarget | undefined>;
  insert(target: NewTarget): Promise<NotificationTarget>;
  /** A change resets the target to active: its owner has just looked at it. */
  update(userId: number, id: number, changes: TargetChanges, at: Date): Promise<NotificationTarget | undefined>;
  remove(userId: number, id: number): Promise<boolean>;
  /** Whether any user has an enabled target; the engine's hook writes nothing while none does. */
  anyEnabled(): Promise<boolean>;
  /**
   * Calls `onChange` when targets may have changed in any process sharing the store (and when
   * changes may have been missed). Undefined when no other process can change them (the
   * embedded store); otherwise call the answer to stop.
   */
  watchTargets(onChange: () => void): Promise<(() => Promise<void>) | undefined>;
  /** Inside the engine's batch transaction; a notice already stored (same key) is not stored again. */
  writeNotices(sql: Sql, notices: readonly Notice[]): Promise<void>;
  /** writeNotices for notices that name their automation instead of its owner. */
  writeAutomationNotices(sql: Sql, notices: readonly AutomationNotice[]): Promise<void>;
  /** writeNotices outside any transaction. */
  insertNotices(notices: readonly Notice[]): Promise<void>;
  /** Inside the engine's batch transaction; adds to the bot's row of that minute. */
  writeGridCycles(sql: Sql, cycles: readonly GridCycles[], deliverAfter: (minute: Date) => Date): Promise<void>;
  /** Turns outbox rows due by `now` into one pending delivery per matching target. */
  fanOut(now: Date): Promise<void>;
  /** Claims up to `limit` deliveries due by `now` until `claimUntil` and answers them, oldest first. */
  due(now: Date, limit: number, claimUntil: Date): Promise<DueDelivery[]>;
  /** Makes the deliveries a crash left claimed due at `now`; only for a store no other process uses. */
  releaseClaims(now: Date): Promise<void>;
  delivered(delivery: DueDelivery, at: Date): Promise<void>;
  /** A failed attempt: `retryAt` null ends the delivery, and the target is marked failing. */
  attemptFailed(delivery: DueDelivery, error: string, retryAt: Date | null, at: Date): Promise<void>;
  /** Writes the summary of [from, to) for every user with a target that existed before `to`. */
  writeDailySummaries(day: string, from: Date, to: Date): Promise<void>;
}
