import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { NetworkError, RequestTimeout } from 'ccxt';
import { dec } from '../../shared/decimal.ts';
import { type Exchange, ExchangeError, type ExchangeErrorKind, type OrderRequest } from '../exchange.ts';
import { CcxtConnector } from './ccxt-connector.ts';
import { toExchangeError } from './ccxt-errors.ts';
import { ok, RecordedExchange, recordedError, type Reply } from './test-support/recorded-exchange.ts';

const binanceKeys = { api_key: 'binance-key-1234', secret: 'binance-secret-5678' };
const okxKeys = { api_key: 'okx-key-1234', secret: 'okx-secret-5678', passphrase: 'okx-pass-9012' };
const buy: OrderRequest = { clientOrderId: 'grid7line3', pair: 'USDT_BTC', side: 'buy', type: 'limit', amount: dec('0.01'), price: dec('41000.1') };

describe('ccxt errors as exchange error kinds', () => {
  let recorded: RecordedExchange;
  let exchange: (Exchange & { close(): Promise<void> }) | undefined;

  const connect = (marketCode: 'binance' | 'okx', routes: Record<string, Reply | Reply[]>) => {
    const markets = marketCode === 'binance'
      ? { 'GET /api/v3/exchangeInfo': ok('binance/exchange-info.json') }
      : { 'GET /api/v5/public/instruments': ok('okx/instruments-spot.json') };
    recorded = new RecordedExchange({ ...markets, ...routes });
    exchange = new CcxtConnector({ transport: recorded.transport, rateLimit: false }).account(marketCode, marketCode === 'binance' ? binanceKeys : okxKeys);
    return exchange;
  };

  afterEach(async () => {
    await exchange?.close();
    assert.deepEqual(recorded.unexpected, []);
  });

  const rejectsAs = async (work: Promise<unknown>, kind: ExchangeErrorKind, message: RegExp) => {
    await assert.rejects(work, (error: unknown) => {
      assert.ok(error instanceof ExchangeError, String(error));
      assert.equal(error.kind, kind, error.message);
      assert.match(error.message, message);
      for (const secret of [...Object.values(binanceKeys), ...Object.values(okxKeys)]) assert.ok(!error.message.includes(secret), error.message);
      assert.ok(!/signature=/.test(error.message), error.message);
      return true;
    });
  };

  const binanceOrderFailure = (name: string, status = 400) => connect('binance', { 'POST /api/v3/order': recordedError('binance/errors.json', name, status) }).placeOrder(buy);

  it('binance -2010 insufficient balance is insufficient_funds', async () => {
    await rejectsAs(binanceOrderFailure('insufficientBalance'), 'insufficient_funds', /^Binance: Account has insufficient balance/);
  });

  it('binance -1013 filter failures are rule violations', async () => {
    await rejectsAs(binanceOrderFailure('lotSize'), 'rule_violation', /^Binance: Filter failure: LOT_SIZE \(code -1013\)$/);
    await rejectsAs(binanceOrderFailure('minNotional'), 'rule_violation', /NOTIONAL/);
  });

  it('binance -2015 invalid key and -1022 bad signature are invalid_credentials', async () => {
    await rejectsAs(binanceOrderFailure('invalidKey', 401), 'invalid_credentials', /Invalid API-key/);
    await rejectsAs(connect('binance', { 'GET /api/v3/account': recordedError('binance/errors.json', 'badSignature') }).balances(), 'invalid_credentials', /Signature/);
  });

  it('binance -1121 invalid symbol is unknown_market', async () => {
    await rejectsAs(binanceOrderFailure('invalidSymbol'), 'unknown_market', /Invalid symbol/);
  });

  it('binance -2013 on a lookup is order_not_found', async () => {
    const lookup = connect('binance', { 'GET /api/v3/order': recordedError('binance/errors.json', 'orderDoesNotExist') });
    await rejectsAs(lookup.cancelOrder('USDT_BTC', 'nobody'), 'order_not_found', /nobody/);
  });

  it('outages, timeouts and rate limits are unavailable, and the URL loses its signed query', async () => {
    await rejectsAs(connect('binance', { 'GET /api/v3/account': { status: 503, body: 'Service Unavailable' } }).balances(), 'unavailable', /api\/v3\/account/);
    await rejectsAs(connect('binance', { 'GET /api/v3/account': { status: 429, body: '{"code":-1003,"msg":"Too many requests."}' } }).balances(), 'unavailable', /^Binance: Too many requests. \(code -1003\)$/);
    const offline = connect('binance', {});
    recorded.on('GET /api/v3/account', () => {
      throw new RequestTimeout('binance GET https://api.binance.com/api/v3/account?timestamp=1&signature=abc request timed out (10000 ms)');
    });
    await rejectsAs(offline.balances(), 'unavailable', /timed out/);
  });

  it('okx 51008 is insufficient_funds, 51121 a rule violation, 50111 invalid_credentials', async () => {
    await rejectsAs(connect('okx', { 'POST /api/v5/trade/batch-orders': recordedError('okx/errors.json', 'insufficientBalance', 200) }).placeOrder(buy), 'insufficient_funds', /^OKX: Order failed. Insufficient USDT balance in account. \(code 51008\)$/);
    await rejectsAs(connect('okx', { 'POST /api/v5/trade/batch-orders': recordedError('okx/errors.json', 'lotSize', 200) }).placeOrder(buy), 'rule_violation', /lot size/);
    await rejectsAs(connect('okx', { 'GET /api/v5/account/balance': recordedError('okx/errors.json', 'invalidKey', 401) }).balances(), 'invalid_credentials', /OK-ACCESS-KEY/);
  });

  it('never repeats a credential, wherever the exchange echoes it', () => {
    const error = toExchangeError(new NetworkError('binance GET https://api.binance.com/api/v3/account?apiKey=binance-key-1234&signature=ff key binance-key-1234 refused'), {
      exchangeId: 'binance', exchangeName: 'Binance', placingOrder: false, secrets: Object.values(binanceKeys),
    });
    assert.ok(error instanceof ExchangeError);
    assert.equal(error.message, 'Binance: GET https://api.binance.com/api/v3/account key *** refused');
  });

  it('leaves errors that are not ccxt errors alone', () => {
    const bug = new TypeError('x is undefined');
    assert.equal(toExchangeError(bug, { exchangeId: 'binance', exchangeName: 'Binance', placingOrder: false, secrets: [] }), bug);
  });
});
