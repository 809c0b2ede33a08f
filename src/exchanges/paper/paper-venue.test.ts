import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { dec } from '../../shared/decimal.ts';
import { ExchangeError, type OrderUpdate } from '../exchange.ts';
import { fixedSlippage } from './fill-models.ts';
import type { PaperAccount } from './paper-account.ts';
import { PAPER_MARKETS } from './paper-markets.ts';
import { type LocksCorrected, PaperVenue } from './paper-venue.ts';

const at = (minute: number) => new Date(Date.UTC(2024, 0, 1, 0, minute));
const balances = (usdt: string, btc: string) => [
  { currency: 'USDT', free: dec(usdt), locked: dec(0) },
  { currency: 'BTC', free: dec(btc), locked: dec(0) },
];
const holding = async (account: PaperAccount, currency: string) => {
  const found = (await account.balances()).find((b) => b.currency === currency);
  return { free: found?.free.toFixed() ?? '0', locked: found?.locked.toFixed() ?? '0' };
};

describe(PaperVenue.name, () => {
  let venue: PaperVenue;
  let account: PaperAccount;
  let updates: OrderUpdate[];

  beforeEach(() => {
    venue = new PaperVenue(PAPER_MARKETS, { slippage: fixedSlippage(10) });
    account = venue.openAccount(1, balances('10000', '1'));
    updates = [];
    account.onOrderUpdate((update) => updates.push(update));
    venue.applyTick({ pair: 'USDT_BTC', price: dec('60000'), at: at(0) });
  });

  it('rests a limit buy, locks its quote, and fills it as maker when the ask reaches it', async () => {
    await account.placeOrder({ clientOrderId: 'b1', pair: 'USDT_BTC', side: 'buy', type: 'limit', amount: dec('0.1'), price: dec('59000') });
    assert.deepEqual(await holding(account, 'USDT'), { free: '4100', locked: '5900' });
    venue.applyTick({ pair: 'USDT_BTC', price: dec('59500'), at: at(1) });
    assert.equal(updates.length, 0);
    const fills = venue.applyTick({ pair: 'USDT_BTC', price: dec('58990'), at: at(2) });
    assert.equal(fills.length, 1);
    assert.equal(fills[0]!.fill!.price.toFixed(), '59000');
    assert.equal(fills[0]!.fill!.maker, true);
    assert.equal(fills[0]!.fill!.fee.toFixed(), '0.0001');
    assert.deepEqual(await holding(account, 'USDT'), { free: '4100', locked: '0' });
    assert.deepEqual(await holding(account, 'BTC'), { free: '1.0999', locked: '0' });
    assert.equal(fills[0]!.order.status, 'filled');
    assert.deepEqual(await account.openOrders(), []);
  });

  it('places at once an order not placed yet, with what it did at once, and leaves one placed already to placeOrder', async () => {
    const limit = (clientOrderId: string, side: 'buy' | 'sell', price: string, amount = '0.1', timeInForce?: 'ioc') => ({
      clientOrderId, pair: 'USDT_BTC', side, type: 'limit' as const, amount: dec(amount), price: dec(price), ...(timeInForce ? { timeInForce } : {}),
    });
    const resting = account.placeAtOnce(limit('b1', 'buy', '59000'));
    assert.equal(resting?.order.status, 'open');
    assert.deepEqual(resting?.updates, []);
    assert.deepEqual(await holding(account, 'USDT'), { free: '4100', locked: '5900' });
    assert.equal(account.placeAtOnce(limit('b1', 'buy', '59000')), undefined, 'placed already');

    const lapsed = account.placeAtOnce(limit('b2', 'buy', '58000', '0.01', 'ioc'));
    assert.deepEqual(lapsed?.updates.map((update) => [update.order.status, update.fill]), [['cancelled', undefined]]);
    const market = account.placeAtOnce({ clientOrderId: 'm1', pair: 'USDT_BTC', side: 'buy', type: 'market', amount: dec('0.01') });
    assert.equal(market?.order.status, 'filled');
    assert.deepEqual(market?.updates.map((update) => [update.order.status, update.fill?.amount.toFixed(), update.fill?.maker]), [['filled', '0.01', false]]);
    assert.throws(() => account.placeAtOnce(limit('b4', 'buy', '59000', '1')), ExchangeError);
    assert.deepEqual((await account.openOrders()).map((order) => order.clientOrderId), ['b1']);
  });

  it('hands over the balances of an account only when they moved', async () => {
    const currencies = () => venue.drainChanges().balances.map((change) => change.balances.map((b) => b.currency));
    assert.deepEqual(currencies(), [['BTC', 'USDT']]);
    await account.placeOrder({ clientOrderId: 'b1', pair: 'USDT_BTC', side: 'buy', type: 'limit', amount: dec('0.1'), price: dec('59000') });
    assert.deepEqual(currencies(), [['BTC', 'USDT']]);
    await assert.rejects(account.cancelOrder('USDT_BTC', 'unknown'));
    venue.applyTick({ pair: 'USDT_BTC', price: dec('59500'), at: at(1) });
    assert.deepEqual(currencies(), []);
    venue.applyTick({ pair: 'USDT_BTC', price: dec('58990'), at: at(2) });
    assert.deepEqual(currencies(), [['BTC', 'USDT']]);
  });

  it('restores an account with what its open orders hold back locked, and stores its balances again only then', async () => {
    await account.placeOrder({ clientOrderId: 'b1', pair: 'USDT_BTC', side: 'buy', type: 'limit', amount: dec('0.1'), price: dec('59000') });
    await account.placeOrder({ clientOrderId: 's1', pair: 'USDT_BTC', side: 'sell', type: 'limit', amount: dec('0.5'), price: dec('61000') });
    venue.applyTick({ pair: 'USDT_BTC', price: dec('61000'), volume: dec('0.2'), at: at(1) });
    const stored = { balances: await account.balances(), openOrders: await account.openOrders() };
    const usdt = { free: '16287.8', locked: '5900' };
    assert.deepEqual([await holding(account, 'USDT'), await holding(account, 'BTC')], [usdt, { free: '0.5', locked: '0.3' }]);

    const restart = () => {
      const next = new PaperVenue(PAPER_MARKETS);
      next.applyTick({ pair: 'USDT_BTC', price: dec('60000'), at: at(2) });
      next.drainChanges();
      return next;
    };
    const corrections: unknown[] = [];
    const note: LocksCorrected = (accountId, corrected) =>
      void corrections.push([accountId, ...corrected.map(({ currency, locked, backed }) => [currency, locked.toFixed(), backed.toFixed()])]);
    let next = restart();
    const [same] = next.restoreAccounts([{ accountId: 1, ...stored }], note);
    assert.deepEqual(await holding(same!, 'USDT'), usdt);
    assert.deepEqual(next.drainChanges().balances, [], 'balances as stored are not stored again');
    assert.deepEqual(corrections, []);

    // Stored after an order that was never stored locked its funds (its automation's part refused).
    next = restart();
    const locked = stored.balances.map((b) => (b.currency === 'USDT' ? { ...b, free: b.free.minus(1000), locked: b.locked.plus(1000) } : b));
    const [restored] = next.restoreAccounts([{ accountId: 1, balances: locked, openOrders: stored.openOrders }], note);
    assert.deepEqual(await holding(restored!, 'USDT'), usdt);
    assert.deepEqual(await holding(restored!, 'BTC'), { free: '0.5', locked: '0.3' });
    assert.deepEqual(corrections, [[1, ['USDT', '6900', '5900']]]);
    assert.deepEqual(next.drainChanges().balances.map((change) => change.accountId), [1], 'the correction is stored');
  });

  it('fills partially when a trade prints less than the resting amount', async () => {
    await account.placeOrder({ clientOrderId: 's1', pair: 'USDT_BTC', side: 'sell', type: 'limit', amount: dec('0.5'), price: dec('61000') });
    const first = venue.applyTick({ pair: 'USDT_BTC', price: dec('61000'), volume: dec('0.2'), at: at(1) });
    assert.equal(first[0]!.fill!.amount.toFixed(), '0.2');
    assert.equal(first[0]!.order.status, 'open');
    const second = venue.applyTick({ pair: 'USDT_BTC', price: dec('61005'), volume: dec('1'), at: at(2) });
    assert.equal(second[0]!.fill!.amount.toFixed(), '0.3');
    assert.equal(second[0]!.order.status, 'filled');
    // 0.5 × 61000 = 30500, less 0.1 % maker fee in USDT.
    assert.deepEqual(await holding(account, 'USDT'), { free: '40469.5', locked: '0' });
    assert.deepEqual(await holding(account, 'BTC'), { free: '0.5', locked: '0' });
  });

  it('fills a market buy at the touch plus slippage, as taker', async () => {
    const order = await account.placeOrder({ clientOrderId: 'm1', pair: 'USDT_BTC', side: 'buy', type: 'market', amount: dec('0.01') });
    assert.equal(order.status, 'filled');
    assert.equal(order.filledTotal.toFixed(), '600.6'); // 60000 × 1.001 × 0.01
    assert.equal(updates[0]!.fill!.maker, false);
  });

  it('fills a marketable limit at once at the better touch and releases the rest of the lock', async () => {
    await account.placeOrder({ clientOrderId: 'b2', pair: 'USDT_BTC', side: 'buy', type: 'limit', amount: dec('0.1'), price: dec('61000') });
    assert.equal(updates[0]!.fill!.price.toFixed(), '60000');
    assert.deepEqual(await holding(account, 'USDT'), { free: '4000', locked: '0' });
  });

  it('refuses a marketable post-only order and lets ioc orders lapse', async () => {
    await assert.rejects(
      account.placeOrder({ clientOrderId: 'p1', pair: 'USDT_BTC', side: 'buy', type: 'limit', amount: dec('0.1'), price: dec('60000'), timeInForce: 'post_only' }),
      (error: ExchangeError) => error.kind === 'rule_violation',
    );
    const ioc = await account.placeOrder({ clientOrderId: 'i1', pair: 'USDT_BTC', side: 'buy', type: 'limit', amount: dec('0.1'), price: dec('50000'), timeInForce: 'ioc' });
    assert.equal(ioc.status, 'cancelled');
    assert.deepEqual(await holding(account, 'USDT'), { free: '10000', locked: '0' });
  });

  it('enforces the trading rules exactly', async () => {
    const place = (amount: string, price: string) =>
      account.placeOrder({ clientOrderId: `${amount}@${price}`, pair: 'USDT_BTC', side: 'buy', type: 'limit', amount: dec(amount), price: dec(price) });
    const violation = (message: RegExp) => (error: ExchangeError) => error.kind === 'rule_violation' && message.test(error.message);
    await assert.rejects(place('0.1', '59000.005'), violation(/price step/));
    await assert.rejects(place('0.000015', '59000'), violation(/lot step/));
    await assert.rejects(place('0.00008', '59000'), violation(/minimum total/));
    await assert.rejects(place('0.001', '1000'), violation(/too far from the current market price/));
  });

  it('refuses an order the balance cannot cover, and returns the first order for a repeated client id', async () => {
    await assert.rejects(
      account.placeOrder({ clientOrderId: 'x', pair: 'USDT_BTC', side: 'buy', type: 'limit', amount: dec('1'), price: dec('59000') }),
      (error: ExchangeError) => error.kind === 'insufficient_funds',
    );
    const first = await account.placeOrder({ clientOrderId: 'same', pair: 'USDT_BTC', side: 'sell', type: 'limit', amount: dec('0.1'), price: dec('62000') });
    const again = await account.placeOrder({ clientOrderId: 'same', pair: 'USDT_BTC', side: 'sell', type: 'limit', amount: dec('0.5'), price: dec('63000') });
    assert.equal(again.id, first.id);
    assert.deepEqual(await holding(account, 'BTC'), { free: '0.9', locked: '0.1' });
  });

  it('cancels a resting order and unlocks its funds', async () => {
    await account.placeOrder({ clientOrderId: 'c1', pair: 'USDT_BTC', side: 'sell', type: 'limit', amount: dec('0.25'), price: dec('65000') });
    const cancelled = await account.cancelOrder('USDT_BTC', 'c1');
    assert.equal(cancelled.status, 'cancelled');
    assert.deepEqual(await holding(account, 'BTC'), { free: '1', locked: '0' });
    assert.equal(venue.applyTick({ pair: 'USDT_BTC', price: dec('70000'), at: at(3) }).length, 0);
  });

  it('cancels at once only an open order whose fills its owner knows of, and leaves any other to cancelOrder', async () => {
    await account.placeOrder({ clientOrderId: 's1', pair: 'USDT_BTC', side: 'sell', type: 'limit', amount: dec('0.5'), price: dec('61000') });
    venue.applyTick({ pair: 'USDT_BTC', price: dec('61000'), volume: dec('0.2'), at: at(1) });
    assert.equal(account.cancelResting('USDT_BTC', 's1', dec(0)), undefined, 'a fill its owner has not heard of yet');
    assert.equal(account.cancelResting('USDT_ETH', 's1', dec('0.2')), undefined, 'another pair');
    assert.equal(account.cancelResting('USDT_BTC', 'unknown', dec(0)), undefined);
    assert.deepEqual((await account.openOrders()).map((order) => order.clientOrderId), ['s1']);

    const cancelled = account.cancelResting('USDT_BTC', 's1', dec('0.2'));
    assert.equal(cancelled?.status, 'cancelled');
    assert.equal(cancelled?.filled.toFixed(), '0.2');
    assert.deepEqual(await holding(account, 'BTC'), { free: '0.8', locked: '0' });
    assert.equal(account.cancelResting('USDT_BTC', 's1', dec('0.2')), undefined, 'ended already');
    assert.equal(updates.at(-1)?.order.status, 'cancelled', 'its owner hears of it as of any cancellation');
  });

  it('gives the same fills for the same events, to the last digit', async () => {
    const run = async () => {
      const replay = new PaperVenue(PAPER_MARKETS);
      const trader = replay.openAccount(7, balances('100000', '2'));
      replay.applyTick({ pair: 'USDT_BTC', price: dec('60000'), at: at(0) });
      for (let i = 1; i <= 20; i++) {
        await trader.placeOrder({ clientOrderId: `b${i}`, pair: 'USDT_BTC', side: 'buy', type: 'limit', amount: dec('0.013'), price: dec(60000 - i * 37.5) });
        await trader.placeOrder({ clientOrderId: `s${i}`, pair: 'USDT_BTC', side: 'sell', type: 'limit', amount: dec('0.017'), price: dec(60000 + i * 41.25) });
      }
      const path = [59500, 61000, 59210.33, 60870.01, 59000, 60500];
      const fills = path.flatMap((price, i) =>
        replay.applyTick({ pair: 'USDT_BTC', price: dec(price), volume: dec('0.02'), at: at(i + 1) }),
      );
      return { fills: fills.map((u) => `${u.fill!.clientOrderId}:${u.fill!.amount}@${u.fill!.price}`), balances: await trader.balances() };
    };
    const first = await run();
    assert.ok(first.fills.length > 5, 'the path crosses resting orders');
    assert.deepEqual(await run(), first);
  });
});
