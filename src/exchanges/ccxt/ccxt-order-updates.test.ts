import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import ccxt, { type Order as CcxtOrder } from 'ccxt';
import { dec } from '../../shared/decimal.ts';
import type { OrderUpdate } from '../exchange.ts';
import { AccountAccess } from './ccxt-account-access.ts';
import { CcxtConnector } from './ccxt-connector.ts';
import { CcxtExchange } from './ccxt-exchange.ts';
import { MarketCatalog } from './ccxt-market-catalog.ts';
import { useTransport } from './ccxt-transport.ts';
import { fixture, json, ok, RecordedExchange } from './test-support/recorded-exchange.ts';

const order = (name: string) => JSON.parse(fixture(`binance/${name}.json`)) as Record<string, unknown>;
const trades = JSON.parse(fixture('binance/my-trades.json')) as unknown[];
const buy = { clientOrderId: 'grid-7-line-3', pair: 'USDT_BTC', side: 'buy' as const, type: 'limit' as const, amount: dec('0.01'), price: dec('41000') };
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 2_000;
  while (!condition()) {
    assert.ok(Date.now() < deadline, 'in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const fillText = (update: OrderUpdate) =>
  `${update.fill!.amount}@${update.fill!.price} fee ${update.fill!.fee} ${update.fill!.feeCurrency} maker ${update.fill!.maker} -> ${update.order.status}`;

describe('order updates by polling', () => {
  let recorded: RecordedExchange;
  let exchange: CcxtExchange;
  afterEach(async () => {
    await exchange.close();
    assert.deepEqual(recorded.unexpected, []);
  });

  const connect = () => {
    recorded = new RecordedExchange({
      'GET /api/v3/exchangeInfo': ok('binance/exchange-info.json'),
      'POST /api/v3/order': ok('binance/order-new.json'),
      'GET /api/v3/openOrders': [json(200, [order('order-new')]), json(200, [order('order-partially-filled')]), json(200, [])],
      'GET /api/v3/order': ok('binance/order-filled.json'),
      'GET /api/v3/myTrades': [json(200, trades.slice(0, 1)), json(200, trades)],
    });
    const connector = new CcxtConnector({ transport: recorded.transport, rateLimit: false, pollIntervalMs: 60_000 });
    exchange = connector.account('binance', { api_key: 'key-1', secret: 'secret-1' }) as CcxtExchange;
    return exchange;
  };

  it('emits one fill per growth of the filled amount, priced at the increment’s average, with the fee increment', async () => {
    connect();
    const updates: OrderUpdate[] = [];
    exchange.onOrderUpdate((update) => updates.push(update));
    await exchange.placeOrder(buy);
    await exchange.pollOrders();
    assert.deepEqual(updates, [], 'still resting, nothing filled');
    await exchange.pollOrders();
    await exchange.pollOrders();
    assert.deepEqual(updates.map(fillText), [
      '0.004@41000 fee 0.000004 BTC maker true -> open',
      '0.006@40999 fee 0.000006 BTC maker true -> filled',
    ]);
    assert.equal(recorded.seen('GET /api/v3/order').length, 1, 'the order is looked up once it leaves the open list');
    await exchange.pollOrders();
    assert.equal(recorded.seen('GET /api/v3/openOrders').length, 3, 'a finished order is not polled again');
  });

  it('polls on its own while someone listens, and stops when nobody does', async () => {
    connect();
    const fast = new CcxtConnector({ transport: recorded.transport, rateLimit: false, pollIntervalMs: 5 });
    await exchange.close();
    exchange = fast.account('binance', { api_key: 'key-1', secret: 'secret-1' }) as CcxtExchange;
    const updates: OrderUpdate[] = [];
    const unsubscribe = exchange.onOrderUpdate((update) => updates.push(update));
    await exchange.placeOrder(buy);
    await until(() => updates.length >= 2);
    unsubscribe();
    const polls = recorded.seen('GET /api/v3/openOrders').length;
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.equal(recorded.seen('GET /api/v3/openOrders').length, polls);
    assert.equal(updates.at(-1)!.order.status, 'filled');
  });
});

describe('order updates by streaming', () => {
  it('reports fills from the stream as they arrive, and closes the stream when nobody listens', async () => {
    const recorded = new RecordedExchange({ 'GET /api/v3/exchangeInfo': ok('binance/exchange-info.json'), 'GET /api/v3/myTrades': json(200, trades) });
    const source = new ccxt.binance({ enableRateLimit: false, options: { fetchMarkets: { types: ['spot'] } } });
    useTransport(source, recorded.transport);
    const markets = await source.loadMarkets();
    const client = new ccxt.binance({ apiKey: 'key-1', secret: 'secret-1', enableRateLimit: false });
    useTransport(client, recorded.transport);
    client.setMarketsFromExchange(source);
    const loaded = { catalog: new MarketCatalog('binance', Object.values(markets), source.precisionMode!), source };
    const access = new AccountAccess({ marketCode: 'binance', client, loadMarkets: async () => loaded, secrets: [], now: () => new Date(0), connectionLostAfter: 3 });

    const reports: CcxtOrder[][] = [[client.parseOrder(order('order-filled'))]];
    let closed = false;
    let release: (() => void) | undefined;
    const stream = {
      watchOrders: () => {
        const next = reports.shift();
        if (next) return Promise.resolve(next);
        return new Promise<CcxtOrder[]>((_resolve, reject) => {
          release = () => reject(new Error('stream closed'));
        });
      },
      close: async () => {
        closed = true;
        release?.();
      },
    };
    const exchange = new CcxtExchange(access, {
      pollIntervalMs: 60_000, streamingPollIntervalMs: 60_000, tickerIntervalMs: 60_000, openStream: () => stream, onBackgroundError: () => undefined,
    });
    const updates: OrderUpdate[] = [];
    const unsubscribe = exchange.onOrderUpdate((update) => updates.push(update));
    await until(() => updates.length > 0);
    assert.deepEqual(updates.map(fillText), ['0.01@40999.4 fee 0.00001 BTC maker true -> filled']);
    unsubscribe();
    assert.ok(closed);
    assert.deepEqual(recorded.unexpected, []);
  });
});
