/**
 * Runs the paper exchange: market events from the price feed go through the venue, and every
 * change they cause is stored before the next batch is taken, so a restart loses nothing. Orders
 * placed or cancelled through an account's exchange are stored before the call returns. In a
 * process that runs an engine, the engine stores the changes in its batches (`storeThrough`).
 */
import type { MarketTick } from '../domain/market/market-tick.ts';
import type { Balance, Exchange, ExchangeOrder, Fill, Market, OrderRequest, OrderUpdate, Ticker } from '../exchanges/exchange.ts';
import { balancesText, type PaperChanges, type PaperFees, type PaperStateStore, type PaperWrite, type StoredPaperAccount } from '../exchanges/paper-state.ts';
import type { Sql } from '../store/database.ts';
import type { PriceFeed } from '../market-data/price-feed.ts';
import type { Decimal } from '../shared/decimal.ts';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { PaperCompanion } from './engine-store.ts';
import type { EngineLogger } from './engine.ts';
import type { LocksCorrected } from '../exchanges/paper/paper-venue.ts';

/** A paper account of the venue: its exchange, and placing and cancelling in memory at once. */
export interface PaperVenueAccount extends Exchange {
  placeAtOnce(request: OrderRequest): { order: ExchangeOrder; updates: OrderUpdate[] } | undefined;
  cancelResting(pair: string, clientOrderId: string, filled: Decimal): ExchangeOrder | undefined;
  cancel(pair: string, clientOrderId: string): ExchangeOrder;
}

/** What this runtime needs of the paper venue. */
export interface PaperVenuePort {
  markets(): Market[];
  ticker(pair: string): Ticker | undefined;
  openAccount(accountId: number, balances: readonly Balance[]): PaperVenueAccount;
  restoreAccounts(accounts: readonly StoredPaperAccount[], onLocksCorrected?: LocksCorrected): PaperVenueAccount[];
  setFees(accountId: number, fees: PaperFees): boolean;
  continueSequenceAfter(sequence: number): void;
  applyTick(tick: MarketTick): OrderUpdate[];
  drainChanges(): PaperChanges;
  hasChanges(): boolean;
  dropAccount(accountId: number): void;
  onTicker(listener: (ticker: Ticker) => void): () => void;
  useSequenceBlock(from: number, to: number): void;
  idsLeft(): number;
}

/**
 * Set when several engines share the database: the paper state of an account is its lease
 * holder's. Others read it afresh from storage on each use and never write it.
 */
export interface PaperOwnership {
  owns(accountId: number): boolean;
}

/** The engine, storing this runtime's changes in its batches (`storeThrough`). */
export interface PaperChangesHost {
  /** Stores what the venue changed that no batch took yet; resolves once it is stored. */
  storeCompanion(): Promise<void>;
  /**
   * Whether the engine's journal holds this order, and so records its fills on its row. Without
   * it, every fill keeps a row of its own.
   */
  journals?(accountId: number, clientOrderId: string): boolean;
}

/**
 * The engine as the host, read when asked: the engine takes the companion `storeThrough` makes
 * when it is made, so it comes after.
 */
export const engineHost = (engine: () => Required<PaperChangesHost>): PaperChangesHost => ({
  storeCompanion: () => engine().storeCompanion(),
  journals: (accountId, clientOrderId) => engine().journals(accountId, clientOrderId),
});

/**
 * An account's balances are logged with the event rows of at most so many batches in a row, then
 * written to its balances row: reading them looks at the event rows logged after that row.
 */
const BALANCES_LOGGED_AT_MOST = 64;

/** A new block of order ids is reserved when fewer than this are left. */
const IDS_LOW = 100_000;

