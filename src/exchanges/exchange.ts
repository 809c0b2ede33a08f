/**
 * The exchange port: everything an automation needs from an exchange, for one account. The paper
 * exchange and the ccxt adapter implement it, and one contract suite runs against both. Pairs are
 * always QUOTE_BASE here; adapters translate to their own notation.
 */
import type { TradingRules } from '../domain/market/trading-rules.ts';
import type { Decimal } from '../shared/decimal.ts';

export type OrderSide = 'buy' | 'sell';
export type OrderType = 'market' | 'limit';
export type TimeInForce = 'gtc' | 'ioc' | 'fok' | 'post_only';
export type OrderStatus = 'open' | 'filled' | 'cancelled' | 'rejected';

export interface Market {
  pair: string;
  base: string;
  quote: string;
  rules: TradingRules;
}

export interface Balance {
  currency: string;
  free: Decimal;
  locked: Decimal;
}

export interface OrderRequest {
  /** Chosen by the caller and unique per account: placing it twice returns the first order. */
  clientOrderId: string;
  pair: string;
  side: OrderSide;
  type: OrderType;
  amount: Decimal;
  /** Required for limit orders. */
  price?: Decimal;
  timeInForce?: TimeInForce;
}

export interface ExchangeOrder {
  id: string;
  clientOrderId: string;
  pair: string;
  side: OrderSide;
  type: OrderType;
  price: Decimal | null;
  amount: Decimal;
  filled: Decimal;
  /** Quote spent (buy) or received (sell) before fees. */
  filledTotal: Decimal;
  fee: Decimal;
  feeCurrency: string;
  status: OrderStatus;
  createdAt: Date;
  updatedAt: Date;
}

export interface Fill {
  orderId: string;
  clientOrderId: string;
  pair: string;
  side: OrderSide;
  price: Decimal;
  amount: Decimal;
  /** amount × price, as the paper exchange works it out for its books; other exchanges leave it out. */
  quote?: Decimal;
  fee: Decimal;
  feeCurrency: string;
  maker: boolean;
  at: Date;
}

export interface OrderUpdate {
  order: ExchangeOrder;
  /** Present when the update is a (partial or full) fill. */
  fill?: Fill;
}

export interface Ticker {
  pair: string;
  bid: Decimal;
  ask: Decimal;
  last: Decimal;
  at: Date;
}

export type Unsubscribe = () => void;

/**
 * Whether the exchange answers an account's requests changed: reported once per transition,
 * never per failed request.
 */
export interface ConnectionChange {
  state: 'lost' | 'recovered';
  /** When the requests started failing; for `recovered`, the start of the outage that ended. */
  since: Date;
  /** When the change was noticed. */
  at: Date;
  /** The last failure, in the adapter's words (never a credential). */
  error: string;
  /** Requests in a row that failed. */
  failures: number;
}

export interface Exchange {
  /** The market code as the API names it (`paper_trading`, `binance`, ...). */
  readonly marketCode: string;
  markets(): Promise<Market[]>;
  ticker(pair: string): Promise<Ticker>;
  balances(): Promise<Balance[]>;
  placeOrder(request: OrderRequest): Promise<ExchangeOrder>;
  cancelOrder(pair: string, clientOrderId: string): Promise<ExchangeOrder>;
  openOrders(pair?: string): Promise<ExchangeOrder[]>;
  /** The order placed with this client order id, open or not; undefined when the exchange has none. */
  findOrder(pair: string, clientOrderId: string): Promise<ExchangeOrder | undefined>;
  onOrderUpdate(listener: (update: OrderUpdate) => void): Unsubscribe;
  onTicker(listener: (ticker: Ticker) => void): Unsubscribe;
  /** Reports the exchange becoming unreachable and reachable again; a venue that cannot lose its connection (paper) has none. */
  onConnectionChange?(listener: (change: ConnectionChange) => void): Unsubscribe;
}

/** Failures every adapter reports the same way, so the API can answer them clearly. */
export type ExchangeErrorKind =
  | 'invalid_credentials'
  | 'insufficient_funds'
  | 'rule_violation'
  | 'unknown_market'
  | 'order_not_found'
  | 'unavailable';

export class ExchangeError extends Error {
  override readonly name = 'ExchangeError';

  constructor(
    readonly kind: ExchangeErrorKind,
    message: string,
  ) {
    super(message);
  }
}
