/**
 * The contract every implementation of the paper exchange's store port passes: the SQL store
 * and the in-memory store of backtests. A setup gives a store and two new accounts (the store may
 * hold other accounts' state), and the highest order sequence it held before.
 */
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { ExchangeOrder, Fill } from '../exchanges/exchange.ts';
import type { PaperStateStore, StoredPaperAccount } from '../exchanges/paper-state.ts';
import { dec, ZERO } from '../shared/decimal.ts';

export interface PaperStoreSubject {
  store: PaperStateStore;
  accountIds: [number, number];
  /** Order sequences of this test start above this one. */
  sequenceBase: number;
}

const at = (minute: number) => new Date(Date.UTC(2024, 0, 1, 0, minute));

/** Decimals as text, so `10.50` from SQL and `10.5` compare equal. */
function plain(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (value !== null && typeof value === 'object' && 'toFixed' in value) return (value as { toFixed(): string }).toFixed();
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}

export function paperStateContract(name: string, setup: () => Promise<PaperStoreSubject>): void {
  describe(`${name} honours the paper state store contract`, () => {
    let subject: PaperStoreSubject;
    let store: PaperStateStore;
    let a: number;
    let b: number;

    beforeEach(async () => {
      subject = await setup();
      store = subject.store;
      [a, b] = subject.accountIds;
    });

    const order = (sequence: number, changes: Partial<ExchangeOrder> = {}): ExchangeOrder => ({
      id: `P${subject.sequenceBase + sequence}`,
      clientOrderId: `c${sequence}`,
      pair: 'USDT_BTC',
      side: 'buy',
      type: 'limit',
      price: dec('60000.5'),
      amount: dec('0.01'),
      filled: ZERO,
      filledTotal: ZERO,
      fee: ZERO,
      feeCurrency: 'BTC',
      status: 'open',
      createdAt: at(1),
      updatedAt: at(1),
      ...changes,
    });
    const fill = (orderId: string): Fill => ({
      orderId, clientOrderId: 'c1', pair: 'USDT_BTC', side: 'buy', price: dec('60000.5'), amount: dec('0.01'),
      fee: dec('0.00001'), feeCurrency: 'BTC', maker: true, at: at(2),
    });
    const account = async (accountId: number): Promise<StoredPaperAccount | undefined> =>
      (await store.load()).accounts.find((stored) => stored.accountId === accountId);

    it('stores the balances of each account, the latest winning', async () => {
      await store.save({
        balances: [{ accountId: a, balances: [{ currency: 'USDT', free: dec('10.50'), locked: dec(1) }, { currency: 'BTC', free: dec('0.1'), locked: ZERO }] }],
        orders: [],
        fills: [],
      });
      await store.save({
        balances: [{ accountId: a, balances: [{ currency: 'BTC', free: dec('0.1'), locked: ZERO }, { currency: 'USDT', free: dec(5), locked: ZERO }] }],
        orders: [],
        fills: [],
      });
      assert.deepEqual(plain((await account(a))?.balances), [
        { currency: 'BTC', free: '0.1', locked: '0' },
        { currency: 'USDT', free: '5', locked: '0' },
      ]);
      assert.equal(await account(b), undefined);
    });

    it('loads the open orders in sequence order, and the highest sequence of all orders', async () => {
      await store.save({
        balances: [{ accountId: a, balances: [{ currency: 'USDT', free: dec(1), locked: ZERO }] }],
        orders: [
          { accountId: a, order: order(3, { clientOrderId: 'c3' }) },
          { accountId: a, order: order(1) },
          { accountId: a, order: order(4, { clientOrderId: 'c4', status: 'filled' }) },
        ],
        fills: [],
      });
      const stored = await account(a);
      assert.deepEqual(stored?.openOrders.map((o) => o.id), [order(1).id, order(3).id]);
      assert.deepEqual(plain(stored?.openOrders[0]), plain(order(1)));
      assert.equal((await store.load()).lastSequence >= subject.sequenceBase + 4, true);
    });

    it('updates an order by id, changing only what a fill or cancellation changes', async () => {
      await store.save({ balances: [{ accountId: a, balances: [] }], orders: [{ accountId: a, order: order(1) }], fills: [] });
      const changed = order(1, { filled: dec('0.01'), filledTotal: dec('600.005'), fee: dec('0.00001'), status: 'filled', updatedAt: at(2), price: dec(1) });
      await store.save({ balances: [], orders: [{ accountId: a, order: changed }], fills: [{ accountId: a, fill: fill(order(1).id) }] });
      const found = await store.findOrder(a, 'c1');
      assert.deepEqual(plain(found), plain({ ...changed, price: dec('60000.5') }));
    });

    it('finds an order by the account and its client order id only', async () => {
      await store.save({ balances: [], orders: [{ accountId: a, order: order(1) }], fills: [] });
      assert.equal((await store.findOrder(a, 'c1'))?.id, order(1).id);
      assert.equal(await store.findOrder(b, 'c1'), undefined);
      assert.equal(await store.findOrder(a, 'c2'), undefined);
    });

    it('keeps an account’s own fees', async () => {
      await store.save({ balances: [{ accountId: a, balances: [{ currency: 'USDT', free: dec(1), locked: ZERO }] }, { accountId: b, balances: [{ currency: 'USDT', free: dec(1), locked: ZERO }] }], orders: [], fills: [] });
      await store.saveFees(a, { maker: dec('0.001'), taker: dec('0.002') });
      await store.saveFees(a, { maker: dec('0.0005'), taker: dec('0.002') });
      assert.deepEqual(plain((await account(a))?.fees), { maker: '0.0005', taker: '0.002' });
      assert.equal((await account(b))?.fees, undefined);
      assert.equal('fees' in (await account(b))!, false);
    });
  });
}