export class PaperTrading {
  private readonly exchanges = new Map<number, Exchange>();
  /** The venue's account behind each stable exchange (replaced when read afresh). */
  private readonly venueAccounts = new Map<number, PaperVenueAccount>();
  private readonly orderListeners = new Map<number, Set<(update: OrderUpdate) => void>>();
  /** Venue work and its storage happen one at a time, in arrival order. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Inside `batch`, placements are stored once at its end instead of one by one. */
  private batching = false;
  /** Work queued or running: while there is any, new ticks wait their turn. */
  private inFlight = 0;
  /** Set by `storeThrough`: the engine stores the venue's changes. */
  private host: PaperChangesHost | undefined;
  /** Per account, the batches in a row that logged its balances with their event rows. */
  private readonly balancesLogged = new Map<number, number>();
  /** Marks the engine's own placements (`batch`), which its next batch stores. */
  private readonly engineBatch = new AsyncLocalStorage<true>();
  /**
   * With `storeThrough`, the open orders whose record is a paper order row of their own, by account
   * and client order id: placed from outside the engine, or stored so before. Every other order is
   * the engine's, recorded by its journal row; they are the many, and a set of them took about
   * 1.6 KB per 50-line grid bot.
   */
  private readonly ownRecords = new Map<number, Set<string>>();
  /** Accounts opened since the engine last took the changes: written unless another engine holds them. */
  private opened = new Set<number>();
  private reserving: Promise<void> | undefined;

  constructor(
    private readonly venue: PaperVenuePort,
    private readonly store: PaperStateStore,
    private readonly feed: PriceFeed,
    private readonly ownership?: PaperOwnership,
    private readonly logger?: Pick<EngineLogger, 'warn'>,
  ) {}

  /**
   * From now on the engine stores the venue's changes in its batch transactions (one process per
   * database): a fill is then stored with the journal row of its order, which is the order's only
   * record, and with what the automation did about it. Returns the companion the engine takes the
   * changes through; `host` stores those no batch took (an order placed from outside the engine).
   */
  storeThrough(host: PaperChangesHost): PaperCompanion {
    const writeIn = this.store.writeIn?.bind(this.store);
    if (!writeIn) throw new Error('This paper store cannot write in the engine’s transactions');
    this.host = host;
    return {
      hasChanges: () => this.venue.hasChanges(),
      placeAtOnce: (accountId, request) => {
        const placed = this.heldAccount(accountId)?.placeAtOnce(request);
        return placed && { order: { ...placed.order }, updates: placed.updates };
      },
      cancelResting: (accountId, pair, clientOrderId, filled) => {
        const order = this.heldAccount(accountId)?.cancelResting(pair, clientOrderId, filled);
        return order && { ...order };
      },
      takeBack: (accountId, pair, clientOrderId) => void this.heldAccount(accountId)?.cancel(pair, clientOrderId),
      take: () => {
        if (!this.venue.hasChanges()) return undefined;
        const changes = this.venue.drainChanges();
        const orders = changes.fills.length > 0 ? new Map(changes.orders.map(({ order }) => [order.id, order])) : undefined;
        for (const change of changes.fills) change.journaled = this.recordedByItsOrder(change.accountId, change.fill, orders!.get(change.fill.orderId));
        for (const change of changes.orders) {
          const own = this.ownRecords.get(change.accountId);
          if (own?.has(change.order.clientOrderId)) {
            if (change.order.status !== 'open') own.delete(change.order.clientOrderId);
            continue;
          }
          // An order the journal does not hold (its automation stopped before a restart) would
          // have no record of this change: it gets a paper order row, which also keeps a later
          // restart from putting it back on the book as its stale journal row shows it.
          change.journaled = this.host?.journals?.(change.accountId, change.order.clientOrderId) ?? true;
        }
        const opened = this.opened;
        this.opened = new Set();
        // Order ids come in blocks (load): a new one is reserved before this one runs out.
        if (this.store.reserveIds && this.venue.idsLeft() < IDS_LOW) this.reserving ??= this.reserveIds().catch(() => undefined).finally(() => (this.reserving = undefined));
        // Made when a store logs them (the SQL one, with the batch's event rows): the text of every
        // balance is work the memory store would throw away.
        const balances = () => {
          const texts = new Map<number, string>();
          for (const change of changes.balances) {
            if ((this.balancesLogged.get(change.accountId) ?? 0) < BALANCES_LOGGED_AT_MOST) texts.set(change.accountId, balancesText(change.balances));
          }
          return texts;
        };
        const write = async (tx: Sql, logged?: ReadonlySet<number>) => {
          for (const { accountId } of changes.balances) this.balancesLogged.set(accountId, logged?.has(accountId) ? (this.balancesLogged.get(accountId) ?? 0) + 1 : 0);
          for (const accountId of await writeIn(tx, changes, opened, logged)) this.leave(accountId);
        };
        return Object.assign(write, { balances });
      },
    };
  }

