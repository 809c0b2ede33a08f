/**
 * Collects what one engine batch changed (automation states, events, records, journal rows) and
 * stores it in one transaction. New orders are journaled here, with their client order ids, before
 * anything is sent.
 */
import type { CancelOrder, PlaceOrder, StepResult } from '../domain/automation.ts';
import type { OrderRequest, Ticker } from '../exchanges/exchange.ts';
import type { AnyAutomationKind, Automation, EngineOrder, LiveAutomation } from './automation-kind.ts';
import type { BatchStore } from './batch-store.ts';
import type { CommittedBatch, CompanionWrite, EngineBatch, EngineStore, StoredAutomation } from './engine-store.ts';
import type { DeferredChanges } from './deferred-changes.ts';
import { isFinal, type OrderJournal } from './order-journal.ts';
import { type PackedChanges, StateSnapshots } from './state-changes.ts';
import type { Timers } from './timers.ts';
import { dec } from '../shared/decimal.ts';
import type { Sql } from '../store/database.ts';

export interface PendingCommand {
  live: LiveAutomation;
  command: PlaceOrder | CancelOrder;
}

export type Send =
  | { type: 'place'; entry: EngineOrder; request: OrderRequest }
  | { type: 'cancel'; entry: EngineOrder };

/** A batch taken from the writer to be stored (`BatchWriter.seal`). */
export interface SealedBatch {
  batch: EngineBatch;
  /** Its automations, for listeners once it is stored. */
  changed: Array<{ id: number; kind: string; userId: number; accountId: number }>;
  /** The orders journaled in it: never sent if their automation's part is refused. */
  placed: EngineOrder[];
  /** The journal's entries it stores (the batch holds copies). */
  entries: EngineOrder[];
  /** The automations it changed. */
  live: Map<number, LiveAutomation>;
}

/** Ids are reserved from the store in blocks so that steps, which are synchronous, can take them. */
const ID_BLOCK = 1024;
const ID_LOW_WATER = 256;

export class BatchWriter {
  private dirty = new Map<number, LiveAutomation>();
  /** The automations of the batch being stored or last stored, for the quarantine of those storage refused. */
  private flushed = new Map<number, LiveAutomation>();
  private events: EngineBatch['events'] = [];
  private records = new Map<number, { kind: string; records: unknown[] }>();
  private orders = new Set<EngineOrder>();
  private companion: CompanionWrite[] = [];
  private position: ((tx: Sql) => Promise<void>) | undefined;
  /** Orders journaled in this batch: never sent if their automation's part is refused. */
  private placed: EngineOrder[] = [];
  private ids: number[] = [];
  private nextIndex = 0;
  /**
   * The most ids one batch took (its steps' and its journal's, over all its rounds): so many more
   * are kept at hand before a batch takes its inputs, since a batch that must reserve ids after
   * taking them cannot place its resting orders at once.
   */
  private peak = 0;
  private takenInBatch = 0;
  private readonly snapshots = new StateSnapshots();

  constructor(
    private readonly store: EngineStore,
    private readonly batches: BatchStore,
    private readonly journalOf: OrderJournal,
    private readonly timers: Timers,
    /** Present when quiet tick steps are stored later (one engine over a store that logs ticks). */
    readonly deferred?: DeferredChanges,
  ) {}

  /** The most ids a batch took yet. */
  get largestBatch(): number {
    return this.peak;
  }

  /** True when fewer than `needed` ids (and the reserve for the steps of a batch) are at hand. */
  needsIds(needed = this.peak): boolean {
    return this.ids.length - this.nextIndex < needed + ID_LOW_WATER;
  }

  /** Makes sure `needed` ids (and a reserve for the steps of the next batch) are at hand. */
  async reserveIds(needed = this.peak): Promise<void> {
    const available = this.ids.length - this.nextIndex;
    if (available >= needed + ID_LOW_WATER) return;
    const more = await this.store.reserveIds(Math.max(ID_BLOCK, needed + ID_LOW_WATER - available));
    this.ids = [...this.ids.slice(this.nextIndex), ...more];
    this.nextIndex = 0;
  }

