import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { dec } from '../../shared/decimal.ts';
import { ExchangeError, type OrderRequest, type OrderUpdate } from '../exchange.ts';
import { CcxtConnector } from './ccxt-connector.ts';
import { fixture, json, ok, RecordedExchange, recordedError, type Reply } from './test-support/recorded-exchange.ts';
import { SimulatedBinance } from './test-support/simulated-binance.ts';

const credentials = { api_key: 'binance-key-1', secret: 'binance-secret-1' };
const buy: OrderRequest = { clientOrderId: 'grid-7-line-3', pair: 'USDT_BTC', side: 'buy', type: 'limit', amount: dec('0.01'), price: dec('41000') };
const binanceError = (name: string, status = 400) => recordedError('binance/errors.json', name, status);

describe('CcxtExchange on binance (recorded responses)', () => {
  let recorded: RecordedExchange;
  let closers: (() => Promise<void>)[] = [];

  const account = (routes: Record<string, Reply | Reply[]>) => {
    recorded = new RecordedExchange({ 'GET /api/v3/exchangeInfo': ok('binance/exchange-info.json'), ...routes });
    const exchange = new CcxtConnector({ transport: recorded.transport, rateLimit: false }).account('binance', credentials);
    closers.push(() => exchange.close());
    return exchange;
  };

  afterEach(async () => {
    for (const close of closers) await close();
    closers = [];
    assert.deepEqual(recorded.unexpected, []);
  });

  it('reports balances with free and locked amounts, leaving out empty currencies', async () => {
    const balances = await account({ 'GET /api/v3/account': ok('binance/account.json') }).balances();
    assert.deepEqual(balances.map((balance) => [balance.currency, balance.free.toFixed(), balance.locked.toFixed()]), [
      ['BTC', '0.5', '0.1'],
      ['ETH', '1.23456789', '0'],
      ['USDT', '10000', '2500.5'],
    ]);
  });

  it('reads one pair’s ticker', async () => {
    const ticker = await account({ 'GET /api/v3/ticker/24hr': ok('binance/ticker-24hr-btcusdt.json') }).ticker('USDT_BTC');
    assert.deepEqual([ticker.pair, ticker.bid.toFixed(), ticker.ask.toFixed(), ticker.last.toFixed()], ['USDT_BTC', '42000', '42000.01', '42000.01']);
    assert.equal(recorded.requests.at(-1)!.query.get('symbol'), 'BTCUSDT');
  });

  it('polls the prices of the pairs in use while someone listens', async () => {
    recorded = new RecordedExchange({ 'GET /api/v3/exchangeInfo': ok('binance/exchange-info.json'), 'GET /api/v3/ticker/24hr': ok('binance/ticker-24hr-btcusdt.json') });
    const exchange = new CcxtConnector({ transport: recorded.transport, rateLimit: false, pollIntervalMs: 5 }).account('binance', credentials);
    closers.push(() => exchange.close());
    await exchange.ticker('USDT_BTC');
    const prices: string[] = [];
    const unsubscribe = exchange.onTicker((ticker) => prices.push(`${ticker.pair} ${ticker.bid}/${ticker.ask}`));
    const deadline = Date.now() + 2_000;
    while (prices.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    unsubscribe();
    assert.deepEqual(prices.slice(0, 2), ['USDT_BTC 42000/42000.01', 'USDT_BTC 42000/42000.01']);
  });

  it('places a limit order with its client order id, amount and price as the market formats them', async () => {
    const order = await account({ 'POST /api/v3/order': ok('binance/order-new.json') }).placeOrder(buy);
    const [sent] = recorded.seen('POST /api/v3/order');
    assert.deepEqual(
      [sent!.params['symbol'], sent!.params['side'], sent!.params['type'], sent!.params['quantity'], sent!.params['price'], sent!.params['newClientOrderId'], sent!.params['timeInForce']],
      ['BTCUSDT', 'BUY', 'LIMIT', '0.01', '41000', 'grid-7-line-3', 'GTC'],
    );
    assert.deepEqual(
      [order.id, order.clientOrderId, order.pair, order.side, order.type, order.status, order.price?.toFixed(), order.amount.toFixed(), order.filled.toFixed()],
      ['28457312', 'grid-7-line-3', 'USDT_BTC', 'buy', 'limit', 'open', '41000', '0.01', '0'],
    );
    assert.equal(order.createdAt.toISOString(), '2024-01-01T00:00:00.123Z');
  });

  it('reports a market order filled at placement as a taker fill, fee from binance’s own fills', async () => {
    const binance = new SimulatedBinance('binance-key-1', { USDT: '1000' }, { BTCUSDT: { bid: '42000', ask: '42000.01' } });
    recorded = binance.recorded;
    const exchange = new CcxtConnector({ transport: binance.transport, rateLimit: false }).account('binance', credentials);
    closers.push(() => exchange.close());
    const updates: OrderUpdate[] = [];
    exchange.onOrderUpdate((update) => updates.push(update));
    const order = await exchange.placeOrder({ clientOrderId: 'market-1', pair: 'USDT_BTC', side: 'buy', type: 'market', amount: dec('0.002') });
    assert.deepEqual([order.type, order.price, order.status, order.filledTotal.toFixed(), order.fee.toFixed()], ['market', null, 'filled', '84.00002', '0.000002']);
    assert.deepEqual(updates.map((update) => [update.fill!.price.toFixed(), update.fill!.amount.toFixed(), update.fill!.maker]), [['42000.01', '0.002', false]]);
    assert.deepEqual(recorded.requests.map((request) => `${request.method} ${request.path}`), ['GET /api/v3/exchangeInfo', 'POST /api/v3/order']);
  });

  it('asks for a post-only order as LIMIT_MAKER', async () => {
    await account({ 'POST /api/v3/order': ok('binance/order-new.json') }).placeOrder({ ...buy, timeInForce: 'post_only' });
    assert.equal(recorded.seen('POST /api/v3/order')[0]!.params['type'], 'LIMIT_MAKER');
  });

  it('sends one order when the same client order id is placed again in a session, even concurrently', async () => {
    const exchange = account({ 'POST /api/v3/order': ok('binance/order-new.json') });
    const [first, concurrent] = await Promise.all([exchange.placeOrder(buy), exchange.placeOrder(buy)]);
    const again = await exchange.placeOrder({ ...buy, amount: dec('0.02') });
    assert.equal(concurrent.id, first.id);
    assert.equal(again.id, first.id);
    assert.equal(recorded.seen('POST /api/v3/order').length, 1);
  });

  it('returns the existing order when binance refuses a duplicate client order id (after a restart)', async () => {
    const order = await account({
      'POST /api/v3/order': binanceError('duplicateOrder'),
      'GET /api/v3/order': ok('binance/order-partially-filled.json'),
      'GET /api/v3/myTrades': json(200, [JSON.parse(fixture('binance/my-trades.json'))[0]]),
    }).placeOrder(buy);
    assert.equal(recorded.seen('GET /api/v3/order')[0]!.params['origClientOrderId'], 'grid-7-line-3');
    assert.deepEqual(
      [order.id, order.status, order.filled.toFixed(), order.filledTotal.toFixed(), order.fee.toFixed()],
      ['28457312', 'open', '0.004', '164', '0.000004'],
    );
  });

  it('reports the refusal when the duplicate cannot be found either', async () => {
    const exchange = account({ 'POST /api/v3/order': binanceError('duplicateOrder'), 'GET /api/v3/order': binanceError('orderDoesNotExist') });
    await assert.rejects(exchange.placeOrder(buy), (error: ExchangeError) => error.kind === 'rule_violation' && /Duplicate order sent/.test(error.message));
  });

  it('refuses amounts and prices off the market grid without sending them', async () => {
    const exchange = account({});
    await assert.rejects(exchange.placeOrder({ ...buy, amount: dec('0.000015') }), (error: ExchangeError) =>
      error.kind === 'rule_violation' && error.message === 'amount 0.000015 is not a multiple of the lot step 0.00001');
    await assert.rejects(exchange.placeOrder({ ...buy, price: dec('41000.005') }), (error: ExchangeError) =>
      error.kind === 'rule_violation' && error.message === 'price 41000.005 is not a multiple of the price step 0.01');
    const { price: _price, ...withoutPrice } = buy;
    await assert.rejects(exchange.placeOrder(withoutPrice), (error: ExchangeError) => error.kind === 'rule_violation');
    assert.deepEqual(recorded.seen('POST /api/v3/order'), []);
  });

  it('cancels by client order id: looks the order up, cancels it by id, reports it cancelled', async () => {
    const cancelled = await account({
      'GET /api/v3/order': ok('binance/order-new.json'),
      'DELETE /api/v3/order': ok('binance/order-canceled.json'),
    }).cancelOrder('USDT_BTC', 'grid-7-line-3');
    assert.equal(recorded.seen('DELETE /api/v3/order')[0]!.params['orderId'], '28457312');
    assert.deepEqual([cancelled.id, cancelled.clientOrderId, cancelled.status], ['28457312', 'grid-7-line-3', 'cancelled']);
  });

  it('reports how an order ended when it filled before the cancel arrived', async () => {
    const exchange = account({
      'GET /api/v3/order': [ok('binance/order-new.json'), ok('binance/order-filled.json')],
      'DELETE /api/v3/order': binanceError('unknownOrder'),
      'GET /api/v3/myTrades': ok('binance/my-trades.json'),
    });
    const order = await exchange.cancelOrder('USDT_BTC', 'grid-7-line-3');
    assert.deepEqual([order.status, order.filled.toFixed(), order.fee.toFixed(), order.feeCurrency], ['filled', '0.01', '0.00001', 'BTC']);
  });

  it('answers a cancel of an unknown client order id with order_not_found', async () => {
    const exchange = account({ 'GET /api/v3/order': binanceError('orderDoesNotExist') });
    await assert.rejects(exchange.cancelOrder('USDT_BTC', 'nobody'), (error: ExchangeError) => error.kind === 'order_not_found');
  });

  it('lists open orders of every pair with their progress', async () => {
    const orders = await account({ 'GET /api/v3/openOrders': ok('binance/open-orders.json'), 'GET /api/v3/myTrades': json(200, []) }).openOrders();
    assert.deepEqual(
      orders.map((order) => [order.clientOrderId, order.pair, order.side, order.price?.toFixed(), order.amount.toFixed(), order.filled.toFixed(), order.filledTotal.toFixed()]),
      [
        ['dca-2-safety-1', 'BTC_ETH', 'sell', '0.05123', '0.5', '0.12', '0.0061476'],
        ['grid-7-line-3', 'USDT_BTC', 'buy', '41000', '0.01', '0', '0'],
      ],
    );
    assert.equal(recorded.seen('GET /api/v3/openOrders')[0]!.query.get('symbol'), null);
  });

  it('lists one pair’s open orders', async () => {
    const orders = await account({ 'GET /api/v3/openOrders': json(200, [JSON.parse(fixture('binance/open-orders.json'))[0]]) }).openOrders('USDT_BTC');
    assert.deepEqual(orders.map((order) => order.clientOrderId), ['grid-7-line-3']);
    assert.equal(recorded.seen('GET /api/v3/openOrders')[0]!.query.get('symbol'), 'BTCUSDT');
  });
});