  /**
   * A maker fill that filled an order of the engine's journal at once: the order's journal row,
   * written with it, says all of it (the order's price, its amount and fee, the fill's time as
   * `filled_at`). An order the journal does not hold (its automation stopped before a restart,
   * say) keeps its fill rows.
   */
  private recordedByItsOrder(accountId: number, fill: Fill, order: ExchangeOrder | undefined): boolean {
    if (!fill.maker || order?.status !== 'filled' || !fill.amount.eq(order.amount)) return false;
    return !this.ownRecords.get(accountId)?.has(order.clientOrderId) && (this.host?.journals?.(accountId, order.clientOrderId) ?? false);
  }

  private markOwnRecord(accountId: number, clientOrderId: string): void {
    let own = this.ownRecords.get(accountId);
    if (!own) this.ownRecords.set(accountId, (own = new Set()));
    own.add(clientOrderId);
  }

  /** The venue's account, when this process holds it in memory as its own. */
  private heldAccount(accountId: number): PaperVenueAccount | undefined {
    if (this.ownership && !this.ownership.owns(accountId)) return undefined;
    return this.venueAccounts.get(accountId);
  }

  /** Nothing queued or running: whatever was applied is stored. */
  get idle(): boolean {
    return this.inFlight === 0;
  }

  get feedKind(): PriceFeed['kind'] {
    return this.feed.kind;
  }

  /**
   * Loads the stored state and starts the price feed. `afterTicks` runs after each batch of ticks
   * is applied (the engine handling what they caused), before the feed delivers the next.
   */
  async start(afterTicks: () => Promise<void> = async () => {}): Promise<void> {
    await this.load();
    await this.feed.start(async (ticks) => {
      await this.applyTicks(ticks);
      await afterTicks();
    });
  }

  /**
   * Puts every stored account that this process does not hold yet back into the venue. With
   * ownership, accounts are read one by one when used (`exchange`), and order ids come in blocks.
   */
  private async load(): Promise<void> {
    if (this.ownership) {
      await this.reserveIds();
      return;
    }
    const state = await this.store.load();
    this.venue.continueSequenceAfter(state.lastSequence);
    // The orders whose record is the engine's journal are not among the stored paper orders, so
    // their highest id is not known here: ids come in blocks never handed out before.
    if (this.host) await this.reserveIds();
    this.restore(state.accounts.filter((account) => !this.exchanges.has(account.accountId)));
  }

  private restore(accounts: readonly StoredPaperAccount[]): Exchange[] {
    for (const account of accounts) {
      const journaled = new Set(account.journaled);
      this.ownRecords.delete(account.accountId);
      for (const order of account.openOrders) if (!journaled.has(order.id)) this.markOwnRecord(account.accountId, order.clientOrderId);
    }
    const restored = this.venue.restoreAccounts(accounts, (accountId, corrected) =>
      this.logger?.warn(
        { accountId, corrected: corrected.map(({ currency, locked, backed }) => ({ currency, locked: locked.toFixed(), backed: backed.toFixed() })) },
        'paper account had funds locked that its open orders did not hold back: corrected',
      ),
    );
    return accounts.map((account, index) => this.track(account.accountId, restored[index]!));
  }

  /** One stable exchange per account, whichever venue account is behind it now. */
  private track(accountId: number, venueAccount: PaperVenueAccount): Exchange {
    this.venueAccounts.set(accountId, venueAccount);
    venueAccount.onOrderUpdate((update) => {
      if (this.venueAccounts.get(accountId) !== venueAccount) return;
      for (const listener of this.orderListeners.get(accountId) ?? []) listener(update);
    });
    let exchange = this.exchanges.get(accountId);
    if (!exchange) this.exchanges.set(accountId, (exchange = this.persisting(accountId, venueAccount.marketCode)));
    return exchange;
  }

  /** Reads the account afresh from storage (ownership only): it was taken, or another runs it. */
  private async reread(accountId: number): Promise<Exchange | undefined> {
    this.venue.dropAccount(accountId);
    this.venueAccounts.delete(accountId);
    const stored = await this.store.loadAccount!(accountId);
    return stored && this.restore([stored])[0];
  }

  /**
   * Reads the state of accounts this engine just took, together: read one by one on first use,
   * through this exchange's one queue, they made a takeover of 450 accounts take 15 s.
   */
  readAccounts(accountIds: readonly number[]): Promise<void> {
    const store = this.store;
    if (!this.ownership || !store.loadAccounts) return Promise.resolve();
    return this.serialized(async () => {
      const stored = await store.loadAccounts!(accountIds);
      for (const { accountId } of stored) {
        this.venue.dropAccount(accountId);
        this.venueAccounts.delete(accountId);
      }
      this.restore(stored);
    });
  }

