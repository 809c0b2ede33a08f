/**
 * The engine's store port in memory, for backtests: nothing outlives the process. It behaves as
 * the SQL store does (the shared contract test runs against both): states (snapshots and the
 * changes logged after them) go through JSON, the journal upserts by id keeping a row's fixed
 * fields, removing an automation drops its history. A kind's records go to a sink given by
 * constructor instead of an SQL record writer.
 */
import type { EngineOrder, StoredEvent } from '../../engine/automation-kind.ts';
import type {
  AutomationFilter,
  EngineBatch,
  EngineStore,
  KindRecords,
  NewAutomation,
  StoredAutomation,
} from '../../engine/engine-store.ts';
import { applyLog, changesText, type PackedChanges } from '../../engine/state-changes.ts';
import type { Sql } from '../database.ts';

/** Keeps one kind's records of a batch (grid profits, deal snapshots). */
export type RecordSink = (batch: KindRecords) => void;

interface Row extends Omit<StoredAutomation, 'state'> {
  /** JSON text, or the engine's encoder of a state it no longer changes (made when read). */
  state: string | (() => unknown);
  /** The changes stored after the snapshot, in order, as JSON text. */
  changes: string[];
}

const LIVE_STATUSES: ReadonlySet<EngineOrder['status']> = new Set(['pending', 'open']);

export class MemoryEngineStore implements EngineStore {
  readonly inProcess = true;
  private readonly automations = new Map<number, Row>();
  private readonly eventLog = new Map<number, StoredEvent[]>();
  private readonly journal = new Map<number, EngineOrder>();
  private lastAutomationId = 0;
  private lastId = 0;

  constructor(private readonly sinks: Readonly<Record<string, RecordSink>> = {}) {}

  registerRecordWriter(kind: string): void {
    throw new Error(`The memory store keeps ${kind} records through a record sink, not an SQL record writer`);
  }

  async insert(automation: NewAutomation): Promise<StoredAutomation> {
    const row: Row = {
      id: ++this.lastAutomationId,
      kind: automation.kind,
      userId: automation.userId,
      accountId: automation.accountId,
      running: automation.running,
      state: JSON.stringify(automation.state),
      changes: [],
      createdAt: automation.at,
      updatedAt: automation.at,
    };
    this.automations.set(row.id, row);
    return toStored(row);
  }

  async save(batch: EngineBatch): Promise<void> {
    // A position is written in the SQL store's transaction, for engines sharing a database.
    if (batch.position) throw new Error('The in-memory engine store takes no position writes');
    for (const { kind } of batch.records) {
      if (!this.sinks[kind]) throw new Error(`No record sink for ${kind}`);
    }
    for (const change of batch.automations) {
      const row = this.automations.get(change.id);
      if (!row) continue;
      row.running = change.running;
      if (change.changes !== undefined) row.changes.push(changesText(change.changes));
      else {
        row.state = change.encode ?? JSON.stringify(change.state);
        row.changes = [];
      }
      row.updatedAt = change.updatedAt;
    }
    for (const order of batch.orders) {
      if (!this.automations.has(order.automationId)) throw new Error(`No automation ${order.automationId} for order ${order.id}`);
      const known = this.journal.get(order.id);
      if (known) updateChangeable(known, order);
      else this.journal.set(order.id, { ...order });
    }
    for (const event of batch.events) {
      let log = this.eventLog.get(event.automationId);
      if (!log) this.eventLog.set(event.automationId, (log = []));
      log.push({ message: flat(event.message), createdAt: event.at });
    }
    for (const { kind, automationId, records } of batch.records) this.sinks[kind]!([{ automationId, records }]);
    for (const write of batch.companion ?? []) await write(NO_SQL);
  }

  async loadRunning(accountIds?: readonly number[]): Promise<{ automations: StoredAutomation[]; liveOrders: EngineOrder[] }> {
    const running = [...this.automations.values()].filter((row) => row.running && (accountIds === undefined || accountIds.includes(row.accountId)));
    const runningIds = new Set(running.map((row) => row.id));
    const liveOrders = [...this.journal.values()]
      .filter((order) => LIVE_STATUSES.has(order.status) && runningIds.has(order.automationId))
      .sort((a, b) => a.id - b.id);
    return { automations: running.map(toStored), liveOrders: liveOrders.map((order) => ({ ...order })) };
  }

  async get(kind: string, id: number): Promise<StoredAutomation | undefined> {
    const row = this.automations.get(id);
    return row?.kind === kind ? toStored(row) : undefined;
  }

  async list(kind: string, filter: AutomationFilter): Promise<StoredAutomation[]> {
    return [...this.automations.values()]
      .filter(
        (row) =>
          row.kind === kind &&
          (filter.userId === undefined || row.userId === filter.userId) &&
          (filter.accountId === undefined || row.accountId === filter.accountId),
      )
      .map(toStored);
  }

  async remove(id: number): Promise<void> {
    this.automations.delete(id);
    this.eventLog.delete(id);
    for (const order of this.journal.values()) if (order.automationId === id) this.journal.delete(order.id);
  }

  async orders(automationId: number): Promise<EngineOrder[]> {
    return [...this.journal.values()]
      .filter((order) => order.automationId === automationId)
      .sort((a, b) => a.id - b.id)
      .map((order) => ({ ...order }));
  }

  async events(automationId: number, page: { limit: number; offset: number }): Promise<StoredEvent[]> {
    return (this.eventLog.get(automationId) ?? []).slice(page.offset, page.offset + page.limit).map((event) => ({ ...event }));
  }

  async reserveIds(count: number): Promise<number[]> {
    return Array.from({ length: count }, () => ++this.lastId);
  }
}

/** A companion's write here goes to the memory paper store, which runs no SQL. */
const NO_SQL: Sql = {
  query: () => Promise.reject(new Error('The in-memory engine store runs no SQL')),
  write: () => Promise.reject(new Error('The in-memory engine store runs no SQL')),
};

/** The journal columns an upsert may change; the rest stay as first written. Rows kept here are never handed out, only copies. */
function updateChangeable(row: EngineOrder, order: EngineOrder): void {
  row.filled = order.filled;
  row.filledTotal = order.filledTotal;
  row.fee = order.fee;
  row.status = order.status;
  row.cancelRequested = order.cancelRequested;
  row.exchangeOrderId = order.exchangeOrderId ?? null;
  row.feeCurrency = order.feeCurrency ?? null;
  row.filledAt = order.filledAt ?? null;
  row.updatedAt = order.updatedAt;
}

function toStored({ changes, ...row }: Row): StoredAutomation {
  const snapshot = typeof row.state === 'string' ? JSON.parse(row.state) : row.state();
  return { ...row, state: applyLog(snapshot, null, changes.map((text) => JSON.parse(text) as PackedChanges)) };
}

/**
 * A message as one piece of text. Messages are built by concatenation, which V8 keeps as a tree
 * of the parts (several hundred bytes for a line of the grid's log); a log kept in memory for a
 * whole backtest keeps the text instead, a third of that.
 */
function flat(message: string): string {
  return message.length < 13 ? message : (' ' + message).slice(1);
}
