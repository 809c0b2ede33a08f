/**
 * The port through which the engine keeps automations, their event logs and its order journal.
 * A batch is written atomically: if the process dies, either all of a batch is stored or none.
 */
import type { ExchangeOrder, OrderRequest, OrderUpdate } from '../exchanges/exchange.ts';
import type { Sql } from '../store/database.ts';
import type { EngineOrder, StoredEvent } from './automation-kind.ts';
import type { PackedChanges } from './state-changes.ts';
import type { Decimal } from '../shared/decimal.ts';

/** What automations of one kind recorded in a batch. */
export type KindRecords = Array<{ automationId: number; records: unknown[] }>;

/** Writes one kind's records of a batch (profit rows, deal snapshots) inside the batch's transaction. */
export type RecordWriter = (sql: Sql, batch: KindRecords) => Promise<void>;

/**
 * Records read only through their automation (a grid's profits), kept in the row that logs the
 * automation's events and changes of that batch, as a JSON array, instead of rows of their own.
 */
export interface LoggedRecords {
  /** A record as JSON. */
  log(record: unknown): unknown;
  /** A record's time: the time of its row when its automation's state did not change with it. */
  at(record: unknown): Date;
  /** Writes anything else the records cause (notices), in the batch's transaction. */
  write?: RecordWriter;
}

/**
 * The record kind of the engine's own quarantines: when a writer is registered for it, the stop
 * of an automation whose changes storage refused is recorded in the transaction that stores it.
 */
export const QUARANTINED = 'quarantined';

export interface QuarantineRecord {
  /** The automation's kind. */
  kind: string;
  userId: number;
  reason: string;
  at: Date;
}

export interface StoredAutomation {
  id: number;
  kind: string;
  userId: number;
  accountId: number;
  running: boolean;
  state: unknown;
  createdAt: Date;
  updatedAt: Date;
  /** The last logged tick batch its stored state has seen (0: none); see `LoggedTickBatch`. */
  tickSeq?: number;
  /** The length of its snapshot's text and of the changes logged after it, for a store that logs them. */
  storedSize?: { snapshot: number; logged: number };
}

/**
 * A batch's ticks, logged because steps on them changed automations whose changes the engine
 * stores later (`AutomationKind.replaysTicks`): after a restart those automations are stepped on
 * them again, from the state they had stored. `ids`: the automations it left with unstored changes.
 */
export interface LoggedTickBatch {
  seq: number;
  at: Date;
  ticks: LoggedTick[];
  ids: number[];
}

/** A tick as the engine handled it: its price source, pair, last, bid and ask (text) and time. */
export type LoggedTick = [source: string, pair: string, last: string, bid: string, ask: string, at: string];

export interface NewAutomation {
  kind: string;
  userId: number;
  accountId: number;
  running: boolean;
  state: unknown;
  at: Date;
}

/**
 * An automation's new state: whole (stored as its new snapshot), or only what changed since the
 * state last stored (state-changes.ts), logged after the snapshot. The store reads back the
 * snapshot with every change logged after it applied in order. The store keeps `running` with the
 * snapshot, where running automations are looked up: changes that stop (or restart) an
 * automation say so (`setsRunning`), and the store sets the flag there.
 */
export type AutomationChange = {
  id: number;
  /** The account it trades on: a companion's balances of that account may be logged with its event row. */
  accountId?: number;
  running: boolean;
  updatedAt: Date;
  /** The last logged tick batch this state has seen, when the engine logs ticks. */
  tickSeq?: number;
} & (
  | { state: unknown; changes?: never; encode?: never }
  | { changes: PackedChanges; setsRunning?: true; state?: never; encode?: never }
  /** Only for a store that keeps states in this process (`EngineStore.inProcess`): the state, made when it is read. */
  | { encode: () => unknown; state?: never; changes?: never }
);

export interface EngineBatch {
  automations: AutomationChange[];
  events: Array<{ automationId: number; message: string; at: Date }>;
  /** New and changed journal rows (whole rows; the journal upserts by automation and order key, which name one id). */
  orders: EngineOrder[];
  records: Array<{ kind: string; automationId: number; records: unknown[] }>;
  /** Writes of the batch's companion (the paper exchange's changes), in the batch's transaction. */
  companion?: CompanionWrite[];
  /**
   * The engine's position in the shared tick log, as of the ticks this batch handled. Written
   * first, before the guard's check: the engine's row is then locked before any lease row, in the
   * order the heartbeat locks them.
   */
  position?: (tx: Sql) => Promise<void>;
  /** This batch's ticks, logged for the changes it leaves unstored. */
  ticks?: LoggedTickBatch;
  /** Logged tick batches before this one no automation needs any more: removed. */
  ticksNeededFrom?: number;
}