  /** Forgets an account this engine no longer holds (lost, handed back); it is read afresh when used. */
  drop(accountId: number): Promise<void> {
    return this.serialized(async () => this.leave(accountId));
  }

  private async reserveIds(): Promise<void> {
    if (!this.store.reserveIds || this.venue.idsLeft() >= IDS_LOW) return;
    const block = await this.store.reserveIds();
    this.venue.useSequenceBlock(block.from, block.to);
  }

  /** Stores changes; with ownership, accounts whose changes were refused leave the venue. */
  private async save(changes: PaperChanges, write: PaperWrite = 'held'): Promise<void> {
    for (const accountId of (await this.store.save(changes, write)) ?? []) this.leave(accountId);
    if (this.ownership) await this.reserveIds();
  }

  /** An account whose changes storage refused (another engine holds it) leaves the venue. */
  private leave(accountId: number): void {
    this.venue.dropAccount(accountId);
    this.venueAccounts.delete(accountId);
    this.balancesLogged.delete(accountId);
  }

  async stop(): Promise<void> {
    await this.feed.stop();
    await this.queue;
  }

  markets(): Market[] {
    return this.venue.markets();
  }

  ticker(pair: string): Ticker | undefined {
    return this.venue.ticker(pair);
  }

  /** Creates the paper side of a new account with its starting balances. */
  async openAccount(accountId: number, balances: readonly Balance[]): Promise<Exchange> {
    if (this.host) {
      const exchange = await this.serialized(async () => {
        this.opened.add(accountId);
        return this.track(accountId, this.venue.openAccount(accountId, balances));
      });
      await this.host.storeCompanion();
      return exchange;
    }
    return this.serialized(async () => {
      const exchange = this.track(accountId, this.venue.openAccount(accountId, balances));
      await this.save(this.venue.drainChanges(), 'free');
      return exchange;
    });
  }

  /** Sets a paper account's maker and taker fees; false when there is no such paper account. */
  setFees(accountId: number, fees: PaperFees): Promise<boolean> {
    return this.serialized(async () => {
      if (this.ownership && !this.ownership.owns(accountId)) {
        if (!(await this.reread(accountId))) return false;
      }
      if (!this.venue.setFees(accountId, fees)) return false;
      await this.store.saveFees(accountId, fees);
      return true;
    });
  }

  /**
   * The account's exchange. An account created by another process sharing the database (a CLI
   * run against PostgreSQL) is loaded from storage first; one that was never stored starts empty.
   */
  async exchange(accountId: number): Promise<Exchange> {
    if (this.ownership) {
      const owned = this.ownership.owns(accountId);
      if (owned && this.venueAccounts.has(accountId)) return this.exchanges.get(accountId)!;
      const read = await this.serialized(() => this.reread(accountId));
      return read ?? this.openAccount(accountId, []);
    }
    const known = this.exchanges.get(accountId);
    if (known) return known;
    await this.serialized(() => this.load());
    const loaded = this.exchanges.get(accountId);
    if (loaded) return loaded;
    // When the engine stores the venue's changes, an empty account has nothing to store, and this
    // may be the engine's own call: waiting for it to store would wait for itself.
    if (this.host) return this.serialized(async () => this.track(accountId, this.venue.openAccount(accountId, [])));
    return this.openAccount(accountId, []);
  }

  /** Applies a batch of market events and stores what they changed; resolves with the fills. */
  applyTicks(ticks: MarketTick[]): Promise<OrderUpdate[]> {
    if (this.host) {
      // The engine stores what the ticks changed together with what it makes of the fills (the
      // fills reach it as the venue makes them).
      const { updates, stored } = this.applyTicksAtOnce(ticks);
      return stored ? stored.then(() => updates) : Promise.resolve(updates);
    }
    if (this.inFlight === 0) {
      // Nothing queued: the venue takes the ticks now, and storage is visited only for changes
      // (most ticks fill nothing).
      let updates: OrderUpdate[];
      try {
        updates = ticks.flatMap((tick) => this.venue.applyTick(tick));
      } catch (error) {
        return Promise.reject(error);
      }
      const changes = this.venue.drainChanges();
      if (changes.balances.length + changes.orders.length + changes.fills.length === 0) return Promise.resolve(updates);
      return this.serialized(async () => {
        await this.save(changes);
        return updates;
      });
    }
    return this.serialized(async () => {
      const updates = ticks.flatMap((tick) => this.venue.applyTick(tick));
      await this.save(this.venue.drainChanges());
      return updates;
    });
  }