  nextId(): number {
    const id = this.ids[this.nextIndex];
    if (id === undefined) throw new Error('The engine ran out of reserved ids in one batch');
    this.nextIndex += 1;
    this.takenInBatch += 1;
    return id;
  }

  /** `quiet`: a tick step that orders, logs and records nothing, of a kind that replays ticks. */
  noteStep(live: LiveAutomation, result: StepResult<unknown, unknown>, quiet = false): void {
    const id = live.automation.id;
    this.dirty.set(id, live);
    this.deferred?.noteStep(id, quiet);
    for (const event of result.events) this.events.push({ automationId: id, message: event.message, at: event.at });
    if (result.records.length > 0) {
      let entry = this.records.get(id);
      if (!entry) this.records.set(id, (entry = { kind: live.kind.name, records: [] }));
      entry.records.push(...result.records);
    }
  }

  noteTick(source: string, ticker: Ticker): void {
    this.deferred?.noteTick(source, ticker);
  }

  /** Whether this batch has anything to store yet. */
  hasChanges(): boolean {
    return this.dirty.size > 0 || this.orders.size > 0 || this.events.length > 0 || this.records.size > 0 || this.companion.length > 0;
  }

  /** The companion's changes, written in this batch's transaction. */
  noteCompanion(write: CompanionWrite): void {
    this.companion.push(write);
  }

  /** The position as of the inputs taken; a later one replaces it. Alone, it makes no batch. */
  notePosition(write: (tx: Sql) => Promise<void>): void {
    this.position = write;
  }

  /** The automation as this batch changed it, if it did. */
  changed(id: number): LiveAutomation | undefined {
    return this.dirty.get(id) ?? this.flushed.get(id);
  }

  noteOrder(entry: EngineOrder): void {
    this.orders.add(entry);
  }

  /** Journals the batch's orders and cancellations and returns what to send, in command order. */
  journal(pending: readonly PendingCommand[], now: Date): Send[] {
    const sends: Send[] = [];
    for (const { live, command } of pending) {
      const { id: automationId, accountId } = live.automation;
      const clientId = clientOrderId(live.kind.orderIdPrefix, automationId, command.key);
      if (command.type === 'cancel_order') {
        const entry = this.journalOf.find(accountId, clientId);
        if (!entry || isFinal(entry) || entry.cancelRequested) continue;
        entry.cancelRequested = true;
        entry.updatedAt = now;
        this.orders.add(entry);
        sends.push({ type: 'cancel', entry });
        continue;
      }
      if (this.journalOf.find(accountId, clientId)) continue;
      const entry = newEntry(this.nextId(), clientId, live, command, now);
      this.journalOf.add(entry);
      this.orders.add(entry);
      this.placed.push(entry);
      sends.push({ type: 'place', entry, request: requestFrom(entry, command) });
    }
    return sends;
  }

  /**
   * Takes an automation's part out of a sealed batch not yet stored, since storage refused its
   * part of the one before: its state, events and records, and the orders it journaled there that
   * are still live (returned; the journal forgets them). What ended at once stays to be stored.
   * Its state's next change is stored whole: the sealed one was found against a state never stored.
   */
  drop(id: number, sealed: SealedBatch): EngineOrder[] {
    const { batch } = sealed;
    batch.automations = batch.automations.filter((change) => change.id !== id);
    batch.records = batch.records.filter((entry) => entry.automationId !== id);
    batch.events = batch.events.filter((event) => event.automationId !== id);
    const dropped = sealed.placed.filter((entry) => entry.automationId === id && !isFinal(entry));
    for (const entry of dropped) this.journalOf.forget(entry);
    batch.orders = batch.orders.filter((order) => !dropped.some((entry) => entry.id === order.id));
    sealed.entries = sealed.entries.filter((entry) => !dropped.includes(entry));
    sealed.placed = sealed.placed.filter((entry) => !dropped.includes(entry));
    sealed.changed = sealed.changed.filter((change) => change.id !== id);
    sealed.live.delete(id);
    this.snapshots.forget(id);
    return dropped;
  }

