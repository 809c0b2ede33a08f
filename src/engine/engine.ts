/**
 * The engine runtime: runs every automation's pure step function on market events, fills, timers
 * and user actions; turns their commands into exchange orders with deterministic client order ids;
 * stores state, events and the order journal per batch; and recovers after a crash.
 *
 * Invariants:
 * - All engine work runs one batch at a time, in arrival order.
 * - A batch is stored (one transaction) before any order it asks for is sent, so an order is
 *   always journaled before it exists, and a replayed command reuses its client order id.
 * - On start, every journaled order still pending or open is looked up on its exchange: fills the
 *   automation missed are delivered, orders never sent are sent, cancellations are repeated.
 */
import type { Command, EngineInput, StepContext } from '../domain/automation.ts';
import type { Exchange, Ticker } from '../exchanges/exchange.ts';
import type { AnyAutomationKind, Automation, AutomationKind, EngineOrder, LiveAutomation, StoredEvent } from './automation-kind.ts';
import { BatchWriter, type PendingCommand } from './batch-writer.ts';
import type { AutomationFilter, EngineStore, RecordWriter, StoredAutomation } from './engine-store.ts';
import { MarketSources } from './market-sources.ts';
import { type ExecutorEvent, OrderExecutor } from './order-executor.ts';
import { OrderJournal } from './order-journal.ts';
import { PriceTriggers } from './price-triggers.ts';
import { Timers } from './timers.ts';

export interface EngineLogger {
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface EnginePorts {
  store: EngineStore;
  exchangeFor(accountId: number): Promise<Exchange>;
  /** Runs a group of order placements as one unit (the paper exchange stores them together). */
  batchOrders?: <T>(work: () => Promise<T>) => Promise<T>;
  clock: () => Date;
  logger: EngineLogger;
  kinds: readonly AnyAutomationKind[];
}

type InboxItem =
  | { type: 'tick'; source: string; ticker: Ticker }
  | { type: 'input'; automationId: number; input: EngineInput }
  | ExecutorEvent;

type Live = LiveAutomation;

/** Stored state: the kind's own JSON plus the engine's pending timers for it. */
interface StoredState {
  v: unknown;
  timers?: Array<{ key: string; at: string }>;
}

const TIMER_CHECK_MS = 1000;

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
  private timerCheck: NodeJS.Timeout | undefined;

  constructor(private readonly ports: EnginePorts) {
    for (const kind of ports.kinds) this.kinds.set(kind.name, kind);
    this.sources = new MarketSources(ports.exchangeFor, {
      onTicker: (source, ticker) => this.enqueue({ type: 'tick', source, ticker }),
      onOrderUpdate: (accountId, update) => this.enqueue({ type: 'order', accountId, update }),
    });
    this.writer = new BatchWriter(ports.store, this.journal, this.timers);
    this.executor = new OrderExecutor(this.sources, this.journal, ports, (item) => this.enqueue(item));
  }

  registerRecordWriter(kindName: string, write: RecordWriter): void {
    this.ports.store.registerRecordWriter(kindName, write);
  }

