/**
 * Delivers the outbox: turns due rows into deliveries to the user's targets, sends them (targets in
 * parallel, each target's in order), retries failures with growing pauses, and after the last
 * attempt marks the delivery failed and the target failing. Writes each user's daily summary
 * after midnight UTC. It runs beside the engine on timers of its own and never holds it up.
 *
 * Delivery is at least once: a notification is marked delivered after the target accepted it, so a
 * crash in between sends it again. Webhook receivers can drop repeats by X-Tradeloop-Delivery.
 */
import type { SecretBox } from '../auth/secret-box.ts';
import type { DueDelivery, NotificationStore } from './notification-store.ts';
import { send, type SenderOptions } from './senders.ts';

export const DEFAULT_RETRY_DELAYS_MS = [10_000, 30_000, 120_000, 600_000, 1_800_000];
const DUE_BATCH = 100;
/** Longer than a pass takes to send one target's deliveries (each gives up after 10 s). */
const CLAIM_MS = 15_000;

export interface WorkerLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface WorkerOptions extends SenderOptions {
  retryDelaysMs: readonly number[];
  pollMs: number;
  /** No other process delivers from this store (the embedded one): a claim left at start is a crash's. */
  exclusive: boolean;
  logger: WorkerLogger;
}

export class NotificationWorker {
  private timer: NodeJS.Timeout | undefined;
  private pass: Promise<void> | undefined;
  private summarized: string | undefined;
  private claimsToRelease = false;

  constructor(
    private readonly store: NotificationStore,
    private readonly secrets: SecretBox,
    private readonly options: WorkerOptions,
  ) {}

  start(): void {
    this.claimsToRelease = this.options.exclusive;
    this.timer = setInterval(() => void this.runPass(), this.options.pollMs);
    this.timer.unref();
    void this.runPass();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.pass;
  }

  /** One pass; a pass already under way is awaited instead of started twice. */
  runPass(): Promise<void> {
    this.pass ??= this.work()
      .catch((error: unknown) => this.options.logger.error({ err: error }, 'notification pass failed'))
      .finally(() => (this.pass = undefined));
    return this.pass;
  }

  private async work(): Promise<void> {
    const now = this.options.now();
    if (this.claimsToRelease) {
      await this.store.releaseClaims(now);
      this.claimsToRelease = false;
    }
    await this.summarize(now);
    await this.store.fanOut(now);
    const due = await this.store.due(now, DUE_BATCH, new Date(now.getTime() + CLAIM_MS));
    const byTarget = new Map<number, DueDelivery[]>();
    for (const delivery of due) {
      let list = byTarget.get(delivery.target.id);
      if (!list) byTarget.set(delivery.target.id, (list = []));
      list.push(delivery);
    }
    await Promise.all([...byTarget.values()].map((list) => this.deliverInOrder(list)));
  }

  private async deliverInOrder(deliveries: DueDelivery[]): Promise<void> {
    for (const delivery of deliveries) {
      const { target, notification } = delivery;
      const result = await send(target, this.secrets.open(target.secretSealed), notification, this.options);
      const at = this.options.now();
      if (result.ok) {
        await this.store.delivered(delivery, at);
        continue;
      }
      const delay = this.options.retryDelaysMs[delivery.attempts];
      const retryAt = delay === undefined ? null : new Date(at.getTime() + delay);
      await this.store.attemptFailed(delivery, result.error ?? 'failed', retryAt, at);
      this.options.logger.warn(
        { targetId: target.id, notificationId: notification.id, attempt: delivery.attempts + 1, error: result.error, retrying: retryAt !== null },
        'notification not delivered',
      );
      // A target that just failed is not tried again in this pass.
      return;
    }
  }

  /** Yesterday's summary (UTC), written once a day; the outbox's key keeps it to one per user. */
  private async summarize(now: Date): Promise<void> {
    const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const yesterday = new Date(today.getTime() - 86_400_000);
    const day = yesterday.toISOString().slice(0, 10);
    if (this.summarized === day) return;
    await this.store.writeDailySummaries(day, yesterday, today);
    this.summarized = day;
  }
}
