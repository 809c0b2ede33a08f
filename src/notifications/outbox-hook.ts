/**
 * The notifications' part of the engine's batch transaction: record writers that run beside the
 * DCA and grid kinds' own (and alone for SmartTrades and the engine's quarantines) and add what
 * the batch has to tell people to the outbox. While no user has an enabled target they return at
 * once, so the engine pays nothing for notifications nobody gets.
 */
import type { KindRecords, QuarantineRecord, RecordWriter } from '../engine/engine-store.ts';
import type { Sql } from '../store/database.ts';
import { dcaNotices, gridCycles, type Notice, smartTradeNotices } from './batch-notices.ts';
import type { ConnectionChange } from '../exchanges/exchange.ts';
import type { BotDisabledPayload, ConnectionPayload } from './notification-events.ts';
import type { NotificationStore } from './notification-store.ts';

/** Grid cycles are sent once their minute is over, plus this much for batches still being stored. */
const MINUTE_GRACE_MS = 5_000;

export const gridDeliverAfter = (minute: Date) => new Date(minute.getTime() + 60_000 + MINUTE_GRACE_MS);

/** An account as its owner knows it, for connection notices. */
export interface AccountLabel {
  userId: number;
  name: string;
  exchange: string;
  marketCode: string;
}

export type AccountLabels = (accountId: number) => Promise<AccountLabel | undefined>;

/** Where other processes can change targets, read again this often in case a change was not heard. */
const FALLBACK_REFRESH_MS = 10_000;

export class OutboxHook {
  private enabled = false;
  private refreshes = 0;
  private unwatch: (() => Promise<void>) | undefined;
  private fallback: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: NotificationStore,
    private readonly accounts: AccountLabels = async () => undefined,
    private readonly fallbackRefreshMs = FALLBACK_REFRESH_MS,
  ) {}

  /** Whether notices are being written: some user has an enabled target, as far as this process knows. */
  get active(): boolean {
    return this.enabled;
  }

  /**
   * Reads whether any target is enabled, and keeps it so: target changes made through this
   * process refresh it at once; where other processes share the store, their changes are heard
   * (LISTEN) and it is read again every 10 s besides. Nothing is read per engine batch.
   */
  async start(): Promise<void> {
    await this.refresh();
    this.unwatch = await this.store.watchTargets(() => this.targetsChanged());
    if (!this.unwatch) return;
    this.fallback = setInterval(() => void this.refresh().catch(() => undefined), this.fallbackRefreshMs);
    this.fallback.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.fallback);
    await this.unwatch?.();
    this.unwatch = undefined;
  }

  /** Re-reads whether any target is enabled; of reads that overlap, the last started decides. */
  async refresh(): Promise<void> {
    const refresh = ++this.refreshes;
    const enabled = await this.store.anyEnabled();
    if (refresh === this.refreshes) this.enabled = enabled;
  }

  /**
   * Writing at once, before the read answers, costs at most a statement that stores nothing (the
   * writes keep only notices of users with a target) and closes the gap to the read's answer.
   */
  private targetsChanged(): void {
    this.enabled = true;
    void this.refresh().catch(() => undefined);
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

  /**
   * An engine connection listener's work: tells an account's owner that its exchange became
   * unreachable, or reachable again. Written on its own, as it changes no stored state; the key
   * names each outage, so each is told once.
   */
  async noteConnection(accountId: number, change: ConnectionChange): Promise<void> {
    if (!this.enabled) return;
    const account = await this.accounts(accountId);
    if (!account) return;
    const payload: ConnectionPayload = {
      account_id: accountId,
      account_name: account.name,
      exchange: account.exchange,
      market_code: account.marketCode,
      since: change.since.toISOString(),
      at: change.at.toISOString(),
      error: change.error,
      failed_requests: change.failures,
    };
    const event = change.state === 'lost' ? 'exchange_connection_lost' : 'exchange_connection_recovered';
    await this.store.insertNotices([
      { userId: account.userId, event, dedupeKey: `${event}:${accountId}:${change.since.getTime()}`, payload: { ...payload }, at: change.at },
    ]);
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