  /**
   * With the engine storing the paper exchange's changes: applies market events now and answers
   * their updates at once, with `stored`, resolved once the engine's batch holding what they
   * changed is stored (undefined when they changed nothing: most ticks, and a backtest makes no
   * promise for them). A caller that only needs the automations to have answered them waits for
   * `Engine.stepped` instead, and the next events are applied while that batch is stored.
   */
  applyTicksAtOnce(ticks: MarketTick[]): { updates: OrderUpdate[]; stored: Promise<void> | undefined } {
    if (!this.host) throw new Error('Only the engine stores the paper exchange changes that ticks make at once');
    const updates = ticks.flatMap((tick) => this.venue.applyTick(tick));
    return { updates, stored: this.venue.hasChanges() ? this.host.storeCompanion() : undefined };
  }

  /** Runs several placements and cancellations, storing what they changed once at the end. */
  batch<T>(work: () => Promise<T>): Promise<T> {
    // The engine's next batch stores them, with the answers it journals.
    if (this.host) return this.engineBatch.run(true, work);
    if (this.batching) return work();
    return this.serialized(async () => {
      this.batching = true;
      try {
        return await work();
      } finally {
        this.batching = false;
        await this.save(this.venue.drainChanges());
      }
    });
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    this.inFlight += 1;
    const result = this.queue.then(work);
    this.queue = result.then(
      () => void (this.inFlight -= 1),
      () => void (this.inFlight -= 1),
    );
    return result;
  }

  /**
   * The account's exchange, with placements and cancellations stored before they return. It
   * reaches whichever venue account is current, read afresh when the account was dropped.
   */
  private persisting(accountId: number, marketCode: string): Exchange {
    const current = async (): Promise<Exchange> => {
      const known = this.venueAccounts.get(accountId);
      if (known && (!this.ownership || this.ownership.owns(accountId))) return known;
      // Inside a batch the queue is already this caller's.
      if (this.batching) await this.reread(accountId);
      else await this.exchange(accountId);
      const now = this.venueAccounts.get(accountId);
      if (!now) throw new Error(`Paper account ${accountId} is not stored`);
      return now;
    };
    /** `placing`: the client order id of an order placed. */
    const store = async <T>(action: (exchange: Exchange) => Promise<T>, placing?: string) => {
      const exchange = await current();
      if (this.host) {
        if (this.engineBatch.getStore()) return action(exchange);
        // Marked before the venue has it: a batch may take the placement's changes at any await.
        if (placing !== undefined) this.markOwnRecord(accountId, placing);
        try {
          return await action(exchange);
        } catch (error) {
          if (placing !== undefined) this.ownRecords.get(accountId)?.delete(placing);
          throw error;
        } finally {
          await this.host.storeCompanion();
        }
      }
      if (this.batching) return action(exchange);
      return this.serialized(async () => {
        try {
          return await action(exchange);
        } finally {
          await this.save(this.venue.drainChanges());
        }
      });
    };
    return {
      marketCode,
      markets: async () => (await current()).markets(),
      ticker: async (pair) => (await current()).ticker(pair),
      balances: async () => (await current()).balances(),
      openOrders: async (pair) => (await current()).openOrders(pair),
      findOrder: async (pair, clientOrderId) => {
        const order = (await (await current()).findOrder(pair, clientOrderId)) ?? (await this.store.findOrder(accountId, clientOrderId));
        return order?.pair === pair ? order : undefined;
      },
      onOrderUpdate: (listener) => {
        let listeners = this.orderListeners.get(accountId);
        if (!listeners) this.orderListeners.set(accountId, (listeners = new Set()));
        listeners.add(listener);
        return () => void listeners.delete(listener);
      },
      onTicker: (listener) => this.venue.onTicker(listener),
      placeOrder: (request: OrderRequest) => store((exchange) => exchange.placeOrder(request), request.clientOrderId),
      cancelOrder: (pair, clientOrderId) => store((exchange) => exchange.cancelOrder(pair, clientOrderId)),
    };
  }
}
