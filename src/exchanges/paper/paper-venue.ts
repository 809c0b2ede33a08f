/**
 * The paper exchange: markets with real trading rules, one order book per pair shared by all paper
 * accounts, and fills driven only by the market events it is given. The same events in the same
 * order give the same fills to the last digit; nothing here reads a clock or a random source.
 */
import { type Decimal, roundToStep, ZERO } from '../../shared/decimal.ts';
import { ruleViolations, VIOLATION_MESSAGES } from '../../domain/market/trading-rules.ts';
import { type ExchangeOrder, ExchangeError, type Fill, type Market, type OrderSide, type OrderUpdate, type Ticker } from '../exchange.ts';
import { DEFAULT_FEES, type FeeSchedule, fixedSlippage, type SlippageModel } from './fill-models.ts';
import type { MarketTick } from '../../domain/market/market-tick.ts';
import type { PaperChanges, PaperFees } from '../paper-state.ts';
import { OrderBook, priceRank, type RestingOrder } from './order-book.ts';
import { PaperAccount } from './paper-account.ts';
import type { Balance } from '../exchange.ts';


export interface PaperVenueOptions {
  slippage?: SlippageModel;
  fees?: FeeSchedule;
}


/** An account as storage kept it: `fees` undefined when it pays the default ones. */
export interface RestoredAccount {
  accountId: number;
  balances: readonly Balance[];
  openOrders: readonly ExchangeOrder[];
  fees?: PaperFees | undefined;
}

/**
 * The book's entry of a resting order, with the account and order it fills (its only record). Its
 * id, side and price are the order's: one entry per resting order, and fields of their own took
 * a quarter of it.
 */
class RestingEntry implements RestingOrder {
  readonly sequence: number;
  readonly rank: number;
  remaining: Decimal;

  constructor(
    readonly account: PaperAccount,
    readonly order: ExchangeOrder,
  ) {
    this.sequence = orderSequence(order.id);
    this.rank = priceRank(order.price!);
    // The order's own amount while nothing filled: one decimal fewer per resting order.
    this.remaining = order.filled.isZero() ? order.amount : order.amount.minus(order.filled);
  }

  get id(): string {
    return this.order.id;
  }

  get side(): OrderSide {
    return this.order.side;
  }

  get price(): Decimal {
    return this.order.price!;
  }
}

/** Funds an account had locked that its open orders did not hold back (or the reverse), corrected on restore. */
export type LocksCorrected = (accountId: number, corrected: ReturnType<PaperAccount['settleLocks']>) => void;

export class PaperVenue {
  readonly marketCode = 'paper_trading';
  readonly slippage: SlippageModel;
  readonly defaultFees: FeeSchedule;
  private readonly marketsByPair = new Map<string, Market>();
  private readonly tickers = new Map<string, Ticker>();
  private readonly books = new Map<string, OrderBook<RestingEntry>>();
  private readonly accounts = new Map<number, PaperAccount>();
  private readonly tickerListeners = new Set<(ticker: Ticker) => void>();
  private sequence = 0;
  private sequenceEnd = Number.POSITIVE_INFINITY;
  private changedAccounts = new Set<PaperAccount>();
  private changedOrders = new Map<string, { accountId: number; order: ExchangeOrder }>();
  private newFills: Array<{ accountId: number; fill: Fill }> = [];

  constructor(markets: readonly Market[], options: PaperVenueOptions = {}) {
    for (const market of markets) {
      this.marketsByPair.set(market.pair, market);
      this.books.set(market.pair, new OrderBook());
    }
    this.slippage = options.slippage ?? fixedSlippage(0);
    this.defaultFees = options.fees ?? DEFAULT_FEES;
  }

  markets(): Market[] {
    return [...this.marketsByPair.values()];
  }

  market(pair: string): Market {
    const market = this.marketsByPair.get(pair);
    if (!market) throw new ExchangeError('unknown_market', `Unknown pair ${pair} on paper_trading`);
    return market;
  }

  ticker(pair: string): Ticker | undefined {
    return this.tickers.get(pair);
  }

  openAccount(accountId: number, balances: readonly Balance[], fees = this.defaultFees): PaperAccount {
    const existing = this.accounts.get(accountId);
    if (existing) return existing;
    const account = new PaperAccount(this, accountId, balances, fees);
    this.accounts.set(accountId, account);
    // Starting balances are a change too: without it an idle new account would not be stored.
    this.noteChange(account);
    return account;
  }

  /** Changes an account's fees for its future fills; false when there is no such account. */
  setFees(accountId: number, fees: FeeSchedule): boolean {
    const account = this.accounts.get(accountId);
    account?.setFees(fees);
    return account !== undefined;
  }

  onTicker(listener: (ticker: Ticker) => void): () => void {
    this.tickerListeners.add(listener);
    return () => this.tickerListeners.delete(listener);
  }

  /**
   * Puts back accounts as stored: balances and open orders, resting again in the books, put there
   * together (`OrderBook.addAll`), with what is locked made what the orders hold back
   * (`PaperAccount.settleLocks`). The order sequence continues after the highest id seen.
   */
  restoreAccounts(stored: readonly RestoredAccount[], onLocksCorrected: LocksCorrected = () => {}): PaperAccount[] {
    const byPair = new Map<string, RestingEntry[]>();
    const accounts = stored.map(({ accountId, balances, openOrders, fees }) => {
      const held = this.accounts.has(accountId);
      const account = this.openAccount(accountId, balances, fees ?? this.defaultFees);
      for (const order of openOrders) {
        account.adopt(order);
        const entry = new RestingEntry(account, order);
        const entries = byPair.get(order.pair);
        if (entries) entries.push(entry);
        else byPair.set(order.pair, [entry]);
        if (this.sequenceEnd === Number.POSITIVE_INFINITY) this.sequence = Math.max(this.sequence, orderSequence(order.id));
      }
      if (held) return account;
      // Balances as stored need no storing again, unless they were corrected.
      account.ledger.takeMoved();
      const corrected = account.settleLocks();
      if (corrected.length > 0) onLocksCorrected(accountId, corrected);
      else this.changedAccounts.delete(account);
      return account;
    });
    for (const [pair, entries] of byPair) this.books.get(pair)!.addAll(entries);
    return accounts;
  }