  /** Loads running automations, reconciles their orders with the exchanges, and starts timers. */
  async start(): Promise<void> {
    await this.run(async () => {
      const { automations, liveOrders } = await this.ports.store.loadRunning();
      for (const order of liveOrders) this.journal.add(order);
      for (const stored of automations) await this.resume(stored);
      await this.executor.reconcile(this.journal.all(), this.ports.clock());
      await this.drain();
    });
    this.timerCheck = setInterval(() => this.enqueueDueTimers(this.ports.clock()), TIMER_CHECK_MS);
    this.timerCheck.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timerCheck);
    await this.settled();
  }

  async create<S, A>(
    kind: AutomationKind<S, A, unknown>,
    init: { userId: number; accountId: number; state: S },
    action?: A,
  ): Promise<Automation<S>> {
    const at = this.ports.clock();
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
        const automation = known ?? (await this.load(kind, id));
        if (!automation) throw new Error(`No ${kind.name} ${id}`);
        live = await this.track(automation as Automation<unknown>, kind);
      }
      await this.sources.prime(live.automation.accountId, this.pairsOf(live));
      await this.writer.reserveIds();
      const batch: PendingCommand[] = [];
      const result = this.step(live, action as EngineInput, this.ports.clock(), batch, true);
      await this.commit(batch);
      await this.drain();
      return { ...live.automation, state: result.state } as Automation<S>;
    });
  }

  async get<S>(kind: AutomationKind<S, unknown, unknown>, id: number): Promise<Automation<S> | undefined> {
    const live = this.running.get(id);
    if (live) return live.kind === kind ? (live.automation as Automation<S>) : undefined;
    return this.load(kind, id);
  }

  async list<S>(kind: AutomationKind<S, unknown, unknown>, filter: AutomationFilter): Promise<Automation<S>[]> {
    const rows = await this.ports.store.list(kind.name, filter);
    return rows.map((row) => (this.running.get(row.id)?.automation as Automation<S>) ?? this.revive(kind, row));
  }

  /** Forgets an automation and its stored history; its orders must have been cancelled already. */
  remove(kind: AutomationKind<unknown, unknown, unknown>, id: number): Promise<void> {
    return this.run(async () => {
      const live = this.running.get(id);
      if (live && live.kind !== kind) return;
      this.untrack(id);
      await this.ports.store.remove(id);
    });
  }

  orders(automationId: number): Promise<EngineOrder[]> {
    return this.ports.store.orders(automationId);
  }

  events(automationId: number, page: { limit: number; offset: number }): Promise<StoredEvent[]> {
    return this.ports.store.events(automationId, page);
  }

  /** Resolves when every event received so far has been handled and stored. */
  settled(): Promise<void> {
    return this.run(() => this.drain());
  }

  private enqueue(item: InboxItem): void {
    this.inbox.push(item);
    if (this.drainScheduled) return;
    this.drainScheduled = true;
    void this.run(() => this.drain()).catch((error: unknown) =>
      this.ports.logger.error({ err: error }, 'engine batch failed'),
    );
  }

  private enqueueDueTimers(now: Date): void {
    for (const timer of this.timers.due(now)) {
      this.enqueue({ type: 'input', automationId: timer.automationId, input: { type: 'timer', key: timer.key, at: timer.at } });
    }
  }

  private async drain(): Promise<void> {
    this.drainScheduled = false;
    while (this.inbox.length > 0) {
      const items = this.inbox;
      this.inbox = [];
      await this.writer.reserveIds();
      const batch: PendingCommand[] = [];
      for (const item of items) this.handle(item, batch);
      await this.commit(batch);
      if (items.some((item) => item.type === 'tick')) await this.executor.retryUnconfirmed(this.ports.clock());
    }
  }

  private handle(item: InboxItem, batch: PendingCommand[]): void {
    if (item.type === 'tick') {
      const { source, ticker } = item;
      this.sources.noteTicker(source, ticker);
      this.enqueueDueTimers(ticker.at);
      const low = ticker.bid.lt(ticker.last) ? ticker.bid : ticker.last;
      const high = ticker.ask.gt(ticker.last) ? ticker.ask : ticker.last;
      const input: EngineInput = { type: 'tick', pair: ticker.pair, price: ticker.last, bid: ticker.bid, ask: ticker.ask, at: ticker.at };
      for (const id of this.triggers.crossed(source, ticker.pair, low, high)) {
        const live = this.running.get(id);
        if (live) this.step(live, input, ticker.at, batch);
      }
    } else if (item.type === 'order') {
      const { order, fill } = item.update;
      const entry = this.journal.find(item.accountId, order.clientOrderId);
      if (!entry) return;
      const at = fill?.at ?? order.updatedAt;
      const inputs = this.journal.apply(entry, order, fill, at);
      this.writer.noteOrder(entry);
      const live = this.running.get(entry.automationId);
      if (live) for (const input of inputs) this.step(live, input, at, batch);
    } else if (item.type === 'journal') {
      this.writer.noteOrder(item.entry);
      const live = this.running.get(item.entry.automationId);
      if (live) this.step(live, item.input, item.input.at, batch);
    } else {
      const live = this.running.get(item.automationId);
      if (live) this.step(live, item.input, item.input.at, batch);
    }
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
    this.writer.noteStep(live, result);
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

  /** Stores the batch, then sends its orders; automations that stopped leave memory. */
  private async commit(batch: PendingCommand[]): Promise<void> {
    await this.writer.reserveIds(batch.filter((pending) => pending.command.type === 'place_order').length);
    const sends = this.writer.journal(batch, this.ports.clock());
    await this.writer.flush();
    for (const id of this.stopped) this.running.delete(id);
    this.stopped.clear();
    await this.executor.execute(sends, this.ports.clock());
  }

  private context(live: Live, now: Date): StepContext {
    const { source } = live;
    return {
      now,
      rules: (pair) => this.sources.rules(source, pair),
      price: (pair) => this.sources.ticker(source, pair),
      nextId: () => this.writer.nextId(),
    };
  }

  private pairsOf(live: Live): string[] {
    const { kind, automation } = live;
    return kind.pairs?.(automation.state) ?? kind.watches(automation.state).map((watch) => watch.pair);
  }

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
    for (const timer of (stored.state as StoredState).timers ?? []) {
      if (live) this.timers.schedule(stored.id, timer.key, new Date(timer.at));
    }
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

  private async load<S>(kind: AutomationKind<S, unknown, unknown>, id: number): Promise<Automation<S> | undefined> {
    const stored = await this.ports.store.get(kind.name, id);
    return stored && this.revive(kind, stored);
  }

  private revive<S>(kind: AutomationKind<S, unknown, unknown>, stored: StoredAutomation): Automation<S> {
    const { running: _running, ...rest } = stored;
    return { ...rest, state: kind.fromJson((stored.state as StoredState).v) };
  }

  private run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work);
    this.queue = result.catch(() => undefined);
    return result;
  }
}
