/**
 * One paper account on the paper venue, behind the exchange port. Limit orders lock funds and
 * rest; fills of resting orders pay the maker fee, fills at placement the taker fee. Fees are
 * charged in the currency received (base for buys, quote for sells), as spot exchanges do.
 */
import { type Decimal, plus, ZERO } from '../../shared/decimal.ts';
import {
  type Balance,
  type Exchange,
  ExchangeError,
  type ExchangeOrder,
  type Market,
  type OrderRequest,
  type OrderUpdate,
  type Ticker,
  type Unsubscribe,
} from '../exchange.ts';
import type { FeeSchedule } from './fill-models.ts';
import { PaperLedger } from './paper-ledger.ts';
import type { PaperVenue } from './paper-venue.ts';

/**
 * Closed orders kept in memory, so a repeated placement still returns the first order; older ones
 * are only in storage (findOrder reads it). The engine never repeats a placement that far back:
 * its journal knows every order it sent.
 */
const RECENTLY_CLOSED = 8;

export class PaperAccount implements Exchange {
  readonly marketCode = 'paper_trading';
  readonly ledger: PaperLedger;
  /** Open orders by client order id. Closed ones move to `closed`, so memory follows open orders only. */
  private readonly orders = new Map<string, ExchangeOrder>();
  private readonly closed = new Map<string, ExchangeOrder>();
  /** The keys of `closed`, oldest first from `oldestClosed` round the ring. */
  private readonly closedRing: string[] = [];
  private oldestClosed = 0;
  private readonly orderListeners = new Set<(update: OrderUpdate) => void>();

  constructor(
    private readonly venue: PaperVenue,
    readonly accountId: number,
    balances: readonly Balance[],
    private fees: FeeSchedule,
  ) {
    this.ledger = new PaperLedger(balances);
  }

  async markets(): Promise<Market[]> {
    return this.venue.markets();
  }

  async ticker(pair: string): Promise<Ticker> {
    this.venue.market(pair);
    const ticker = this.venue.ticker(pair);
    if (!ticker) throw new ExchangeError('unavailable', `No price yet for ${pair}`);
    return ticker;
  }

  async balances(): Promise<Balance[]> {
    return this.ledger.balances();
  }

  /** The open orders themselves (not copies), for the venue. */
  open(): IterableIterator<ExchangeOrder> {
    return this.orders.values();
  }

  async openOrders(pair?: string): Promise<ExchangeOrder[]> {
    return [...this.orders.values()].filter(
      (order) => order.status === 'open' && (pair === undefined || order.pair === pair),
    );
  }

  async placeOrder(request: OrderRequest): Promise<ExchangeOrder> {
    return this.place(request).order;
  }

  /**
   * Places an order and returns it with the updates it caused at once (taker fills). Its time is
   * that of the pair's last market event, which keeps replays deterministic.
   */
  place(request: OrderRequest): { order: ExchangeOrder; updates: OrderUpdate[] } {
    const existing = this.known(request.clientOrderId);
    if (existing) return { order: existing, updates: [] };
    const market = this.venue.market(request.pair);
    const time = this.venue.ticker(request.pair)?.at ?? new Date(0);
    const updates =
      request.type === 'market'
        ? this.placeMarket(market, request, time)
        : this.placeLimit(market, request, time);
    return { order: this.known(request.clientOrderId)!, updates };
  }

  /** `place`, for an order not placed already; one that was is left to `placeOrder`: undefined. */
  placeAtOnce(request: OrderRequest): { order: ExchangeOrder; updates: OrderUpdate[] } | undefined {
    return this.known(request.clientOrderId) ? undefined : this.place(request);
  }

  /** An open or recently closed order; the paper exchange's storage has the older ones. */
  async findOrder(pair: string, clientOrderId: string): Promise<ExchangeOrder | undefined> {
    const order = this.known(clientOrderId);
    return order?.pair === pair ? { ...order } : undefined;
  }

  private known(clientOrderId: string): ExchangeOrder | undefined {
    return this.orders.get(clientOrderId) ?? this.closed.get(clientOrderId);
  }

  private retire(order: ExchangeOrder): void {
    this.orders.delete(order.clientOrderId);
    this.closed.set(order.clientOrderId, order);
    if (this.closedRing.length < RECENTLY_CLOSED) {
      this.closedRing.push(order.clientOrderId);
      return;
    }
    const oldest = this.closedRing[this.oldestClosed]!;
    this.closed.delete(oldest);
    this.closedRing[this.oldestClosed] = order.clientOrderId;
    this.oldestClosed = (this.oldestClosed + 1) % RECENTLY_CLOSED;
  }

