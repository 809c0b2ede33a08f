/**
 * The contract every exchange adapter passes, whatever venue is behind it. A setup gives a fresh
 * account holding both currencies of `pair`, with a current price for it, and a way to make the
 * market cross a resting order so that it fills completely.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { Decimal } from '../shared/decimal.ts';
import { type Exchange, ExchangeError, type ExchangeErrorKind, type ExchangeOrder, type Market, type OrderUpdate } from './exchange.ts';

export interface ContractSubject {
  exchange: Exchange;
  pair: string;
  crossMarket(pair: string, order: ExchangeOrder): void | Promise<void>;
  close?(): Promise<void>;
}

const PAIR_FORMAT = /^[A-Z0-9]+_[A-Z0-9]+$/;

export function exchangeContract(name: string, setup: () => Promise<ContractSubject>): void {
  describe(`${name} honours the exchange contract`, () => {
    let subject: ContractSubject;
    let exchange: Exchange;

    beforeEach(async () => {
      subject = await setup();
      exchange = subject.exchange;
    });
    afterEach(async () => {
      await subject.close?.();
    });

    const market = async (): Promise<Market> => {
      const found = (await exchange.markets()).find((candidate) => candidate.pair === subject.pair);
      assert.ok(found, `market ${subject.pair} is listed`);
      return found;
    };

    /** A buy well below the bid, inside the usual price bands, worth about twice the minimum total. */
    const restingBuy = async (clientOrderId: string) => {
      const { rules } = await market();
      const bid = (await exchange.ticker(subject.pair)).bid;
      const price = bid.times('0.8').toNearest(rules.priceStep, Decimal.ROUND_DOWN);
      const amount = Decimal.max(rules.minLotSize, rules.minTotal.times(2).div(price).toNearest(rules.lotStep, Decimal.ROUND_UP));
      return { clientOrderId, pair: subject.pair, side: 'buy' as const, type: 'limit' as const, amount, price };
    };

    const holding = async (currency: string) => {
      const found = (await exchange.balances()).find((balance) => balance.currency === currency);
      return { free: found?.free.toFixed() ?? '0', locked: found?.locked.toFixed() ?? '0' };
    };

    const failsWith = (kind: ExchangeErrorKind) => (error: unknown) => {
      assert.ok(error instanceof ExchangeError, `an ExchangeError, got ${String(error)}`);
      assert.equal(error.kind, kind, error.message);
      return true;
    };

    it('lists markets with QUOTE_BASE pairs and positive steps', async () => {
      const markets = await exchange.markets();
      assert.ok(markets.length > 0);
      for (const listed of markets) {
        assert.match(listed.pair, PAIR_FORMAT);
        assert.equal(listed.pair, `${listed.quote}_${listed.base}`);
        assert.ok(listed.rules.priceStep.gt(0), `${listed.pair} price step`);
        assert.ok(listed.rules.lotStep.gt(0), `${listed.pair} lot step`);
      }
    });

    it('reports balances that are never negative, holding the quote currency', async () => {
      const balances = await exchange.balances();
      for (const balance of balances) {
        assert.ok(balance.free.gte(0) && balance.locked.gte(0), balance.currency);
      }
      const { quote } = await market();
      assert.ok(balances.some((balance) => balance.currency === quote && balance.free.gt(0)));
    });

    it('rests a limit order far from the market, locks its funds, and unlocks them on cancel', async () => {
      const { quote } = await market();
      const before = await holding(quote);
      const request = await restingBuy('contract-rest');
      const order = await exchange.placeOrder(request);
      assert.equal(order.status, 'open');
      assert.equal(order.clientOrderId, request.clientOrderId);
      assert.ok(order.filled.isZero());
      const open = await exchange.openOrders(subject.pair);
      assert.deepEqual(open.map((listed) => listed.clientOrderId), [request.clientOrderId]);
      const cost = request.amount.times(request.price);
      const locked = await holding(quote);
      assert.equal(locked.locked, new Decimal(before.locked).plus(cost).toFixed());
      assert.equal(locked.free, new Decimal(before.free).minus(cost).toFixed());
      const cancelled = await exchange.cancelOrder(subject.pair, request.clientOrderId);
      assert.equal(cancelled.status, 'cancelled');
      assert.equal(cancelled.id, order.id);
      assert.deepEqual(await exchange.openOrders(subject.pair), []);
      assert.deepEqual(await holding(quote), before);
    });

    it('returns the first order for a repeated client order id', async () => {
      const request = await restingBuy('contract-twice');
      const first = await exchange.placeOrder(request);
      const again = await exchange.placeOrder({ ...request, amount: request.amount.times(2) });
      assert.equal(again.id, first.id);
      assert.equal((await exchange.openOrders(subject.pair)).length, 1);
    });

    it('finds an order by client order id, and nothing for an unknown one', async () => {
      const request = await restingBuy('contract-find');
      const placed = await exchange.placeOrder(request);
      const found = await exchange.findOrder(subject.pair, request.clientOrderId);
      assert.equal(found?.id, placed.id);
      assert.equal(found?.status, 'open');
      await exchange.cancelOrder(subject.pair, request.clientOrderId);
      assert.equal((await exchange.findOrder(subject.pair, request.clientOrderId))?.status, 'cancelled');
      assert.equal(await exchange.findOrder(subject.pair, 'contract-never-placed'), undefined);
    });

    it('refuses an amount off the lot step as a rule violation', async () => {
      const { rules } = await market();
      const request = await restingBuy('contract-lot-step');
      await assert.rejects(exchange.placeOrder({ ...request, amount: request.amount.plus(rules.lotStep.div(2)) }), failsWith('rule_violation'));
      assert.deepEqual(await exchange.openOrders(subject.pair), []);
    });

    it('refuses an order the balance cannot cover as insufficient funds', async () => {
      const { quote, rules } = await market();
      const request = await restingBuy('contract-too-big');
      const free = new Decimal((await holding(quote)).free);
      const amount = free.times(2).div(request.price).toNearest(rules.lotStep, Decimal.ROUND_UP);
      await assert.rejects(exchange.placeOrder({ ...request, amount }), failsWith('insufficient_funds'));
    });

    it('answers a cancel of an unknown client order id with order_not_found', async () => {
      await assert.rejects(exchange.cancelOrder(subject.pair, 'contract-unknown'), failsWith('order_not_found'));
    });

    it('reports a fill through onOrderUpdate when the market crosses a resting order', async () => {
      const fills: OrderUpdate[] = [];
      const unsubscribe = exchange.onOrderUpdate((update) => {
        if (update.fill) fills.push(update);
      });
      try {
        const order = await exchange.placeOrder(await restingBuy('contract-fill'));
        await subject.crossMarket(subject.pair, order);
        await eventually(() => fills.length > 0);
        const [update] = fills;
        assert.equal(update!.fill!.clientOrderId, order.clientOrderId);
        assert.equal(update!.fill!.orderId, order.id);
        assert.equal(update!.fill!.amount.toFixed(), order.amount.toFixed());
        assert.ok(update!.fill!.price.lte(order.price!), 'a buy fills at or below its limit');
        assert.equal(update!.order.status, 'filled');
        assert.deepEqual(await exchange.openOrders(subject.pair), []);
      } finally {
        unsubscribe();
      }
    });
  });
}

async function eventually(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
