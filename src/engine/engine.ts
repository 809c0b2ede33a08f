/**
 * The engine runtime: runs every automation's pure step function on market events, fills, timers
 * and user actions; turns their commands into exchange orders with deterministic client order ids;
 * stores state, events and the order journal per batch; and recovers after a crash.
 *
 * Invariants:
 * - All engine work runs one batch at a time, in arrival order. Storage sees the batches one at a
 *   time, in that order too; while one is being stored, the next ones are stepped and their paper
 *   orders placed in memory (`drain`), at most `MAX_QUEUED_BATCHES` waiting.
 * - One clock dates everything a batch does (steps, journal rows, events, records): the engine's
 *   clock, never before the times the batch's inputs carry nor before the previous batch's, so
 *   no entity shows a time before its own creation.
 * - A batch is stored (one transaction) before any order it asks for is sent, so an order is
 *   always journaled before it exists, and a replayed command reuses its client order id. A paper
 *   order that rests at once is placed in memory first and stored open with its journal row, in
 *   the transaction that stores the paper exchange's changes: it exists once that commits.
 * - On start, every journaled order still pending or open is looked up on its exchange: fills the
 *   automation missed are delivered, orders never sent are sent, cancellations are repeated.
 * - An automation whose part of a batch storage refuses is quarantined: stopped at its last stored
 *   state with the reason in its entity and its log; the rest of the batch is stored and sent.
 * - While storage is unreachable the engine takes no batch beyond the queued ones behind the batch
 *   it retries (inputs queue, up to a bound); if storage does not come back, `onStorageLost` ends
 *   the process (memory is never ahead of the database for long: a restart reloads from it).
 */
import type { Command, EngineInput, StepContext } from '../domain/automation.ts';
import { type ConnectionChange, type Exchange, ExchangeError, type Ticker } from '../exchanges/exchange.ts';
import type { AnyAutomationKind, Automation, AutomationKind, EngineOrder, LiveAutomation, StoredEvent } from './automation-kind.ts';
import { StorageUnavailableError } from '../shared/errors.ts';
import { AccountOwnedElsewhereError, LeaseLostError } from './lease-store.ts';
import { BatchStore, STORE_RETRY_DELAYS_MS, StorageLostError } from './batch-store.ts';
import { BatchWriter, type PendingCommand, type SealedBatch, type Send } from './batch-writer.ts';
import { type AutomationFilter, type BatchPosition, type CommittedBatch, type EngineStore, type PaperCompanion, QUARANTINED, type QuarantineRecord, type LoggedRecords, type RecordWriter, type StoredAutomation } from './engine-store.ts';
import { MarketSources } from './market-sources.ts';
import { type ExecutorEvent, OrderExecutor } from './order-executor.ts';
import { isFinal, OrderJournal } from './order-journal.ts';
import { PriceTriggers } from './price-triggers.ts';
import { TickWakes } from './tick-wakes.ts';
import { Timers } from './timers.ts';
import { DeferredChanges } from './deferred-changes.ts';
import { type Decimal, dec } from '../shared/decimal.ts';