  /**
   * Cancels an open order whose fills so far all reached its owner (`filled` is what it knows of);
   * any other (ended, unknown, or filled beyond that: the fill is on its way) is left to
   * `cancelOrder`: undefined.
   */
  cancelResting(pair: string, clientOrderId: string, filled: Decimal): ExchangeOrder | undefined {
    const order = this.orders.get(clientOrderId);
    if (order?.pair !== pair || order.status !== 'open' || !order.filled.eq(filled)) return undefined;
    return this.cancel(pair, clientOrderId);
  }

  async cancelOrder(pair: string, clientOrderId: string): Promise<ExchangeOrder> {
    return this.cancel(pair, clientOrderId);
  }

  cancel(pair: string, clientOrderId: string): ExchangeOrder {
    const order = this.known(clientOrderId);
    if (!order || order.pair !== pair) {
      throw new ExchangeError('order_not_found', `No order ${clientOrderId} on ${pair}`);
    }
    if (order.status !== 'open') return order;
    this.venue.unrest(order);
    this.cancelUnfilled(this.venue.market(pair), order, this.venue.ticker(pair)?.at ?? order.updatedAt);
    this.emit({ order: { ...order } });
    return order;
  }

  onOrderUpdate(listener: (update: OrderUpdate) => void): Unsubscribe {
    this.orderListeners.add(listener);
    return () => this.orderListeners.delete(listener);
  }

  onTicker(listener: (ticker: Ticker) => void): Unsubscribe {
    return this.venue.onTicker(listener);
  }

  /** Fees apply to fills from now on; earlier fills keep what they paid. */
  setFees(fees: FeeSchedule): void {
    this.fees = fees;
  }

  get feeSchedule(): FeeSchedule {
    return this.fees;
  }

  /** Takes back a stored open order after a restart (the venue rests it again). */
  adopt(order: ExchangeOrder): void {
    this.orders.set(order.clientOrderId, order);
  }

  /**
   * After its open orders were adopted: what is locked is what they hold back. A process that
   * stopped inside a batch with a refused part left funds locked for an order never stored, or an
   * order stored without the funds it locked (docs/architecture.md).
   */
  settleLocks(): ReturnType<PaperLedger['backLocks']> {
    const backed = new Map<string, Decimal>();
    for (const order of this.orders.values()) {
      if (order.status !== 'open' || order.price === null) continue;
      const [currency, amount] = heldBack(this.venue.market(order.pair), order.side, order.amount.minus(order.filled), order.price);
      backed.set(currency, (backed.get(currency) ?? ZERO).plus(amount));
    }
    return this.ledger.backLocks(backed);
  }

  /** Called by the venue when the market crosses a resting order of this account. */
  fillResting(order: ExchangeOrder, amount: Decimal, at: Date): OrderUpdate {
    const market = this.venue.market(order.pair);
    return this.applyFill(market, order, amount, order.price!, order.price!, 'maker', at);
  }

  private placeLimit(market: Market, request: OrderRequest, at: Date): OrderUpdate[] {
    const price = request.price;
    if (price === undefined) throw new ExchangeError('rule_violation', 'A limit order needs a price');
    // Worked out once for the rules and the funds a buy locks.
    const total = request.amount.times(price);
    this.venue.enforceRules(market, { side: request.side, type: 'limit', amount: request.amount, price, total });
    const marketable = this.marketable(market.pair, request.side, price);
    if (marketable && request.timeInForce === 'post_only') {
      throw new ExchangeError('rule_violation', 'A post-only order would execute at once');
    }
    this.lockFor(market, request.side, request.amount, price, total);
    const order = this.record(request, price, at);
    if (marketable) {
      const ticker = this.venue.ticker(market.pair)!;
      const touch = request.side === 'buy' ? ticker.ask : ticker.bid;
      const update = this.applyFill(market, order, request.amount, touch, price, 'taker', at);
      return [update];
    }
    if (request.timeInForce === 'ioc' || request.timeInForce === 'fok') {
      this.cancelUnfilled(market, order, at);
      return [{ order: { ...order } }];
    }
    this.venue.rest(this, order);
    return [];
  }

