/**
 * ccxt's unified orders and trades -> the port's orders. Exchanges answer with more or less detail
 * (OKX's order placement returns only ids), so what the caller already knows about the order
 * fills the gaps: its client order id, pair and request.
 */
import type { Order as CcxtOrder, Trade as CcxtTrade } from 'ccxt';
import { type Decimal, ZERO } from '../../shared/decimal.ts';
import type { ExchangeOrder, OrderRequest, OrderStatus, Market } from '../exchange.ts';
import { decimalOrUndefined } from './ccxt-decimal.ts';

export interface KnownOrder {
  clientOrderId?: string;
  market?: Market;
  request?: OrderRequest;
}

export interface MappedOrder {
  order: ExchangeOrder;
  /** False when the exchange said nothing about fees of a (partly) filled order. */
  feeKnown: boolean;
}

export interface FeeTotal {
  fee: Decimal;
  currency: string | undefined;
}

const STATUS: Record<string, OrderStatus> = {
  open: 'open',
  closed: 'filled',
  canceled: 'cancelled',
  cancelled: 'cancelled',
  expired: 'cancelled',
  rejected: 'rejected',
};

export function toExchangeOrder(source: CcxtOrder, market: Market, known: KnownOrder, now: Date): MappedOrder {
  const request = known.request;
  const side = source.side === 'buy' || source.side === 'sell' ? source.side : (request?.side ?? 'buy');
  const type = source.type === 'market' || (source.type == null && request?.type === 'market') ? 'market' : 'limit';
  const amount = decimalOrUndefined(source.amount) ?? request?.amount ?? ZERO;
  const reported = source.status == null ? undefined : STATUS[source.status];
  const filled = decimalOrUndefined(source.filled) ?? (reported === 'filled' ? amount : ZERO);
  const price = type === 'market' ? null : (decimalOrUndefined(source.price) ?? request?.price ?? null);
  const fees = feeTotal(feesOf(source));
  const created = source.timestamp ?? undefined;
  const updated = source.lastUpdateTimestamp ?? source.lastTradeTimestamp ?? created;
  const order: ExchangeOrder = {
    id: String(source.id),
    clientOrderId: known.clientOrderId ?? source.clientOrderId ?? '',
    pair: market.pair,
    side,
    type,
    price,
    amount,
    filled,
    filledTotal: filledTotal(source, filled, price),
    fee: fees.fee,
    feeCurrency: fees.currency ?? (side === 'buy' ? market.base : market.quote),
    status: reported ?? (amount.gt(ZERO) && filled.gte(amount) ? 'filled' : 'open'),
    createdAt: created === undefined ? now : new Date(created),
    updatedAt: updated === undefined ? now : new Date(updated),
  };
  return { order, feeKnown: fees.currency !== undefined || filled.isZero() };
}

/** The fee of the fills listed, in the currency of the first fee that names one. */
export function feeTotal(fees: readonly ({ cost?: unknown; currency?: unknown } | undefined)[]): FeeTotal {
  let currency: string | undefined;
  let fee = ZERO;
  for (const entry of fees) {
    const cost = decimalOrUndefined(entry?.cost);
    if (cost === undefined || typeof entry?.currency !== 'string') continue;
    currency ??= entry.currency;
    if (entry.currency === currency) fee = fee.plus(cost);
  }
  return { fee, currency };
}

export function feeOfTrades(trades: readonly CcxtTrade[]): FeeTotal {
  return feeTotal(trades.flatMap((trade) => feesOf(trade)));
}

/** A fill was made as maker when every trade of it was. */
export function madeAsMaker(trades: readonly CcxtTrade[]): boolean | undefined {
  if (trades.length === 0 || trades.some((trade) => trade.takerOrMaker == null)) return undefined;
  return trades.every((trade) => trade.takerOrMaker === 'maker');
}

function feesOf(source: { fee?: unknown; fees?: unknown }): { cost?: unknown; currency?: unknown }[] {
  const fees = (source as { fees?: unknown }).fees;
  if (Array.isArray(fees) && fees.length > 0) return fees as { cost?: unknown; currency?: unknown }[];
  return source.fee ? [source.fee as { cost?: unknown; currency?: unknown }] : [];
}

function filledTotal(source: CcxtOrder, filled: Decimal, price: Decimal | null): Decimal {
  const cost = decimalOrUndefined(source.cost);
  if (cost !== undefined) return cost;
  const average = decimalOrUndefined(source.average) ?? price;
  return average ? filled.times(average) : ZERO;
}