  /**
   * Forgets an account and takes its orders off the books, with its changes not yet drained: the
   * account is another engine's now, or is read afresh from storage.
   */
  dropAccount(accountId: number): void {
    const account = this.accounts.get(accountId);
    if (!account) return;
    for (const order of account.open()) this.unrest(order);
    this.accounts.delete(accountId);
    this.changedAccounts.delete(account);
    for (const [orderId, changed] of this.changedOrders) if (changed.accountId === accountId) this.changedOrders.delete(orderId);
    this.newFills = this.newFills.filter((fill) => fill.accountId !== accountId);
  }

  /** Order ids from `from` on, up to `to` (a block reserved in storage shared with other venues). */
  useSequenceBlock(from: number, to: number): void {
    this.sequence = from - 1;
    this.sequenceEnd = to;
  }

  /** How many order ids the current block has left (none before a block is given). */
  idsLeft(): number {
    return this.sequenceEnd === Number.POSITIVE_INFINITY ? 0 : this.sequenceEnd - this.sequence;
  }

  /** Continues order ids after `sequence` (the highest stored, including closed orders). */
  continueSequenceAfter(sequence: number): void {
    this.sequence = Math.max(this.sequence, sequence);
  }

  noteChange(account: PaperAccount, order?: ExchangeOrder, fill?: Fill): void {
    this.changedAccounts.add(account);
    if (order) this.changedOrders.set(order.id, { accountId: account.accountId, order: { ...order } });
    if (fill) this.newFills.push({ accountId: account.accountId, fill });
  }

  hasChanges(): boolean {
    return this.changedAccounts.size > 0 || this.changedOrders.size > 0 || this.newFills.length > 0;
  }

  drainChanges(): PaperChanges {
    // Most ticks change nothing: no new collections for them.
    if (!this.hasChanges()) return { balances: [], orders: [], fills: [] };
    const changes: PaperChanges = {
      balances: [...this.changedAccounts]
        .filter((account) => account.ledger.takeMoved())
        .map((account) => ({ accountId: account.accountId, balances: account.ledger.balances() })),
      orders: [...this.changedOrders.values()],
      fills: this.newFills,
    };
    this.changedAccounts = new Set();
    this.changedOrders = new Map();
    this.newFills = [];
    return changes;
  }

  nextOrderId(): string {
    this.sequence += 1;
    return `P${this.sequence}`;
  }

  /** Checks an order against the market's rules as a live exchange would; throws on a violation. */
  enforceRules(market: Market, order: Parameters<typeof ruleViolations>[1]): void {
    const ticker = this.tickers.get(market.pair);
    const violations = ruleViolations(market.rules, order, ticker);
    if (violations.length > 0) {
      throw new ExchangeError('rule_violation', violations.map((v) => VIOLATION_MESSAGES[v]).join('; '));
    }
  }

  rest(account: PaperAccount, order: ExchangeOrder): void {
    this.books.get(order.pair)!.add(new RestingEntry(account, order));
  }

  /** Takes an open limit order off its book (a cancellation, an account dropped). */
  unrest(order: ExchangeOrder): void {
    if (order.price === null) return;
    this.books.get(order.pair)?.remove({ id: order.id, sequence: orderSequence(order.id), side: order.side, price: order.price, rank: priceRank(order.price) });
  }

  /** Applies one market event and returns the order updates (fills) it caused, in order. */
  applyTick(tick: MarketTick): OrderUpdate[] {
    const market = this.market(tick.pair);
    const ticker: Ticker = {
      pair: tick.pair,
      bid: tick.bid ?? tick.price,
      ask: tick.ask ?? tick.price,
      last: tick.price,
      at: tick.at,
    };
    this.tickers.set(tick.pair, ticker);
    // The price is announced before the fills it causes, so whoever hears both sees them in that order.
    for (const listener of this.tickerListeners) listener(ticker);
    const book = this.books.get(market.pair)!;
    const matches =
      tick.volume === undefined
        ? book.matchQuote(ticker.bid, ticker.ask)
        : book.matchTrade(tick.price, tick.volume);
    const updates: OrderUpdate[] = [];
    for (const { order: resting, amount } of matches) {
      updates.push(resting.account.fillResting(resting.order, amount, tick.at));
    }
    return updates;
  }

  /** Rounds a market execution price to the pair's price step. */
  executionPrice(market: Market, side: 'buy' | 'sell', amount: Decimal): Decimal {
    const ticker = this.tickers.get(market.pair);
    if (!ticker || ticker.last.lte(ZERO)) {
      throw new ExchangeError('unavailable', `No price yet for ${market.pair}; a market order needs one`);
    }
    const touch = side === 'buy' ? ticker.ask : ticker.bid;
    return roundToStep(this.slippage(side, touch, amount), market.rules.priceStep).clamp(
      market.rules.minPrice,
      market.rules.maxPrice,
    );
  }
}


export function orderSequence(orderId: string): number {
  return Number(orderId.slice(1));
}