export interface EngineLogger {
  info?(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

/** Hears an account's exchange becoming unreachable or reachable again. */
export type ConnectionListener = (accountId: number, change: ConnectionChange) => void;

export interface EnginePorts {
  store: EngineStore;
  exchangeFor(accountId: number): Promise<Exchange>;
  /** Runs a group of order placements as one unit (the paper exchange stores them together). */
  batchOrders?: <T>(work: () => Promise<T>) => Promise<T>;
  /**
   * Set when the paper exchange's changes are stored in the engine's batch transactions (one
   * process per database): taken with each batch's inputs, written with the batch.
   */
  companion?: PaperCompanion;
  /** The engine's position in the shared tick log (servers sharing PostgreSQL), taken with each batch's inputs like the companion's changes. */
  position?: BatchPosition;
  clock: () => Date;
  logger: EngineLogger;
  kinds: readonly AnyAutomationKind[];
  /** Pauses between attempts to store a batch while storage is unreachable. */
  storeRetryDelaysMs?: readonly number[];
  /** Storage did not come back: the engine stopped; the process should exit non-zero. */
  onStorageLost?: (error: Error) => void;
  /** How long changes of quiet tick steps may wait before they are stored (default 30 s). */
  deferredChangesMs?: number;
  /**
   * Set when several engines share the database: the accounts this engine holds a lease for
   * (account-leases.ts). Without it the engine runs every account (one process per database).
   */
  leases?: EngineLeases;
}

export interface EngineLeases {
  owns(accountId: number): boolean;
  /** The accounts this engine holds; `start` loads those it does not run yet. */
  accountIds(): readonly number[];
  mayAct(accountId: number): boolean;
  take(accountId: number): Promise<boolean>;
  lost(accountId: number): void;
}

type InboxItem =
  | { type: 'tick'; source: string; ticker: Ticker }
  | { type: 'input'; automationId: number; input: EngineInput }
  | ExecutorEvent;

type Live = LiveAutomation;

/** A batch stepped, journaled and placed in memory, waiting to be stored (`storeBatch`). */
interface PreparedBatch {
  at: Date;
  done: DoneAtOnce;
  /** Automations that stopped in it. */
  stopped: number[];
  /** It has orders to send once stored (`stepped` waits for them). */
  sendsLater: boolean;
  /** Settles once it is stored, or will never be (`stored`). */
  stored: { promise: Promise<void>; resolve(): void; reject(error: unknown): void };
  /** What it stores, taken from the writer when it was put together. */
  sealed: SealedBatch;
}

/** What a batch did in memory at once (`actAtOnce`), and what it sends once stored. */
interface DoneAtOnce {
  sends: Send[];
  /** Placed and resting. */
  resting: EngineOrder[];
  /** Filled, lapsed, cancelled, or refused by the exchange. */
  ended: EngineOrder[];
  /** Accounts with an order sent later: their next ones are sent later too. */
  sentLater: Set<number>;
}

/**
 * Rounds of a batch's automations hearing of orders that ended at once and ordering again; after
 * so many, what they order is sent after the batch is stored.
 */
const MAX_ROUNDS_AT_ONCE = 8;

const placesIn = (batch: readonly PendingCommand[]) => batch.filter((pending) => pending.command.type === 'place_order').length;

/** Stored state: the kind's own JSON plus the engine's pending timers for it. */
interface StoredState {
  v: unknown;
  timers?: Array<{ key: string; at: string }>;
}

const TIMER_CHECK_MS = 1000;
/** How long a change of a quiet tick step may wait before it is stored (deferred-changes.ts). */
const DEFERRED_CHANGES_MS = 30_000;
/** At most this many waiting changes are stored with one batch, so they spread over batches. */
const DEFERRED_PER_BATCH = 200;
/**
 * Batches prepared and waiting to be stored at most. Inputs that come beyond it wait and join one
 * larger batch: fewer transactions when storage is the slower part.
 */
const MAX_QUEUED_BATCHES = 4;
/** Inputs kept while a batch waits for storage; beyond it the engine gives up rather than grow. */
const MAX_WAITING_INPUTS = 100_000;

export class Engine {
  private readonly running = new Map<number, Live>();
  /** Automations that stopped in the current batch; they leave memory once it is stored. */
  private readonly stopped = new Set<number>();
  private readonly kinds = new Map<string, AnyAutomationKind>();
  private readonly journal = new OrderJournal();
  private readonly triggers = new PriceTriggers();
  private readonly timers = new Timers();
  private readonly sources: MarketSources;
  private readonly executor: OrderExecutor;
  private readonly writer: BatchWriter;
  private inbox: InboxItem[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private drainScheduled = false;
  /** Set while a drain waits: an input that comes, or a queued batch stored, wakes it. */
  private wake: (() => void) | undefined;
  /** Batches prepared and not yet stored, oldest first; the first is being stored. */
  private readonly queued: PreparedBatch[] = [];
  /** Stores the queued batches while there are any (`storeQueued`). */
  private storer: Promise<void> | undefined;
  /** A queued batch failed as a whole; the drain puts back those after it. */
  private storeFailure: { error: unknown } | undefined;
  /** What storage refused while the batch being put together was: its part of that batch goes too. */
  private refusedLately: Array<ReadonlyMap<number, unknown>> = [];
  private steppedWaiters: Array<() => void> = [];
  /** The drain waits for a queued batch to be stored (or an input to come). */
  private onlyStoring = false;
  /** Prepared batches whose orders are sent once they are stored. */
  private unsentBatches = 0;
  /** Settles once the last batch prepared is stored (`stored`). */
  private lastPrepared: Promise<unknown> = Promise.resolve();
  /** A batch is due even if no input comes (the companion's changes, deferred changes due). */
  private batchWanted = false;
  /** Work queued or running (`run`): while there is any, ticks wait their turn in the inbox. */
  private inFlight = 0;
  /** Engine work begun so far (`run`): what `loadAccounts` checks a read ahead against. */
  private started = 0;
  private timerCheck: NodeJS.Timeout | undefined;
  private waitingForStorage = false;
  private storageLost: StorageLostError | undefined;
  private lastBatchAt = 0;
  private readonly committedListeners: Array<(batch: CommittedBatch) => void> = [];
  private readonly recordKinds = new Set<string>();
  private readonly connectionListeners: ConnectionListener[] = [];
  /** A step's lookups, made once per market source rather than for every step. */
  private readonly sourceLookups = new Map<string, Pick<StepContext, 'rules' | 'price'>>();
  private readonly nextId = () => this.writer.nextId();

  constructor(private readonly ports: EnginePorts) {
    for (const kind of ports.kinds) this.kinds.set(kind.name, kind);
    this.sources = new MarketSources(ports.exchangeFor, {
      onTicker: (source, ticker) => this.enqueue({ type: 'tick', source, ticker }),
      onOrderUpdate: (accountId, update) => this.enqueue({ type: 'order', accountId, update }),
      onConnectionChange: (accountId, change) => this.connectionChanged(accountId, change),
    });
    const batches = new BatchStore(ports.store, ports.storeRetryDelaysMs ?? STORE_RETRY_DELAYS_MS, (error, attempt) => {
      this.waitingForStorage = true;
      ports.logger.warn({ err: error, attempt }, 'storage unavailable; the engine waits and stores the batch again');
    });
    // One engine over a store that logs ticks: with several, a taken account would need the log of
    // the engine that ran it before (docs/scaling.md).
    const defers = ports.store.loggedTicks && !ports.store.inProcess && !ports.leases;
    const deferred = defers ? new DeferredChanges(ports.deferredChangesMs ?? DEFERRED_CHANGES_MS, DEFERRED_PER_BATCH) : undefined;
    this.writer = new BatchWriter(ports.store, batches, this.journal, this.timers, deferred);
    const leases = ports.leases;
    this.executor = new OrderExecutor(
      this.sources,
      this.journal,
      { ...ports, ...(leases ? { mayAct: (accountId: number) => leases.mayAct(accountId) } : {}) },
      (item) => this.enqueue(item),
    );
  }

  registerRecordWriter(kindName: string, write: RecordWriter | LoggedRecords): void {
    this.ports.store.registerRecordWriter(kindName, write);
    this.recordKinds.add(kindName);
  }

  /**
   * Calls `listener` after each batch is stored, with what it changed. Listeners run on the
   * engine's path, so they must only take note and return (streams queue work).
   */
  onCommitted(listener: (batch: CommittedBatch) => void): void {
    this.committedListeners.push(listener);
  }

  /** Calls `listener` when the exchange of an account this engine runs is lost or recovered. */
  onConnectionChange(listener: ConnectionListener): void {
    this.connectionListeners.push(listener);
  }

  /**
   * Loads running automations (with leases: of the accounts this engine can take), reconciles
   * their orders with the exchanges, and starts timers.
   */
  async start(): Promise<void> {
    // With leases, the accounts to run are taken beforehand (evenly over the engines, app-leases.ts).
    const leases = this.ports.leases;
    const wanted = async (accountId: number) => (leases ? leases.owns(accountId) && (await leases.take(accountId)) : true);
    // With leases only the accounts held and not yet running are read: reading every account's
    // automations and open orders to keep a share of them took an engine about a second per
    // thousand grid bots, and grows with every engine's accounts.
    const running = new Set(this.accountIds());
    const only = leases?.accountIds().filter((accountId) => !running.has(accountId));
    await this.run(() => this.load(wanted, only, this.writer.deferred !== undefined));
    this.timerCheck = setInterval(() => {
      const now = this.ports.clock();
      this.enqueueDueTimers(now);
      if (this.writer.deferred?.hasDue(now.getTime())) this.requestBatch();
    }, TIMER_CHECK_MS);
    this.timerCheck.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timerCheck);
    await this.settled();
    await this.storeDeferred();
  }

  /** Stores every change of a quiet tick step still waiting (deferred-changes.ts). */
  storeDeferred(): Promise<void> {
    const deferred = this.writer.deferred;
    if (!deferred || this.storageLost) return Promise.resolve();
    return this.run(async () => {
      deferred.storeEverything();
      await this.commit([], this.batchClock());
    });
  }

  /**
   * Steps the automations whose changes were left unstored on the ticks logged for them after
   * their stored state, then stores them. Their steps on those ticks are those made before the
   * restart (they read only the state, the tick and the clock); one that now orders something
   * orders it as any batch does.
   */
  private async replayLoggedTicks(loaded: readonly StoredAutomation[]): Promise<void> {
    const deferred = this.writer.deferred!;
    const logged = await this.ports.store.loggedTicks!(0);
    if (logged.length === 0) return;
    const storedAt = new Map(loaded.map((stored) => [stored.id, stored.tickSeq ?? 0]));
    const batch: PendingCommand[] = [];
    const replayed = new Set<number>();
    for (const entry of logged) {
      const due = new Set(entry.ids.filter((id) => (storedAt.get(id) ?? Infinity) < entry.seq && this.running.has(id)));
      if (due.size === 0) continue;
      for (const [source, pair, last, bid, ask, at] of entry.ticks) {
        const ticker: Ticker = { pair, last: dec(last), bid: dec(bid), ask: dec(ask), at: new Date(at) };
        const input: EngineInput = { type: 'tick', pair, price: ticker.last, bid: ticker.bid, ask: ticker.ask, at: ticker.at };
        const { acting, trailing } = this.triggers.crossed(source, pair, ...bounds(ticker));
        for (const id of [...acting, ...trailing]) {
          const live = this.running.get(id);
          if (!live || !due.has(id)) continue;
          this.step(live, input, entry.at, batch);
          replayed.add(id);
        }
      }
    }
    deferred.position = logged[logged.length - 1]!.seq;
    deferred.storeEverything();
    await this.commit(batch, this.batchClock());
    this.ports.logger.info?.({ automations: replayed.size, batches: logged.length }, 'engine replayed the logged ticks of changes not yet stored');
  }

  /** Whether the journal holds this order (it then records the order's fills). */
  journals(accountId: number, clientOrderId: string): boolean {
    return this.journal.find(accountId, clientOrderId) !== undefined;
  }

  /** The accounts whose running automations this engine steps. */
  accountIds(): number[] {
    return [...new Set([...this.running.values()].map((live) => live.automation.accountId))].sort((a, b) => a - b);
  }

  /** Loads the running automations of an account this engine just took (a takeover). */
  loadAccount(accountId: number): Promise<void> {
    return this.loadAccounts([accountId]);
  }

  /**
   * Starts reading what `loadAccounts` needs of these accounts now, so that it goes alongside
   * another read (a takeover reads their paper state meanwhile). `loadAccounts` takes it only if
   * the engine did nothing between (it may have changed them); otherwise it reads again.
   */
  readAhead(accountIds: readonly number[]): ReadAhead {
    const read = this.ports.store.loadRunning(accountIds);
    // Unused when the engine did something meanwhile: its failure then concerns nobody.
    read.catch(() => undefined);
    return { accountIds, read, started: this.inFlight === 0 ? this.started : undefined };
  }

  /** Loads the running automations of accounts this engine just took, in one read (`ahead`, if still good). */
  loadAccounts(accountIds: readonly number[], ahead?: ReadAhead): Promise<void> {
    const wanted = new Set(accountIds);
    return this.run(() => {
      const fresh = ahead?.accountIds === accountIds && ahead.started !== undefined && ahead.started + 1 === this.started;
      return this.load(async (candidate) => wanted.has(candidate) && (this.ports.leases?.owns(candidate) ?? true), accountIds, false, fresh ? ahead.read : undefined);
    });
  }

  /**
   * Forgets an account's automations and orders without writing anything: another engine holds
   * its lease now and carries on from what is stored.
   */
  dropAccount(accountId: number): Promise<void> {
    return this.run(async () => this.forgetAccount(accountId));
  }

  /** `replayLog`: first steps the loaded automations on the ticks logged for their unstored changes. */
  private async load(
    wanted: (accountId: number) => Promise<boolean>,
    only?: readonly number[],
    replayLog = false,
    read: ReturnType<EngineStore['loadRunning']> = this.ports.store.loadRunning(only),
  ): Promise<void> {
    const { automations, liveOrders } = await read;
    const accounts = new Map<number, boolean>();
    for (const accountId of new Set(automations.map((a) => a.accountId))) accounts.set(accountId, await wanted(accountId));
    // Their exchanges at once: attached one by one, a takeover of hundreds of accounts waited for
    // each account's read in turn. A failure is the resume's to report.
    await Promise.all([...accounts].filter(([, taken]) => taken).map(([accountId]) => this.sources.attach(accountId).catch(() => undefined)));
    const fresh = liveOrders.filter((order) => accounts.get(order.accountId) && !this.journal.find(order.accountId, order.clientOrderId));
    for (const order of fresh) this.journal.add(order);
    for (const stored of automations) {
      if (accounts.get(stored.accountId) && !this.running.has(stored.id)) await this.resume(stored);
    }
    // Before anything that came after the restart: the logged ticks came before it.
    if (replayLog) await this.replayLoggedTicks(automations);
    await this.executor.reconcile(fresh, this.batchClock());
    await this.drain();
  }

  private forgetAccount(accountId: number): void {
    for (const [id, live] of this.running) {
      if (live.automation.accountId !== accountId) continue;
      this.untrack(id);
      this.writer.forget(id);
    }
    for (const entry of this.journal.all()) if (entry.accountId === accountId) this.journal.forget(entry);
    this.executor.forgetAccount(accountId);
  }

  /**
   * With leases, an action on an account another engine runs is refused here; the API passes it to
   * that engine. An account nobody runs is taken, so what the action does is this engine's to store.
   */
  async holdAccount(accountId: number): Promise<void> {
    const leases = this.ports.leases;
    if (leases && !(await leases.take(accountId))) throw new AccountOwnedElsewhereError(accountId);
  }

  async create<S, A>(
    kind: AutomationKind<S, A, unknown>,
    init: { userId: number; accountId: number; state: S },
    action?: A,
  ): Promise<Automation<S>> {
    await this.holdAccount(init.accountId);
    const at = new Date(Math.max(this.ports.clock().getTime(), this.lastBatchAt));
    const stored = await this.ports.store.insert({
      kind: kind.name,
      userId: init.userId,
      accountId: init.accountId,
      running: kind.isRunning(init.state),
      state: { v: kind.toJson(init.state) } satisfies StoredState,
      at,
    });
    const automation: Automation<S> = { ...stored, state: init.state };
    if (action === undefined) return automation;
    return this.act(kind, automation.id, action, automation);
  }

  /**
   * Applies a user action. A step that refuses it (TransitionError, validation) changes nothing
   * and the error reaches the caller. Resolves with the automation as the action left it, once the
   * action's orders went out and what they caused at once (market fills, rejections) was handled
   * and stored; `get` shows that later state.
   */
  act<S, A>(kind: AutomationKind<S, A, unknown>, id: number, action: A, known?: Automation<S>): Promise<Automation<S>> {
    return this.run(async () => {
      let live = this.running.get(id);
      if (!live) {
        const automation = known ?? (await this.loadOne(kind, id));
        if (!automation) throw new Error(`No ${kind.name} ${id}`);
        await this.holdAccount(automation.accountId);
        live = await this.track(automation as Automation<unknown>, kind);
      }
      await this.sources.prime(live.automation.accountId, this.pairsOf(live));
      await this.writer.reserveIds();
      const batch: PendingCommand[] = [];
      const at = this.batchClock();
      const result = this.step(live, action as EngineInput, at, batch, true);
      const refused = (await this.commit(batch, at)).get(id);
      await this.drain();
      if (refused !== undefined) throw refused;
      return { ...live.automation, state: result.state } as Automation<S>;
    });
  }

  async get<S>(kind: AutomationKind<S, unknown, unknown>, id: number): Promise<Automation<S> | undefined> {
    const live = this.running.get(id);
    if (live) return live.kind === kind ? (live.automation as Automation<S>) : undefined;
    return this.loadOne(kind, id);
  }

  async list<S>(kind: AutomationKind<S, unknown, unknown>, filter: AutomationFilter): Promise<Automation<S>[]> {
    const rows = await this.ports.store.list(kind.name, filter);
    return rows.map((row) => (this.running.get(row.id)?.automation as Automation<S>) ?? this.revive(kind, row));
  }

  /**
   * Forgets an automation and its stored history; its orders must have been cancelled already.
   * With leases, only the engine that runs its account may (another one's would vanish under it).
   */
  remove(kind: AutomationKind<unknown, unknown, unknown>, id: number): Promise<void> {
    return this.run(async () => {
      const live = this.running.get(id);
      if (live && live.kind !== kind) return;
      const accountId = live?.automation.accountId ?? (await this.ports.store.get(kind.name, id))?.accountId;
      if (accountId !== undefined) await this.holdAccount(accountId);
      this.untrack(id);
      this.writer.forget(id);
      await this.ports.store.remove(id);
    });
  }

  orders(automationId: number): Promise<EngineOrder[]> {
    return this.ports.store.orders(automationId);
  }

  events(automationId: number, page: { limit: number; offset: number }): Promise<StoredEvent[]> {
    return this.ports.store.events(automationId, page);
  }

  /** Nothing queued or running: every event received so far has been handled and stored. */
  get idle(): boolean {
    return this.inFlight === 0 && this.inbox.length === 0;
  }

  /**
   * Resolves once every event received so far has been stepped and the orders it caused placed;
   * the batch that holds them may still be being stored (`settled` waits for that too). Orders
   * sent after their batch is stored (on real exchanges, or when ids had to be reserved first)
   * are waited for.
   */
  stepped(): Promise<void> {
    if (this.allStepped) return Promise.resolve();
    return new Promise((resolve) => this.steppedWaiters.push(resolve));
  }

  /** Nothing received waits to be stepped, and no order of a batch stepped waits to be sent. */
  private get allStepped(): boolean {
    return this.inbox.length === 0 && (this.inFlight === 0 || (this.onlyStoring && this.unsentBatches === 0));
  }

  /**
   * Resolves once the batches that hold every event received so far are stored (not those taken
   * after them, which `settled` waits for too).
   */
  async stored(): Promise<void> {
    await this.stepped();
    await this.lastPrepared;
  }

  private tellStepped(): void {
    const waiters = this.steppedWaiters;
    this.steppedWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** Resolves when every event received so far has been handled and stored. */
  settled(): Promise<void> {
    if (this.inFlight === 0 && this.inbox.length === 0 && !this.storageLost) return Promise.resolve();
    return this.run(() => this.drain());
  }

  private enqueue(item: InboxItem): void {
    if (this.storageLost) return;
    if (item.type === 'tick' && this.takeQuietTick(item.source, item.ticker)) return;
    this.inbox.push(item);
    if (this.waitingForStorage && this.inbox.length > MAX_WAITING_INPUTS) {
      this.loseStorage(new StorageLostError('Too many inputs queued while storage was unreachable'));
      return;
    }
    this.wake?.();
    if (this.drainScheduled) return;
    this.drainScheduled = true;
    void this.run(() => this.drain()).catch((error: unknown) =>
      this.ports.logger.error({ err: error }, 'engine batch failed'),
    );
  }

  /**
   * A tick that comes while the engine is idle and wakes no automation, no timer and no order
   * retry is taken at once: like a batch of it alone, it only moves the source's price and the
   * batch clock. Most ticks are such, and their round through the queue cost more than the rest.
   */
  private takeQuietTick(source: string, ticker: Ticker): boolean {
    if (this.inFlight > 0 || this.inbox.length > 0 || this.waitingForStorage || this.executor.hasUnconfirmed()) return false;
    if (this.timers.anyDue(ticker.at)) return false;
    if (this.triggers.mayWake(source, ticker.pair, ...bounds(ticker))) return false;
    this.sources.noteTicker(source, ticker);
    this.lastBatchAt = Math.max(this.ports.clock().getTime(), this.lastBatchAt, ticker.at.getTime());
    return true;
  }

  private enqueueDueTimers(now: Date): void {
    for (const timer of this.timers.due(now)) {
      this.enqueue({ type: 'input', automationId: timer.automationId, input: { type: 'timer', key: timer.key, at: timer.at } });
    }
  }

  /**
   * Stores what the companion changed that no batch took yet (an order placed from outside the
   * engine, an account opened), in a batch with whatever else is queued.
   */
  storeCompanion(): Promise<void> {
    return this.requestBatch();
  }

  /** A batch with whatever is queued, even if nothing is. */
  private requestBatch(): Promise<void> {
    this.batchWanted = true;
    this.wake?.();
    return this.run(() => this.drain());
  }

  /**
   * Takes the inputs queued in batches until none is left. Each batch is stepped, its paper orders
   * placed in memory and its changes sealed at once, then queued to be stored (`storeQueued`):
   * storage sees the batches one at a time, in order, while the inputs that come meanwhile are
   * stepped as batches of their own, up to `MAX_QUEUED_BATCHES` waiting. A tick that came while
   * a large batch was stored waited for all of it before.
   */
  private async drain(): Promise<void> {
    this.drainScheduled = false;
    try {
      for (;;) {
        this.abandonIfStoreFailed();
        const hasInput = this.inbox.length > 0 || this.batchWanted;
        if (!hasInput && !this.storer) break;
        if (!hasInput || this.queued.length >= MAX_QUEUED_BATCHES) {
          await this.waitWhileStoring();
          continue;
        }
        // A batch is stored over several round trips to the database, each answered on this thread:
        // stepping batch after batch without letting them in stalled storage behind the steps. The
        // first batch behind the one being stored is stepped at once, as a tick's orders wait on it.
        if (this.queued.length > 1 && !this.ports.store.inProcess) await new Promise((resolve) => setImmediate(resolve));
        this.refusedLately = [];
        const taken = await this.takeBatch();
        if (!taken) continue;
        const { prepared, ticked, at } = taken;
        if (prepared) this.enqueueStore(prepared);
        if (ticked && this.executor.hasUnconfirmed()) {
          await this.allStored();
          this.abandonIfStoreFailed();
          await this.executor.retryUnconfirmed(at);
        }
      }
    } catch (error) {
      await this.allStored();
      this.abandonIfStoreFailed();
      throw error;
    } finally {
      this.tellStepped();
    }
  }

  /**
   * Queues a prepared batch to be stored after those before it. Storage refused automations'
   * parts while it was put together: their part of it goes too. After a failure nothing more is
   * stored until the drain has put the queued batches back.
   */
  private enqueueStore(prepared: PreparedBatch): void {
    for (const refused of this.refusedLately) this.dropRefused(prepared, refused);
    this.queued.push(prepared);
    if (!this.storeFailure) this.storer ??= this.storeQueued();
  }

  /**
   * Stores the queued batches in order while there are any. An automation whose part storage
   * refused loses its part of every batch queued after: those were stepped before it was stopped.
   * A batch that fails as a whole stops the storing: the batches after it were sealed against
   * states it never stored, and the drain puts them back (`abandonIfStoreFailed`).
   */
  private async storeQueued(): Promise<void> {
    for (let next = this.queued[0]; next; next = this.queued[0]) {
      let refused;
      try {
        refused = await this.storeBatch(next);
      } catch (error) {
        this.storeFailure = { error };
        break;
      } finally {
        this.queued.shift();
      }
      if (refused.size > 0) {
        for (const later of this.queued) this.dropRefused(later, refused);
        this.refusedLately.push(refused);
      }
      this.wake?.();
    }
    this.storer = undefined;
    this.wake?.();
  }

  /**
   * After a batch failed as a whole, the batches prepared after it are not stored: what they
   * changed goes back into the next batch (newest first, so each puts its part before the later
   * ones'), and the drain hears the failure.
   */
  private abandonIfStoreFailed(): void {
    const failure = this.storeFailure;
    if (!failure) return;
    this.storeFailure = undefined;
    for (const prepared of this.queued.splice(0).reverse()) {
      this.writer.unseal(prepared.sealed);
      prepared.stored.reject(failure.error);
      if (prepared.sendsLater) this.unsentBatches -= 1;
    }
    throw failure.error;
  }

  /** Waits until every queued batch is stored, or storing stopped at a failure. */
  private async allStored(): Promise<void> {
    while (this.storer) await this.storer;
  }

  /** Steps the queued inputs and prepares what they caused; undefined when the inbox was empty. */
  private async takeBatch(): Promise<{ prepared: PreparedBatch | undefined; ticked: boolean; at: Date } | undefined> {
    // A batch short of ids sends its orders only once stored: one order per automation is kept at
    // hand at least (a move across a line of every grid bot), not only the largest batch's yet. In
    // `live-latency`, 636 of 10,886 orders waited so for batches that set a new largest.
    const ahead = Math.max(this.writer.largestBatch, this.running.size);
    if (this.writer.needsIds(ahead)) await this.writer.reserveIds(ahead);
    // The companion's changes are taken with nothing awaited since the inputs were (`prepare`):
    // what the paper exchange stores then agrees with the fills the batch handles.
    const items = this.inbox;
    this.inbox = [];
    const wanted = this.batchWanted;
    this.batchWanted = false;
    if (items.length === 0 && !wanted) return undefined;
    const position = this.ports.position?.take();
    if (position) this.writer.notePosition(position);
    this.writer.deferred?.beginBatch();
    const batch: PendingCommand[] = [];
    const at = this.batchClock(items);
    const woken = new TickWakes();
    let ticked = false;
    for (const item of items) {
      this.handle(item, batch, at, woken);
      ticked ||= item.type === 'tick';
    }
    // With nothing of the fills to place first, the automations the ticks woke are stepped now:
    // those that may order, then, if they ordered nothing either, those that only trail.
    if (batch.length === 0) this.stepWoken(woken.takeNext(), at, batch);
    if (batch.length === 0) this.stepWoken(woken.takeNext(), at, batch);
    // Most ticks cross no automation's band: such a batch has nothing to store or send, and
    // skipping its empty round through storage is most of a backtest's time per tick.
    const stores = batch.length > 0 || this.writer.hasChanges() || this.ports.companion?.hasChanges() || this.writer.deferred?.hasDue(this.ports.clock().getTime());
    return { prepared: stores ? await this.prepare(batch, at, true, woken) : undefined, ticked, at };
  }

  /**
   * Waits for an input to come or a queued batch to be stored; `stepped` meanwhile hears that
   * everything received was stepped, if so.
   */
  private async waitWhileStoring(): Promise<void> {
    this.onlyStoring = true;
    if (this.allStepped) this.tellStepped();
    try {
      await new Promise<void>((resolve) => (this.wake = () => {
        this.wake = undefined;
        resolve();
      }));
    } finally {
      this.onlyStoring = false;
    }
  }

  /**
   * Takes the refused automations' part out of a batch prepared before their refusal was known:
   * its state changes, events and records, and the orders it journaled that are still live, never
   * to be sent (those resting in memory are taken back). What ended at once stays, as the
   * quarantine keeps it: the paper exchange did it.
   */
  private dropRefused(prepared: PreparedBatch, refused: ReadonlyMap<number, unknown>): void {
    if (refused.size === 0) return;
    const { done } = prepared;
    for (const id of refused.keys()) {
      for (const entry of this.writer.drop(id, prepared.sealed)) {
        if (!done.resting.includes(entry)) continue;
        this.ports.companion!.takeBack(entry.accountId, entry.pair, entry.clientOrderId);
        this.batchWanted = true;
      }
    }
    const kept = (entry: EngineOrder) => !refused.has(entry.automationId);
    done.sends = done.sends.filter((send) => kept(send.entry));
    done.resting = done.resting.filter(kept);
  }

  private takeCompanion(): void {
    const write = this.ports.companion?.take();
    if (write) this.writer.noteCompanion(write);
  }

  /**
   * Handles one input of a batch. The automations a tick wakes are stepped later (`woken`), after
   * what the batch's fills and other inputs caused was placed, and those it may make order before
   * those it only makes trail: a tick can wake thousands of SmartTrades that trail it, and the
   * counter-orders of the fills it made, and the stops it fired, waited for all of them
   * (docs/architecture.md). An automation keeps its inputs' order: once a tick woke it, its later
   * inputs of the batch wait with it. Those waiting that use the prices of the batch's next tick's
   * pair are stepped before it, which finds whom it wakes by the bands their steps leave.
   */
  private handle(item: InboxItem, batch: PendingCommand[], at: Date, woken: TickWakes): void {
    if (item.type === 'tick') {
      const { source, ticker } = item;
      if (woken.size > 0) this.stepWoken(woken.takeUsing(source, ticker.pair, this.pairsOf), at, batch);
      this.sources.noteTicker(source, ticker);
      this.writer.noteTick(source, ticker);
      this.enqueueDueTimers(ticker.at);
      const input: EngineInput = { type: 'tick', pair: ticker.pair, price: ticker.last, bid: ticker.bid, ask: ticker.ask, at: ticker.at };
      const { acting, trailing } = this.triggers.crossed(source, ticker.pair, ...bounds(ticker));
      for (const [ids, orders] of [[acting, true], [trailing, false]] as const) {
        for (const id of ids) {
          const live = this.running.get(id);
          if (live) woken.add(live, input, orders);
        }
      }
    } else if (item.type === 'order') {
      const { order, fill } = item.update;
      const entry = this.journal.find(item.accountId, order.clientOrderId);
      if (!entry || (!fill && !this.journal.changedBy(entry, order))) return;
      const inputs = this.journal.apply(entry, order, fill, at);
      this.writer.noteOrder(entry);
      for (const input of inputs) this.stepAfterWakes(entry.automationId, input, at, batch, woken);
    } else if (item.type === 'journal') {
      this.writer.noteOrder(item.entry);
      this.stepAfterWakes(item.entry.automationId, item.input, at, batch, woken);
    } else {
      this.stepAfterWakes(item.automationId, item.input, at, batch, woken);
    }
  }

  /** Steps an automation now, or after the wake it waits with, so that it hears its inputs in order. */
  private stepAfterWakes(id: number, input: EngineInput, at: Date, batch: PendingCommand[], woken: TickWakes): void {
    const live = this.running.get(id);
    if (!live) return;
    if (woken.has(id)) woken.add(live, input, true);
    else this.step(live, input, at, batch);
  }

  /** Steps automations a tick woke, each on its inputs in the order they came. */
  private stepWoken(inputs: ReadonlyArray<{ live: Live; input: EngineInput }>, at: Date, batch: PendingCommand[]): void {
    for (const { live, input } of inputs) this.step(live, input, at, batch);
  }

  /** Steps one automation; inputs from the market that its step refuses are logged, not thrown. */
  private step(live: Live, input: EngineInput, now: Date, batch: PendingCommand[], fromUser = false) {
    let result;
    try {
      result = live.kind.step(live.automation.state, input, this.context(live, now));
    } catch (error) {
      if (fromUser) throw error;
      this.ports.logger.error({ err: error, automationId: live.automation.id, input: input.type }, 'automation step failed');
      return { state: live.automation.state };
    }
    const { automation } = live;
    automation.state = result.state;
    automation.updatedAt = now;
    const quiet =
      input.type === 'tick' && live.kind.replaysTicks === true && result.commands.length === 0 &&
      result.events.length === 0 && result.records.length === 0 && live.kind.isRunning(result.state);
    this.writer.noteStep(live, result, quiet);
    for (const command of result.commands) this.apply(live, command, batch);
    if (live.kind.isRunning(result.state)) {
      this.running.set(automation.id, live);
      this.stopped.delete(automation.id);
      this.triggers.set(automation.id, live.source, live.kind.watches(result.state));
    } else {
      this.stopped.add(automation.id);
      this.triggers.remove(automation.id);
      this.timers.cancelAll(automation.id);
    }
    return result;
  }

  private apply(live: Live, command: Command, batch: PendingCommand[]): void {
    const id = live.automation.id;
    if (command.type === 'schedule_timer') this.timers.schedule(id, command.key, command.at);
    else if (command.type === 'cancel_timer') this.timers.cancel(id, command.key);
    else batch.push({ live, command });
  }

  /**
   * Stores the batch, then sends its orders; automations that stopped leave memory. `inputsTaken`:
   * see `prepare`.
   */
  private async commit(batch: PendingCommand[], at: Date, inputsTaken = false): Promise<ReadonlyMap<number, unknown>> {
    return this.storeBatch(await this.prepare(batch, at, inputsTaken));
  }

  /**
   * Journals the batch's orders and places those it can in memory (`actAtOnce`), with the
   * automations hearing in it what ended so. `inputsTaken`: the batch's inputs were just taken,
   * with nothing awaited since, so the companion's changes are taken here too; when no id needs
   * reserving they are taken after the batch's orders on paper accounts held here were placed and
   * cancelled in memory, and those go into this batch as they then are. `woken`: the automations
   * the batch's last tick woke, stepped once what the rest of it caused is placed.
   */
  private async prepare(batch: PendingCommand[], at: Date, inputsTaken: boolean, woken?: TickWakes): Promise<PreparedBatch> {
    const places = placesIn(batch);
    let atOnce = inputsTaken && !this.writer.needsIds(places);
    if (!atOnce) {
      if (inputsTaken) this.takeCompanion();
      await this.writer.reserveIds(places);
    }
    const done: DoneAtOnce = { sends: [], resting: [], ended: [], sentLater: new Set() };
    let pending = batch;
    for (let round = 1; ; round += 1) {
      if (pending.length === 0) {
        // What the fills caused is placed: now the automations the tick woke (those that may order
        // first), with rounds of their own.
        if (!woken?.size) break;
        this.stepWoken(woken.takeNext(), at, pending);
        round = 1;
        const more = placesIn(pending);
        if (more > 0 && this.writer.needsIds(more)) {
          if (atOnce) this.takeCompanion();
          atOnce = false;
          await this.writer.reserveIds(more);
        }
        if (pending.length === 0) break;
      }
      const journaled = this.writer.journal(pending, at);
      pending = [];
      if (!atOnce) {
        done.sends.push(...journaled);
        continue;
      }
      // An order that ended in memory is stored ended: its automation hears of it in this batch
      // too, or a process stopped before the next would have stored an automation that never does.
      for (const { entry, input } of this.actAtOnce(journaled, at, done)) {
        const live = this.running.get(entry.automationId);
        if (live) this.step(live, input, at, pending);
      }
      const more = placesIn(pending);
      if (pending.length > 0 && ((more > 0 && this.writer.needsIds(more)) || round === MAX_ROUNDS_AT_ONCE)) {
        this.takeCompanion();
        atOnce = false;
        await this.writer.reserveIds(more);
      }
    }
    if (atOnce) this.takeCompanion();
    // Those that stopped in this batch leave memory once it is stored, not with the one before.
    const stopped = [...this.stopped];
    this.stopped.clear();
    const sendsLater = done.sends.length > 0;
    if (sendsLater) this.unsentBatches += 1;
    const stored = settling();
    this.lastPrepared = stored.promise;
    return { at, done, stopped, sendsLater, stored, sealed: this.writer.seal(at, this.ports.clock().getTime()) };
  }

  /** Stores a prepared batch, then sends its orders; answers the automations whose part storage refused. */
  private async storeBatch(prepared: PreparedBatch): Promise<ReadonlyMap<number, unknown>> {
    try {
      const refused = await this.storeAndSend(prepared);
      prepared.stored.resolve();
      return refused;
    } catch (error) {
      prepared.stored.reject(error);
      throw error;
    } finally {
      if (prepared.sendsLater) this.unsentBatches -= 1;
    }
  }

  private async storeAndSend({ at, done, stopped, sealed }: PreparedBatch): Promise<ReadonlyMap<number, unknown>> {
    let refused, committed, storedPosition;
    try {
      ({ refused, committed, storedPosition } = await this.writer.save(sealed));
    } catch (error) {
      if (error instanceof StorageLostError) this.loseStorage(error);
      throw error;
    }
    if (storedPosition) this.ports.position?.stored(storedPosition);
    this.waitingForStorage = false;
    for (const entry of done.resting) {
      if (!refused.has(entry.automationId)) continue;
      // Its journal row was not stored: the order must not stay on the paper exchange either.
      this.ports.companion!.takeBack(entry.accountId, entry.pair, entry.clientOrderId);
      this.batchWanted = true;
    }
    for (const [id, reason] of refused) {
      if (reason instanceof LeaseLostError) this.leaseLost(reason);
      // What the paper exchange did with these orders (filled, cancelled) is done: their rows say so.
      else await this.quarantine(id, reason, at, done.ended.filter((entry) => entry.automationId === id && entry.status !== 'rejected'));
    }
    this.notifyCommitted(committed);
    for (const id of stopped) this.running.delete(id);
    await this.executor.execute(
      done.sends.filter((send) => !refused.has(send.entry.automationId)),
      at,
    );
    return refused;
  }

  /**
   * Places the orders on paper accounts held here, and makes the cancellations that can be made,
   * in memory; what is left is sent after the batch is stored (`done.sends`). An account's orders
   * and cancellations keep their order: after one that is sent later, the account's next ones are
   * sent later too. Answers what the automations are to hear of it (fills, closes, refusals).
   */
  private actAtOnce(journaled: readonly Send[], at: Date, done: DoneAtOnce): Array<{ entry: EngineOrder; input: EngineInput }> {
    const companion = this.ports.companion;
    if (!companion) {
      done.sends.push(...journaled);
      return [];
    }
    const heard: Array<{ entry: EngineOrder; input: EngineInput }> = [];
    for (const send of journaled) {
      const { entry } = send;
      const eligible =
        !done.sentLater.has(entry.accountId) && this.sources.attached(entry.accountId) && (this.ports.leases?.mayAct(entry.accountId) ?? true);
      let order, placed;
      try {
        if (!eligible) order = undefined;
        else if (send.type === 'cancel') order = companion.cancelResting(entry.accountId, entry.pair, entry.clientOrderId, dec(entry.filled));
        else if ((placed = companion.placeAtOnce(entry.accountId, send.request))) order = placed.order;
      } catch (error) {
        if (send.type === 'place' && error instanceof ExchangeError && error.kind !== 'unavailable') {
          heard.push({ entry, input: this.journal.reject(entry, error.kind, error.message, at) });
          done.ended.push(entry);
          continue;
        }
      }
      if (!order) {
        done.sentLater.add(entry.accountId);
        done.sends.push(send);
      } else {
        for (const { order: then, fill } of placed?.updates ?? []) for (const input of this.journal.apply(entry, then, fill, at)) heard.push({ entry, input });
        for (const input of this.journal.apply(entry, order, undefined, at)) heard.push({ entry, input });
        if (isFinal(entry)) done.ended.push(entry);
        else done.resting.push(entry);
      }
    }
    return heard;
  }

  /**
   * Stops an automation whose changes storage refused, at its last stored state: its kind marks it
   * stopped with the reason, and its log says why. Its earlier orders stay journaled, so their
   * fills are still recorded.
   */
  private async quarantine(id: number, reason: unknown, at: Date, endedOrders: EngineOrder[] = []): Promise<void> {
    const live = this.running.get(id) ?? this.writer.changed(id);
    this.untrack(id);
    this.stopped.delete(id);
    if (!live) return;
    const { kind, automation } = live;
    const message = `Stopped: its changes could not be stored (${reason instanceof Error ? reason.message : 'refused'})`;
    this.ports.logger.error({ err: reason, automationId: id }, 'automation quarantined');
    const stored = await this.ports.store.get(kind.name, id);
    const last = stored ? kind.fromJson((stored.state as StoredState).v) : automation.state;
    automation.state = kind.quarantine ? kind.quarantine(last, message) : last;
    automation.updatedAt = at;
    const record: QuarantineRecord = { kind: kind.name, userId: automation.userId, reason: message, at };
    try {
      await this.writer.storeAlone({
        automations: [{ id, running: false, state: { v: kind.toJson(automation.state) } satisfies StoredState, updatedAt: at }],
        events: [{ automationId: id, message, at }],
        orders: endedOrders,
        records: this.recordKinds.has(QUARANTINED) ? [{ kind: QUARANTINED, automationId: id, records: [record] }] : [],
      });
    } catch (error) {
      if (error instanceof StorageLostError) this.loseStorage(error);
      else this.ports.logger.error({ err: error, automationId: id }, 'the quarantine of an automation could not be stored');
      throw error;
    }
    // Streams show the stopped automation.
    this.notifyCommitted({
      automations: [{ id, kind: kind.name, userId: automation.userId, accountId: automation.accountId }],
      records: [],
      events: [{ automationId: id, message, at }],
      quarantined: [{ id, reason: message }],
    });
  }

  /** Told by the engine that runs the account only, so that engines sharing a database tell it once. */
  private connectionChanged(accountId: number, change: ConnectionChange): void {
    if (this.ports.leases && !this.ports.leases.owns(accountId)) return;
    const fields = { accountId, since: change.since, failures: change.failures, error: change.error };
    if (change.state === 'lost') this.ports.logger.warn(fields, 'exchange connection lost; orders wait until it is back');
    else this.ports.logger.info?.(fields, 'exchange connection recovered');
    for (const listener of this.connectionListeners) {
      try {
        listener(accountId, change);
      } catch (error) {
        this.ports.logger.error({ err: error }, 'connection listener failed');
      }
    }
  }

  /** Another engine took the account: what this one had in memory for it is stale, not wrong to store. */
  private leaseLost(error: LeaseLostError): void {
    for (const accountId of error.accountIds) {
      this.forgetAccount(accountId);
      this.ports.leases?.lost(accountId);
    }
  }

  private loseStorage(error: StorageLostError): void {
    if (this.storageLost) return;
    this.storageLost = error;
    this.inbox = [];
    this.ports.logger.error({ err: error }, 'storage lost; the engine stopped');
    this.ports.onStorageLost?.(error);
  }

  /** The clock of a new batch: see the invariants above. */
  private batchClock(items: readonly InboxItem[] = []): Date {
    let at = Math.max(this.ports.clock().getTime(), this.lastBatchAt);
    for (const item of items) at = Math.max(at, timeOf(item).getTime());
    this.lastBatchAt = at;
    return new Date(at);
  }

  private notifyCommitted(committed: CommittedBatch): void {
    if (committed.automations.length === 0 && committed.records.length === 0 && committed.events.length === 0) return;
    for (const listener of this.committedListeners) {
      try {
        listener(committed);
      } catch (error) {
        this.ports.logger.error({ err: error }, 'after-commit listener failed');
      }
    }
  }

  private context(live: Live, now: Date): StepContext {
    let lookups = this.sourceLookups.get(live.source);
    if (!lookups) {
      const { source } = live;
      lookups = {
        rules: (pair) => this.sources.rules(source, pair),
        price: (pair) => this.sources.ticker(source, pair),
      };
      this.sourceLookups.set(source, lookups);
    }
    return { now, rules: lookups.rules, price: lookups.price, nextId: this.nextId };
  }

  private readonly pairsOf = (live: Live): string[] => {
    const { kind, automation } = live;
    return kind.pairs?.(automation.state) ?? kind.watches(automation.state).map((watch) => watch.pair);
  };

  private async resume(stored: StoredAutomation): Promise<void> {
    const kind = this.kinds.get(stored.kind);
    if (!kind) {
      this.ports.logger.warn({ automationId: stored.id, kind: stored.kind }, 'no engine kind for a stored automation');
      return;
    }
    const live = await this.track(this.revive(kind, stored), kind).catch((error: unknown) => {
      this.ports.logger.error({ err: error, automationId: stored.id }, 'automation could not be resumed');
      return undefined;
    });
    if (!live) return;
    const state = stored.state as StoredState;
    for (const timer of state.timers ?? []) this.timers.schedule(stored.id, timer.key, new Date(timer.at));
    this.writer.seed(live, state, stored.storedSize);
  }

  private async track(automation: Automation<unknown>, kind: AnyAutomationKind): Promise<Live> {
    await this.sources.attach(automation.accountId);
    const live: Live = { automation, kind, source: this.sources.sourceOf(automation.accountId) };
    if (kind.isRunning(automation.state)) {
      this.running.set(automation.id, live);
      this.triggers.set(automation.id, live.source, kind.watches(automation.state));
    }
    return live;
  }

  private untrack(id: number): void {
    this.running.delete(id);
    this.triggers.remove(id);
    this.timers.cancelAll(id);
  }

  private async loadOne<S>(kind: AutomationKind<S, unknown, unknown>, id: number): Promise<Automation<S> | undefined> {
    const stored = await this.ports.store.get(kind.name, id);
    return stored && this.revive(kind, stored);
  }

  private revive<S>(kind: AutomationKind<S, unknown, unknown>, stored: StoredAutomation): Automation<S> {
    const { running: _running, tickSeq: _tickSeq, ...rest } = stored;
    return { ...rest, state: kind.fromJson((stored.state as StoredState).v) };
  }

  private run<T>(work: () => Promise<T>): Promise<T> {
    this.inFlight += 1;
    const result = this.queue.then(() => {
      this.started += 1;
      if (this.storageLost) throw new StorageUnavailableError('The engine stopped: storage was lost', { cause: this.storageLost });
      return work();
    });
    const finished = () => {
      this.inFlight -= 1;
      if (this.inFlight === 0) this.tellStepped();
    };
    this.queue = result.then(finished, finished);
    return result;
  }
}

/** A read of accounts' running automations and live orders, begun ahead of their load. */
export interface ReadAhead {
  accountIds: readonly number[];
  read: ReturnType<EngineStore['loadRunning']>;
  /** The engine work begun when the read began; undefined if some was queued or running then. */
  started: number | undefined;
}

/** A promise settled from outside; its rejection is for those who wait on it. */
function settling(): PreparedBatch['stored'] {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((yes, no) => ((resolve = yes), (reject = no)));
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/** The lowest and highest price a ticker shows. */
function bounds(ticker: Ticker): [Decimal, Decimal] {
  return [ticker.bid.lt(ticker.last) ? ticker.bid : ticker.last, ticker.ask.gt(ticker.last) ? ticker.ask : ticker.last];
}

/** The time an input carries: a tick's, a fill's, a timer's. */
function timeOf(item: InboxItem): Date {
  if (item.type === 'tick') return item.ticker.at;
  if (item.type === 'order') return item.update.fill?.at ?? item.update.order.updatedAt;
  return item.input.at;
}