/**
 * A companion's changes as written in a batch's transaction. `balances`: per paper account whose
 * balances moved, their stored text (made when asked). The store logs each with the batch's event
 * row of one of the account's automations when the batch writes one, and tells the write which
 * it logged (`logged`): it writes the balances of the others itself. At one bot per account, the
 * balances were a row of their own in every batch that filled an order (migration 0088).
 */
export interface CompanionWrite {
  (tx: Sql, logged?: ReadonlySet<number>): Promise<void>;
  balances?(): ReadonlyMap<number, string>;
}

/**
 * Another component whose changes are stored in the engine's batch transactions (the paper
 * exchange, in one process per database): what it changed is taken when a batch takes its
 * inputs, so that what is stored agrees with what the batch handled, and written with the batch.
 */
export interface BatchCompanion {
  /** What changed since it was last taken, as its write in the batch's transaction. */
  take(): CompanionWrite | undefined;
}

/**
 * The paper exchange as the engine's companion. Besides taking its changes, it places and cancels
 * orders in memory while a batch is put together, so that the batch journaling an order stores
 * it as it then is (resting with the funds it locked, filled with its fill, ended), in the same
 * transaction: journaled pending, then stored again once the exchange's answer came, each order
 * was written twice or three times before its end.
 */
export interface PaperCompanion extends BatchCompanion {
  /** Whether `take` has anything to take. */
  hasChanges(): boolean;
  /**
   * The order placed, with what it did at once (a taker fill, a lapse); undefined when the
   * account is not held here or the order was placed already, and then it is sent as any order.
   * Throws the exchange's refusal.
   */
  placeAtOnce(accountId: number, request: OrderRequest): { order: ExchangeOrder; updates: OrderUpdate[] } | undefined;
  /**
   * The order cancelled, when it rests on an account held here and its fills so far are the
   * journal's (`filled`): the batch that asked for the cancellation stores it ended, where a
   * cancellation sent after the batch was stored was written twice (asked, then ended).
   * Undefined otherwise, and the cancellation is sent as any.
   */
  cancelResting(accountId: number, pair: string, clientOrderId: string, filled: Decimal): ExchangeOrder | undefined;
  /** Cancels an order placed by `placeAtOnce` and resting, whose journal row storage refused. */
  takeBack(accountId: number, pair: string, clientOrderId: string): void;
}

/**
 * The engine's position in the shared tick log, stored by its batches (`EngineBatch.position`):
 * `take` answers the write of the position reached since the last one taken, if it moved.
 */
export interface BatchPosition extends BatchCompanion {
  /**
   * A batch holding this write, taken from `take`, was stored. The next batch may take a later
   * position while one is stored, so the write says which was.
   */
  stored(write: (tx: Sql) => Promise<void>): void;
}

/**
 * A check run first inside every batch transaction (the lease fencing of several engines on one
 * database); throwing rolls the batch back.
 */
export type BatchGuard = (tx: Sql, batch: EngineBatch) => Promise<void>;

/** What one stored batch changed, handed to after-commit listeners (streams, the trading log). */
export interface CommittedBatch {
  automations: Array<{ id: number; kind: string; userId: number; accountId: number }>;
  records: EngineBatch['records'];
  /** The event log lines the batch stored, in the order the automations wrote them. */
  events: EngineBatch['events'];
  /** Automations this batch stopped because storage refused their changes, with the reason. */
  quarantined?: Array<{ id: number; reason: string }>;
}

export interface AutomationFilter {
  userId?: number;
  accountId?: number;
}

export interface EngineStore {
  /**
   * The store keeps states in this process and outlives nothing (backtests): the engine hands it
   * each changed state as `encode`, made into JSON only when read, instead of encoding every state
   * of every batch that no one may ever read.
   */
  readonly inProcess?: boolean;
  insert(automation: NewAutomation): Promise<StoredAutomation>;
  save(batch: EngineBatch): Promise<void>;
  /** Every running automation, and the journal rows of theirs still pending or open. */
  /** The running automations (of `accountIds` only, when given) and their live orders. */
  loadRunning(accountIds?: readonly number[]): Promise<{ automations: StoredAutomation[]; liveOrders: EngineOrder[] }>;
  get(kind: string, id: number): Promise<StoredAutomation | undefined>;
  list(kind: string, filter: AutomationFilter): Promise<StoredAutomation[]>;
  remove(id: number): Promise<void>;
  orders(automationId: number): Promise<EngineOrder[]>;
  events(automationId: number, page: { limit: number; offset: number }): Promise<StoredEvent[]>;
  registerRecordWriter(kind: string, write: RecordWriter | LoggedRecords): void;
  /** Reserves `count` new ids (journal numbers, deal ids), unique across processes. */
  reserveIds(count: number): Promise<number[]>;
  /** The logged tick batches after `seq`, oldest first; a store without it logs no ticks. */
  loggedTicks?(afterSeq: number): Promise<LoggedTickBatch[]>;
}