  /** Whether a limit order at `price` would execute at once against the pair's last prices. */
  private marketable(pair: string, side: 'buy' | 'sell', price: Decimal): boolean {
    const ticker = this.venue.ticker(pair);
    return ticker !== undefined && (side === 'buy' ? price.gte(ticker.ask) : price.lte(ticker.bid));
  }

  private placeMarket(market: Market, request: OrderRequest, at: Date): OrderUpdate[] {
    const price = this.venue.executionPrice(market, request.side, request.amount);
    this.venue.enforceRules(market, { side: request.side, type: 'market', amount: request.amount, price });
    this.lockFor(market, request.side, request.amount, price);
    const order = this.record(request, null, at);
    return [this.applyFill(market, order, request.amount, price, price, 'taker', at)];
  }

  private lockFor(market: Market, side: 'buy' | 'sell', amount: Decimal, price: Decimal, total?: Decimal): void {
    this.ledger.lock(...heldBack(market, side, amount, price, total));
  }

  private record(request: OrderRequest, price: Decimal | null, at: Date): ExchangeOrder {
    const order: ExchangeOrder = {
      id: this.venue.nextOrderId(),
      clientOrderId: request.clientOrderId,
      pair: request.pair,
      side: request.side,
      type: request.type,
      price,
      amount: request.amount,
      filled: ZERO,
      filledTotal: ZERO,
      fee: ZERO,
      feeCurrency: request.side === 'buy' ? this.venue.market(request.pair).base : this.venue.market(request.pair).quote,
      status: 'open',
      createdAt: at,
      updatedAt: at,
    };
    this.orders.set(order.clientOrderId, order);
    this.venue.noteChange(this, order);
    return order;
  }

  /**
   * Books a fill of `amount` at `price`. Buy funds were locked at `lockedPrice`; what a cheaper
   * execution leaves over is released.
   */
  private applyFill(
    market: Market,
    order: ExchangeOrder,
    amount: Decimal,
    price: Decimal,
    lockedPrice: Decimal,
    liquidity: 'maker' | 'taker',
    at: Date,
  ): OrderUpdate {
    const total = amount.times(price);
    const rate = liquidity === 'maker' ? this.fees.maker : this.fees.taker;
    let fee: Decimal;
    if (order.side === 'buy') {
      // A resting buy fills at the price it locked funds at: nothing to give back.
      const locked = lockedPrice === price ? total : amount.times(lockedPrice);
      this.ledger.spendLocked(market.quote, locked);
      if (locked !== total) this.ledger.credit(market.quote, locked.minus(total));
      fee = amount.times(rate);
      this.ledger.credit(market.base, amount.minus(fee));
    } else {
      this.ledger.spendLocked(market.base, amount);
      fee = total.times(rate);
      this.ledger.credit(market.quote, total.minus(fee));
    }
    // Most orders fill at once, from zero.
    order.filled = plus(order.filled, amount);
    order.filledTotal = plus(order.filledTotal, total);
    order.fee = plus(order.fee, fee);
    order.updatedAt = at;
    if (order.filled.eq(order.amount)) {
      order.status = 'filled';
      this.retire(order);
    }
    const update: OrderUpdate = {
      order: { ...order },
      fill: {
        orderId: order.id,
        clientOrderId: order.clientOrderId,
        pair: order.pair,
        side: order.side,
        price,
        amount,
        quote: total,
        fee,
        feeCurrency: order.feeCurrency,
        maker: liquidity === 'maker',
        at,
      },
    };
    this.venue.noteChange(this, order, update.fill);
    this.emit(update);
    return update;
  }

  /** Cancels what is left of an order and releases the funds locked for it. */
  private cancelUnfilled(market: Market, order: ExchangeOrder, at: Date): void {
    this.ledger.unlock(...heldBack(market, order.side, order.amount.minus(order.filled), order.price!));
    order.status = 'cancelled';
    order.updatedAt = at;
    this.retire(order);
    this.venue.noteChange(this, order);
  }

  private emit(update: OrderUpdate): void {
    for (const listener of this.orderListeners) listener(update);
  }
}

/** What a resting order of `amount` at `price` holds back: the quote it would pay (`total`, if known), or the base it would sell. */
function heldBack(market: Market, side: 'buy' | 'sell', amount: Decimal, price: Decimal, total?: Decimal): [currency: string, amount: Decimal] {
  return side === 'buy' ? [market.quote, total ?? amount.times(price)] : [market.base, amount];
}
