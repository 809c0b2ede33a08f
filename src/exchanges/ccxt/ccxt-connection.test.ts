import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import ccxt from 'ccxt';
import { dec } from '../../shared/decimal.ts';
import { type ConnectionChange, ExchangeError } from '../exchange.ts';
import { CcxtConnector } from './ccxt-connector.ts';
import { json, ok, RecordedExchange, type SeenRequest } from './test-support/recorded-exchange.ts';

const credentials = { api_key: 'binance-key-1', secret: 'binance-secret-1' };
const START = Date.parse('2026-03-02T10:00:00Z');

/** Binance whose prices and orders routes answer, time out, answer 503 or 429, as `mode` says. */
function binance() {
  const state = { mode: 'up' as 'up' | 'timeout' | 'down' | 'rate_limited', nowMs: START };
  const reply = (answer: () => ReturnType<typeof ok>) => (request: SeenRequest) => {
    state.nowMs += 1000;
    if (state.mode === 'timeout') throw new ccxt.RequestTimeout(`binance GET ${request.path}?signature=abc request timed out`);
    // A proxy's page, as when the exchange behind it is down.
    if (state.mode === 'down') return { status: 503, body: 'Service Unavailable', headers: { 'content-type': 'text/plain' } };
    if (state.mode === 'rate_limited') return json(429, { code: -1003, msg: 'Too many requests' });
    return answer();
  };
  const recorded = new RecordedExchange({
    'GET /api/v3/exchangeInfo': ok('binance/exchange-info.json'),
    'GET /api/v3/ticker/24hr': reply(() => ok('binance/ticker-24hr-btcusdt.json')),
    'POST /api/v3/order': reply(() => ok('binance/order-new.json')),
  });
  return { state, recorded };
}

describe('CcxtExchange connection state (recorded responses)', () => {
  let closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers) await close();
    closers = [];
  });

  const connect = (world: ReturnType<typeof binance>, pollIntervalMs?: number) => {
    const exchange = new CcxtConnector({
      transport: world.recorded.transport,
      rateLimit: false,
      now: () => new Date(world.state.nowMs),
      ...(pollIntervalMs === undefined ? {} : { pollIntervalMs }),
    }).account('binance', credentials);
    closers.push(() => exchange.close());
    const changes: ConnectionChange[] = [];
    exchange.onConnectionChange!((change) => changes.push(change));
    return { exchange, changes };
  };

  it('reports the connection lost once after three requests in a row went unanswered, and recovered once at the next answer', async () => {
    const world = binance();
    const { exchange, changes } = connect(world);
    const buy = { clientOrderId: 'grid-7-line-3', pair: 'USDT_BTC', side: 'buy' as const, type: 'limit' as const, amount: dec('0.01'), price: dec('41000') };
    await exchange.ticker('USDT_BTC');

    world.state.mode = 'timeout';
    await assert.rejects(exchange.ticker('USDT_BTC'), (error: unknown) => error instanceof ExchangeError && error.kind === 'unavailable');
    const firstFailure = new Date(world.state.nowMs);
    await assert.rejects(exchange.placeOrder(buy), ExchangeError);
    // A rate limit is an answer of the exchange, though no success: it neither counts nor resets.
    world.state.mode = 'rate_limited';
    await assert.rejects(exchange.ticker('USDT_BTC'), ExchangeError);
    assert.equal(changes.length, 0);
    world.state.mode = 'down';
    for (let request = 0; request < 4; request += 1) await assert.rejects(exchange.ticker('USDT_BTC'), ExchangeError);

    assert.equal(changes.length, 1);
    const [lost] = changes;
    assert.deepEqual([lost!.state, lost!.since, lost!.failures], ['lost', firstFailure, 3]);
    assert.match(lost!.error, /^Binance: /);
    assert.ok(!lost!.error.includes('signature'), lost!.error);

    world.state.mode = 'up';
    await exchange.placeOrder(buy);
    await exchange.ticker('USDT_BTC');
    assert.deepEqual(changes.map((change) => [change.state, change.since]), [['lost', firstFailure], ['recovered', firstFailure]]);
    assert.equal(changes[1]!.failures, 6);
  });

  it('notices an outage from the price polling alone, once, however many polls fail', async () => {
    const world = binance();
    const { exchange, changes } = connect(world, 5);
    await exchange.ticker('USDT_BTC');
    const unsubscribe = exchange.onTicker(() => undefined);
    const waitFor = async (count: number) => {
      const deadline = Date.now() + 10_000;
      while (changes.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    };
    world.state.mode = 'timeout';
    await waitFor(1);
    const failedPolls = () => world.recorded.seen('GET /api/v3/ticker/24hr').length - 1;
    const deadline = Date.now() + 10_000;
    while (failedPolls() < 10 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    world.state.mode = 'up';
    await waitFor(2);
    unsubscribe();
    assert.ok(failedPolls() >= 10);
    assert.deepEqual(changes.map((change) => change.state), ['lost', 'recovered']);
  });
});
