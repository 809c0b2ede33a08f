/**
 * Runs the paper exchange: market events from the price feed go through the venue, and every
 * change they cause is stored before the next batch is taken, so a restart loses nothing. Orders
 * placed or cancelled through an account's exchange are stored before the call returns.
 */
import type { MarketTick } from '../domain/market/market-tick.ts';
import type { Balance, Exchange, ExchangeOrder, Market, OrderRequest, OrderUpdate, Ticker } from '../exchanges/exchange.ts';
import type { PaperChanges, PaperFees, PaperStateStore } from '../exchanges/paper-state.ts';
import type { PriceFeed } from '../market-data/price-feed.ts';

/** What this runtime needs of the paper venue. */
export interface PaperVenuePort {
  markets(): Market[];
  ticker(pair: string): Ticker | undefined;
  openAccount(accountId: number, balances: readonly Balance[]): Exchange;
  restoreAccount(accountId: number, balances: readonly Balance[], openOrders: readonly ExchangeOrder[], fees?: PaperFees): Exchange;
  setFees(accountId: number, fees: PaperFees): boolean;
  continueSequenceAfter(sequence: number): void;
  applyTick(tick: MarketTick): OrderUpdate[];
  drainChanges(): PaperChanges;
}

export class PaperTrading {
  private readonly exchanges = new Map<number, Exchange>();
  /** Venue work and its storage happen one at a time, in arrival order. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Inside `batch`, placements are stored once at its end instead of one by one. */
  private batching = false;
  /** Work queued or running: while there is any, new ticks wait their turn. */
  private inFlight = 0;

  constructor(
    private readonly venue: PaperVenuePort,
    private readonly store: PaperStateStore,
    private readonly feed: PriceFeed,
  ) {}

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

  /** Puts every stored account that this process does not hold yet back into the venue. */
  private async load(): Promise<void> {
    const state = await this.store.load();
    this.venue.continueSequenceAfter(state.lastSequence);
    for (const account of state.accounts) {
      if (this.exchanges.has(account.accountId)) continue;
      const restored = this.venue.restoreAccount(account.accountId, account.balances, account.openOrders, account.fees);
      this.exchanges.set(account.accountId, this.persisting(account.accountId, restored));
    }
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
  openAccount(accountId: number, balances: readonly Balance[]): Promise<Exchange> {
    return this.serialized(async () => {
      const exchange = this.persisting(accountId, this.venue.openAccount(accountId, balances));
      this.exchanges.set(accountId, exchange);
      await this.store.save(this.venue.drainChanges());
      return exchange;
    });
  }

  /** Sets a paper account's maker and taker fees; false when there is no such paper account. */
  setFees(accountId: number, fees: PaperFees): Promise<boolean> {
    return this.serialized(async () => {
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
    const known = this.exchanges.get(accountId);
    if (known) return known;
    await this.serialized(() => this.load());
    return this.exchanges.get(accountId) ?? this.openAccount(accountId, []);
  }

  /** Applies a batch of market events and stores what they changed; resolves with the fills. */
  applyTicks(ticks: MarketTick[]): Promise<OrderUpdate[]> {
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
        await this.store.save(changes);
        return updates;
      });
    }
    return this.serialized(async () => {
      const updates = ticks.flatMap((tick) => this.venue.applyTick(tick));
      await this.store.save(this.venue.drainChanges());
      return updates;
    });
  }

  /** Runs several placements and cancellations, storing what they changed once at the end. */
  batch<T>(work: () => Promise<T>): Promise<T> {
    if (this.batching) return work();
    return this.serialized(async () => {
      this.batching = true;
      try {
        return await work();
      } finally {
        this.batching = false;
        await this.store.save(this.venue.drainChanges());
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

  /** The account's exchange, with placements and cancellations stored before they return. */
  private persisting(accountId: number, exchange: Exchange): Exchange {
    const store = async <T>(action: () => Promise<T>) => {
      if (this.batching) return action();
      return this.serialized(async () => {
        try {
          return await action();
        } finally {
          await this.store.save(this.venue.drainChanges());
        }
      });
    };
    return {
      marketCode: exchange.marketCode,
      markets: () => exchange.markets(),
      ticker: (pair) => exchange.ticker(pair),
      balances: () => exchange.balances(),
      openOrders: (pair) => exchange.openOrders(pair),
      findOrder: async (pair, clientOrderId) => {
        const order = (await exchange.findOrder(pair, clientOrderId)) ?? (await this.store.findOrder(accountId, clientOrderId));
        return order?.pair === pair ? order : undefined;
      },
      onOrderUpdate: (listener) => exchange.onOrderUpdate(listener),
      onTicker: (listener) => exchange.onTicker(listener),
      placeOrder: (request: OrderRequest) => store(() => exchange.placeOrder(request)),
      cancelOrder: (pair, clientOrderId) => store(() => exchange.cancelOrder(pair, clientOrderId)),
    };
  }
}
