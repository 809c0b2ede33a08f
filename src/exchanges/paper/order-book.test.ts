import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { type Decimal, dec } from '../../shared/decimal.ts';
import { OrderBook, priceRank, type RestingOrder } from './order-book.ts';

/**
 * A price from a whole number and a part past the precision of a number (`tiny`), so that some
 * different prices are the same number and the book has to rank them by their decimals.
 */
const TINY = ['', '.00000000000000001', '.00000000000000002'];
const priced = (price: number, tiny = 0) => dec(`${price}${TINY[tiny]}`);

function resting(index: number, side: 'buy' | 'sell', price: Decimal, remaining = dec(1)): RestingOrder {
  return { id: `P${index + 1}`, sequence: index + 1, side, price, rank: priceRank(price), remaining };
}

/** What matching must give: crossed orders, best price first, the earlier first at a price. */
function expected(orders: RestingOrder[], bid: number, ask: number): string[] {
  const rank = (a: RestingOrder, b: RestingOrder) =>
    (a.side === 'buy' ? b.price.cmp(a.price) : a.price.cmp(b.price)) || a.sequence - b.sequence;
  const buys = orders.filter((o) => o.side === 'buy' && o.price.gte(ask)).sort(rank);
  const sells = orders.filter((o) => o.side === 'sell' && o.price.lte(bid)).sort(rank);
  return [...buys, ...sells].map((o) => o.id);
}

describe(OrderBook.name, () => {
  it('matches crossed orders best price first and the earlier first at a price, after any adds and removes', () => {
    const order = fc.record({ side: fc.constantFrom<'buy' | 'sell'>('buy', 'sell'), price: fc.integer({ min: 90, max: 110 }), tiny: fc.nat({ max: 2 }) });
    fc.assert(
      fc.property(fc.array(order, { maxLength: 60 }), fc.array(fc.nat(), { maxLength: 20 }), fc.integer({ min: 85, max: 115 }), (made, removals, price) => {
        const book = new OrderBook();
        const orders = made.map((o, index) => resting(index, o.side, priced(o.price, o.tiny)));
        for (const o of orders) book.add(o);
        const removed = new Set(removals.filter((k) => k < orders.length).map((k) => orders[k]!));
        // Found by id, side, price and sequence: what ranks it, not the entry itself.
        for (const o of removed) assert.equal(book.remove({ id: o.id, sequence: o.sequence, side: o.side, price: o.price, rank: o.rank }), true);
        for (const o of removed) assert.equal(book.remove(o), false);
        const left = orders.filter((o) => !removed.has(o));
        const matched = book.matchQuote(dec(price), dec(price)).map((m) => m.order.id);
        assert.deepEqual(matched, expected(left, price, price));
        assert.equal(book.size, left.length - matched.length);
      }),
    );
  });

  it('matches orders added together (in any order, into a book holding others) as if added one by one', () => {
    const order = fc.record({ side: fc.constantFrom<'buy' | 'sell'>('buy', 'sell'), price: fc.integer({ min: 90, max: 110 }), tiny: fc.nat({ max: 2 }), together: fc.boolean() });
    fc.assert(
      fc.property(fc.array(order, { maxLength: 60 }), fc.integer({ min: 85, max: 115 }), (made, price) => {
        const book = new OrderBook();
        const orders = made.map((o, index) => resting(index, o.side, priced(o.price, o.tiny)));
        for (const [index, o] of orders.entries()) if (!made[index]!.together) book.add(o);
        book.addAll(orders.filter((_, index) => made[index]!.together).reverse());
        assert.deepEqual(book.matchQuote(dec(price), dec(price)).map((m) => m.order.id), expected(orders, price, price));
      }),
    );
  });

  it('fills a trade against the best orders up to its amount and keeps the rest of a partly filled order first', () => {
    const book = new OrderBook();
    const orders = [100, 101, 101, 99].map((price, index) => resting(index, 'buy', dec(price), dec(2)));
    for (const o of orders) book.add(o);
    assert.deepEqual(book.matchTrade(dec(100), dec(3)).map((m) => `${m.order.id}:${m.amount.toFixed()}`), ['P2:2', 'P3:1']);
    assert.deepEqual(book.matchTrade(dec(99), dec(10)).map((m) => `${m.order.id}:${m.amount.toFixed()}`), ['P3:1', 'P1:2', 'P4:2']);
    assert.equal(book.size, 0);
  });
});
