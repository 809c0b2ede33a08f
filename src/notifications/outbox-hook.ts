/**
 * The notifications' part of the engine's batch transaction: record writers that run beside the
 * DCA and grid kinds' own (and alone for SmartTrades and the engine's quarantines) and add what
 * the batch has to tell people to the outbox. While no user
 * has an enabled target they return at once, so the engine pays nothing for notifications nobody
 * gets.
 */
import type { KindRecords, QuarantineRecord, RecordWriter } from '../engine/engine-store.ts';
import type { Sql } from '../store/database.ts';
import { dcaNotices, gridCycles, type Notice, smartTradeNotices } from './batch-notices.ts';
import type { BotDisabledPayload } from './notification-events.ts';
import type { NotificationStore } from './notification-store.ts';

/** Grid cycles are sent once their minute is over, plus this much for batches still being stored. */
const MINUTE_GRACE_MS = 5_000;

export const gridDeliverAfter = (minute: Date) => new Date(minute.getTime() + 60_000 + MINUTE_GRACE_MS);

export class OutboxHook {
  private enabled = false;

  constructor(private readonly store: NotificationStore) {}

  /** Re-reads whether any target is enabled (at start, after target changes, on every worker pass). */
  async refresh(): Promise<void> {
    this.enabled = await this.store.anyEnabled();
  }

  dcaWriter(): RecordWriter {
    return async (sql, batch) => {
      if (this.enabled) await this.store.writeNotices(sql, dcaNotices(batch));
    };
  }

  smartTradeWriter(): RecordWriter {
    return async (sql, batch) => {
      if (this.enabled) await this.store.writeAutomationNotices(sql, smartTradeNotices(batch));
    };
  }

  gridWriter(): RecordWriter {
    return async (sql, batch) => {
      if (this.enabled) await this.store.writeGridCycles(sql, gridCycles(batch), gridDeliverAfter);
    };
  }

  /** The engine's quarantine records: tells the owner, in the transaction that stores the stop. */
  quarantineWriter(): RecordWriter {
    return async (sql, batch) => {
      if (!this.enabled) return;
      const notices: Notice[] = [];
      for (const { automationId, records } of batch) {
        for (const { kind, userId, reason, at } of records as QuarantineRecord[]) {
          const payload: BotDisabledPayload = { bot_id: automationId, kind, reason };
          notices.push({ userId, event: 'bot_disabled', dedupeKey: `bot_disabled:${automationId}:${at.getTime()}`, payload: { ...payload }, at });
        }
      }
      await this.store.writeNotices(sql, notices);
    };
  }
}

/** One kind's record writer followed by another, in the same transaction. */
export function bothWriters(first: RecordWriter, second: RecordWriter): RecordWriter {
  return async (sql: Sql, batch: KindRecords) => {
    await first(sql, batch);
    await second(sql, batch);
  };
}