  /**
   * Puts a sealed batch that will not be stored (the one before it failed) back into the batch
   * being collected, so that the next one stores what it changed; its states are stored whole then.
   */
  unseal(sealed: SealedBatch): void {
    const { batch } = sealed;
    for (const live of sealed.live.values()) this.dirty.set(live.automation.id, live);
    this.takeBackLogged(batch);
    for (const change of batch.automations) this.snapshots.forget(change.id);
    this.events = [...batch.events, ...this.events];
    for (const { kind, automationId, records } of batch.records) {
      const later = this.records.get(automationId);
      this.records.set(automationId, { kind, records: [...records, ...(later?.records ?? [])] });
    }
    this.orders = new Set([...sealed.entries, ...this.orders]);
    this.companion = [...(batch.companion ?? []), ...this.companion];
    this.position ??= batch.position;
    this.placed = [...sealed.placed, ...this.placed];
  }

  /** The quiet changes a batch logged its ticks for, when it may not be stored: the next batch stores them. */
  private takeBackLogged(batch: EngineBatch): void {
    if (!batch.ticks || !this.deferred) return;
    for (const live of this.deferred.unlog(batch.ticks)) this.dirty.set(live.automation.id, live);
  }

  /**
   * Takes the batch collected so far, its states encoded as they will be stored (`save` stores
   * it). Sealed as soon as the batch is put together, so that finding its changes is done while
   * the batch before is still being stored, not between the two.
   */
  seal(at: Date, now: number): SealedBatch {
    // Changes stored later are told to listeners now: the batch's logged ticks keep them.
    const changed = [...this.dirty.values()].map(({ automation, kind }) => ({
      id: automation.id,
      kind: kind.name,
      userId: automation.userId,
      accountId: automation.accountId,
    }));
    const log = this.deferred?.take(this.dirty, at, now, () => this.nextId());
    this.peak = Math.max(this.peak, this.takenInBatch);
    this.takenInBatch = 0;
    const entries = [...this.orders];
    const batch: EngineBatch = {
      automations: [...this.dirty.values()].map(({ automation, kind }) => {
        const running = kind.isRunning(automation.state);
        return {
          id: automation.id,
          accountId: automation.accountId,
          running,
          ...this.encode(automation, kind, running),
          updatedAt: automation.updatedAt,
          ...(log ? { tickSeq: log.tickSeq } : {}),
        };
      }),
      events: this.events,
      // Copies: the next batch's inputs are stepped while this one is stored and may change the
      // entries, and a retry or a refused part is written again later.
      orders: entries.map((order) => ({ ...order })),
      records: [...this.records].map(([automationId, { kind, records }]) => ({ kind, automationId, records })),
      ...(this.companion.length > 0 ? { companion: this.companion } : {}),
      ...(this.position ? { position: this.position } : {}),
      ...(log?.ticks ? { ticks: log.ticks } : {}),
      ...(log?.ticksNeededFrom !== undefined ? { ticksNeededFrom: log.ticksNeededFrom } : {}),
    };
    const sealed: SealedBatch = { batch, changed, placed: this.placed, entries, live: this.dirty };
    this.companion = [];
    this.position = undefined;
    this.dirty = new Map();
    this.events = [];
    this.records = new Map();
    this.orders = new Set();
    this.placed = [];
    // Ended orders leave the journal with the batch that stores them ended: the next batch, stepped
    // while this one is stored, hears no more of them, as it would once this one was stored.
    for (const order of batch.orders) if (isFinal(order)) this.journalOf.forget(order);
    return sealed;
  }

