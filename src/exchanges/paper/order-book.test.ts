import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { dec } from '../../shared/decimal.ts';
import { OrderBook, type RestingOrder } from './order-book.ts';

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
    const order = fc.record({ side: fc.constantFrom<'buy' | 'sell'>('buy', 'sell'), price: fc.integer({ min: 90, max: 110 }) });
    fc.assert(
      fc.property(fc.array(order, { maxLength: 60 }), fc.array(fc.nat(), { maxLength: 20 }), fc.integer({ min: 85, max: 115 }), (made, removals, price) => {
        const book = new OrderBook();
        const resting = made.map((o, index): RestingOrder => ({ id: `P${index + 1}`, sequence: index + 1, side: o.side, price: dec(o.price), remaining: dec(1) }));
        for (const o of resting) book.add(o);
        const removed = new Set(removals.filter((k) => k < resting.length).map((k) => resting[k]!));
        // Found by id, side, price and sequence: what ranks it, not the entry itself.
        for (const o of removed) assert.equal(book.remove({ id: o.id, sequence: o.sequence, side: o.side, price: o.price }), true);
        for (const o of removed) assert.equal(book.remove(o), false);
        const left = resting.filter((o) => !removed.has(o));
        const matched = book.matchQuote(dec(price), dec(price)).map((m) => m.order.id);
        assert.deepEqual(matched, expected(left, price, price));
        assert.equal(book.size, left.length - matched.length);
      }),
    );
  });

  it('matches orders added together (in any order, into a book holding others) as if added one by one', () => {
    const order = fc.record({ side: fc.constantFrom<'buy' | 'sell'>('buy', 'sell'), price: fc.integer({ min: 90, max: 110 }), together: fc.boolean() });
    fc.assert(
      fc.property(fc.array(order, { maxLength: 60 }), fc.integer({ min: 85, max: 115 }), (made, price) => {
        const book = new OrderBook();
        const resting = made.map((o, index): RestingOrder => ({ id: `P${index + 1}`, sequence: index + 1, side: o.side, price: dec(o.price), remaining: dec(1) }));
        for (const [index, o] of resting.entries()) if (!made[index]!.together) book.add(o);
        book.addAll(resting.filter((_, index) => made[index]!.together).reverse());
        assert.deepEqual(book.matchQuote(dec(price), dec(price)).map((m) => m.order.id), expected(resting, price, price));
      }),
    );
  });

  it('fills a trade against the best orders up to its amount and keeps the rest of a partly filled order first', () => {
    const book = new OrderBook();
    const orders = [100, 101, 101, 99].map((price, index): RestingOrder => ({ id: `P${index + 1}`, sequence: index + 1, side: 'buy', price: dec(price), remaining: dec(2) }));
    for (const o of orders) book.add(o);
    assert.deepEqual(book.matchTrade(dec(100), dec(3)).map((m) => `${m.order.id}:${m.amount.toFixed()}`), ['P2:2', 'P3:1']);
    assert.deepEqual(book.matchTrade(dec(99), dec(10)).map((m) => `${m.order.id}:${m.amount.toFixed()}`), ['P3:1', 'P1:2', 'P4:2']);
    assert.equal(book.size, 0);
  });
});
