/**
 * Resting limit orders of one pair, kept sorted so a price move touches only the orders it
 * crosses: each side's best order last (highest buy, lowest sell; the earlier at a price), where
 * the market reaches them and where taking or adding one moves nothing else in the array.
 * Matching reduces `remaining` on the orders it returns and drops those it fills completely.
 */
import { type Decimal, toDouble, ZERO } from '../../shared/decimal.ts';
import type { OrderSide } from '../exchange.ts';

export interface RestingOrder {
  id: string;
  /** Arrival sequence: time priority at equal prices. */
  sequence: number;
  side: OrderSide;
  price: Decimal;
  /**
   * The price as a number (`priceRank`), held by the order itself: a search of a book of thousands
   * compares it, and reads the decimal (three objects further) only where two of them are equal.
   */
  rank: number;
  remaining: Decimal;
}

/** What ranks an order in its book, and names it. */
export type Ranked = Pick<RestingOrder, 'id' | 'sequence' | 'side' | 'price' | 'rank'>;

/**
 * A price as the nearest number. Rounding to the nearest keeps the order of prices (a lower price
 * never gets a higher number), so different numbers rank two prices as their decimals would.
 */
export const priceRank = (price: Decimal): number => toDouble(price);

export interface Match<T extends RestingOrder = RestingOrder> {
  order: T;
  amount: Decimal;
}

/** `T`: what the owner keeps for each resting order (one record each), handed back in matches. */
export class OrderBook<T extends RestingOrder = RestingOrder> {
  private buys: T[] = [];
  private sells: T[] = [];

  get size(): number {
    return this.buys.length + this.sells.length;
  }

  add(order: T): void {
    const side = order.side === 'buy' ? this.buys : this.sells;
    side.splice(this.insertionIndex(side, order), 0, order);
  }

  /**
   * Adds many orders at once (accounts read from storage): sorted among themselves, then merged
   * into each side in one pass. Inserted one by one, each moved the rest of a side of thousands.
   */
  addAll(orders: readonly T[]): void {
    this.buys = merged(this.buys, orders.filter((order) => order.side === 'buy').sort(byPriority));
    this.sells = merged(this.sells, orders.filter((order) => order.side === 'sell').sort(byPriority));
  }

  /** Takes off the resting order with this id, side, price and sequence (found where it ranks). */
  remove(order: Ranked): boolean {
    const side = order.side === 'buy' ? this.buys : this.sells;
    // Nothing outranks an order of the same price and sequence but itself: it sits just before.
    const index = this.insertionIndex(side, order) - 1;
    if (side[index]?.id !== order.id) return false;
    side.splice(index, 1);
    return true;
  }

  /** Buys at or above the ask and sells at or below the bid fill completely. */
  matchQuote(bid: Decimal, ask: Decimal): Match<T>[] {
    // Most ticks cross nothing: a look at each side's best order, and no arrays made.
    const buy = this.buys.at(-1);
    const sell = this.sells.at(-1);
    if ((buy === undefined || buy.price.lt(ask)) && (sell === undefined || sell.price.gt(bid))) return [];
    return [
      ...this.take(this.buys, (price) => price.gte(ask), undefined),
      ...this.take(this.sells, (price) => price.lte(bid), undefined),
    ];
  }

  /**
   * A trade printed at `price` fills buys at or above it and sells at or below it, each side up
   * to the traded amount, best price first.
   */
  matchTrade(price: Decimal, amount: Decimal): Match<T>[] {
    return [
      ...this.take(this.buys, (limit) => limit.gte(price), amount),
      ...this.take(this.sells, (limit) => limit.lte(price), amount),
    ];
  }

  private take(side: T[], crossed: (price: Decimal) => boolean, volume: Decimal | undefined) {
    const matches: Match<T>[] = [];
    let available = volume;
    for (let order = side.at(-1); order !== undefined && crossed(order.price); order = side.at(-1)) {
      if (available !== undefined && available.lte(ZERO)) break;
      const amount = available === undefined ? order.remaining : smaller(order.remaining, available);
      matches.push({ order, amount });
      // Filled whole (a quote's match takes all of it): nothing left, with no subtraction.
      order.remaining = amount === order.remaining ? ZERO : order.remaining.minus(amount);
      if (available !== undefined) available = available.minus(amount);
      if (order.remaining.isZero()) side.pop();
      else break;
    }
    return matches;
  }

  /** The place after every order that comes before `order` in priority and before every later one. */
  private insertionIndex(side: T[], order: Ranked): number {
    let low = 0;
    let high = side.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (outranks(side[middle]!, order)) high = middle;
      else low = middle + 1;
    }
    return low;
  }
}

/** `a` is matched before `b`: a better price, or the same price and earlier. */
function outranks(a: Ranked, b: Ranked): boolean {
  const byPrice = a.rank !== b.rank ? (a.rank > b.rank ? 1 : -1) : a.price.cmp(b.price);
  if (byPrice !== 0) return a.side === 'buy' ? byPrice > 0 : byPrice < 0;
  return a.sequence < b.sequence;
}

/** The order of a side's array: the order matched first last. */
const byPriority = (a: RestingOrder, b: RestingOrder) => (outranks(a, b) ? 1 : outranks(b, a) ? -1 : 0);

/** Two arrays in `byPriority` order as one. */
function merged<T extends RestingOrder>(side: T[], added: T[]): T[] {
  if (added.length === 0) return side;
  const out: T[] = [];
  let i = 0;
  for (const order of added) {
    while (i < side.length && !outranks(side[i]!, order)) out.push(side[i++]!);
    out.push(order);
  }
  while (i < side.length) out.push(side[i++]!);
  return out;
}

function smaller(a: Decimal, b: Decimal): Decimal {
  return a.lte(b) ? a : b;
}
