/**
 * Resting limit orders of one pair, kept sorted so a price move touches only the orders it
 * crosses: buys by price descending, sells by price ascending, earlier orders first at a price.
 * Matching reduces `remaining` on the orders it returns and drops those it fills completely.
 */
import { type Decimal, ZERO } from '../../shared/decimal.ts';
import type { OrderSide } from '../exchange.ts';

export interface RestingOrder {
  id: string;
  /** Arrival sequence: time priority at equal prices. */
  sequence: number;
  side: OrderSide;
  price: Decimal;
  remaining: Decimal;
}

export interface Match {
  order: RestingOrder;
  amount: Decimal;
}

export class OrderBook {
  private readonly buys: RestingOrder[] = [];
  private readonly sells: RestingOrder[] = [];

  get size(): number {
    return this.buys.length + this.sells.length;
  }

  add(order: RestingOrder): void {
    const side = order.side === 'buy' ? this.buys : this.sells;
    side.splice(this.insertionIndex(side, order), 0, order);
  }

  remove(order: RestingOrder): boolean {
    const side = order.side === 'buy' ? this.buys : this.sells;
    const index = side.indexOf(order);
    if (index === -1) return false;
    side.splice(index, 1);
    return true;
  }

  /** Buys at or above the ask and sells at or below the bid fill completely. */
  matchQuote(bid: Decimal, ask: Decimal): Match[] {
    return [
      ...this.take(this.buys, (price) => price.gte(ask), undefined),
      ...this.take(this.sells, (price) => price.lte(bid), undefined),
    ];
  }

  /**
   * A trade printed at `price` fills buys at or above it and sells at or below it, each side up
   * to the traded amount, best price first.
   */
  matchTrade(price: Decimal, amount: Decimal): Match[] {
    return [
      ...this.take(this.buys, (limit) => limit.gte(price), amount),
      ...this.take(this.sells, (limit) => limit.lte(price), amount),
    ];
  }

  private take(side: RestingOrder[], crossed: (price: Decimal) => boolean, volume: Decimal | undefined) {
    const matches: Match[] = [];
    let available = volume;
    while (side.length > 0 && crossed(side[0]!.price)) {
      if (available !== undefined && available.lte(ZERO)) break;
      const order = side[0]!;
      const amount = available === undefined ? order.remaining : smaller(order.remaining, available);
      matches.push({ order, amount });
      order.remaining = order.remaining.minus(amount);
      if (available !== undefined) available = available.minus(amount);
      if (order.remaining.isZero()) side.shift();
      else break;
    }
    return matches;
  }

  private insertionIndex(side: RestingOrder[], order: RestingOrder): number {
    const before = order.side === 'buy'
      ? (other: RestingOrder) => other.price.gt(order.price) || (other.price.eq(order.price) && other.sequence < order.sequence)
      : (other: RestingOrder) => other.price.lt(order.price) || (other.price.eq(order.price) && other.sequence < order.sequence);
    let low = 0;
    let high = side.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (before(side[middle]!)) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

function smaller(a: Decimal, b: Decimal): Decimal {
  return a.lte(b) ? a : b;
}