  /**
   * Stores a sealed batch and answers the automations whose part storage refused, with the reason
   * (their orders of this batch leave the journal unsent), and what the stored part changed.
   */
  async save(sealed: SealedBatch): Promise<{ refused: Map<number, unknown>; committed: CommittedBatch; storedPosition: ((tx: Sql) => Promise<void>) | undefined }> {
    const { batch, changed, placed } = sealed;
    this.flushed = sealed.live;
    let refused: Map<number, unknown>;
    try {
      refused = await this.batches.save(batch);
    } catch (error) {
      // Whether any of it was stored is unknown: the next changes must not build on it, nor wait
      // on ticks whose log may be lost.
      for (const change of batch.automations) this.snapshots.forget(change.id);
      this.takeBackLogged(batch);
      throw error;
    }
    for (const change of batch.automations) {
      if (!change.running || refused.has(change.id)) this.snapshots.forget(change.id);
    }
    for (const order of placed) if (refused.has(order.automationId)) this.journalOf.forget(order);
    const committed: CommittedBatch = {
      automations: changed.filter(({ id }) => !refused.has(id)),
      records: batch.records.filter(({ automationId }) => !refused.has(automationId)),
      events: batch.events.filter(({ automationId }) => !refused.has(automationId)),
    };
    return { refused, committed, storedPosition: batch.position };
  }

  /** A state as the store takes it: see `EngineStore.inProcess`. Steps never change a state they were given. */
  private encode(automation: Automation<unknown>, kind: AnyAutomationKind, running: boolean): { state: unknown } | { changes: PackedChanges } | { encode: () => unknown } {
    const timers = this.timers.of(automation.id);
    if (this.store.inProcess) {
      const state = automation.state;
      return { encode: () => ({ v: kind.toJson(state), timers }) };
    }
    return this.snapshots.encode(automation.id, automation.state, timers, kind, running);
  }

  /** Stores a batch of the engine's own (a quarantine), retrying while storage is unreachable. */
  storeAlone(batch: EngineBatch): Promise<void> {
    for (const change of batch.automations) {
      this.snapshots.forget(change.id);
      this.deferred?.forget(change.id);
    }
    return this.batches.retrying(batch);
  }

  /** An automation as storage holds it (read or inserted): its next state is stored as changes to it. */
  seed(live: LiveAutomation, stored: { v: unknown; timers?: unknown }, size: StoredAutomation['storedSize']): void {
    if (this.store.inProcess || !size) return;
    const { automation, kind } = live;
    this.snapshots.seed(automation.id, stored, automation.state, kind, kind.isRunning(automation.state), size);
  }

  /** An automation removed: its next state, if it ever has one, is stored whole. */
  forget(id: number): void {
    this.snapshots.forget(id);
    this.deferred?.forget(id);
  }
}

export function clientOrderId(prefix: string, automationId: number, key: string): string {
  return `tl${prefix}${automationId}x${key}`;
}

/** The request of a new entry, with the command's own decimals (its text, parsed back, is the same). */
function requestFrom(entry: EngineOrder, command: PlaceOrder): OrderRequest {
  return {
    clientOrderId: entry.clientOrderId,
    pair: entry.pair,
    side: entry.side,
    type: entry.orderType,
    amount: command.amount,
    ...(command.price === undefined ? {} : { price: command.price }),
    ...(entry.timeInForce === null ? {} : { timeInForce: entry.timeInForce }),
  };
}

export function requestOf(entry: EngineOrder): OrderRequest {
  return {
    clientOrderId: entry.clientOrderId,
    pair: entry.pair,
    side: entry.side,
    type: entry.orderType,
    amount: dec(entry.amount),
    ...(entry.price === null ? {} : { price: dec(entry.price) }),
    ...(entry.timeInForce === null ? {} : { timeInForce: entry.timeInForce }),
  };
}

function newEntry(id: number, clientId: string, live: LiveAutomation, command: PlaceOrder, now: Date): EngineOrder {
  return {
    id,
    automationId: live.automation.id,
    key: command.key,
    clientOrderId: clientId,
    accountId: live.automation.accountId,
    pair: command.pair,
    role: command.role,
    side: command.side,
    orderType: command.orderType,
    timeInForce: command.timeInForce ?? null,
    price: command.price?.toFixed() ?? null,
    amount: command.amount.toFixed(),
    filled: '0',
    filledTotal: '0',
    fee: '0',
    status: 'pending',
    cancelRequested: false,
    exchangeOrderId: null,
    feeCurrency: null,
    filledAt: null,
    createdAt: now,
    updatedAt: now,
  };
}
