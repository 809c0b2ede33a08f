import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { dec } from '../../shared/decimal.ts';
import type { Exchange, OrderRequest } from '../exchange.ts';
import { CcxtConnector } from './ccxt-connector.ts';
import { ok, RecordedExchange, recordedError, type Reply } from './test-support/recorded-exchange.ts';

const buy: OrderRequest = { clientOrderId: 'grid7line3', pair: 'USDT_BTC', side: 'buy', type: 'limit', amount: dec('0.01'), price: dec('41000.1') };

describe('CcxtExchange on okx (recorded responses)', () => {
  let recorded: RecordedExchange;
  let exchange: Exchange & { close(): Promise<void> };

  const connect = (routes: Record<string, Reply | Reply[]>) => {
    recorded = new RecordedExchange({ 'GET /api/v5/public/instruments': ok('okx/instruments-spot.json'), ...routes });
    exchange = new CcxtConnector({ transport: recorded.transport, rateLimit: false })
      .account('okx', { api_key: 'okx-key-1', secret: 'okx-secret-1', passphrase: 'okx-pass-1' });
    return exchange;
  };

  afterEach(async () => {
    await exchange.close();
    assert.deepEqual(recorded.unexpected, []);
  });

  it('reports balances from the trading account', async () => {
    const balances = await connect({ 'GET /api/v5/account/balance': ok('okx/balance.json') }).balances();
    assert.deepEqual(balances.map((balance) => [balance.currency, balance.free.toFixed(), balance.locked.toFixed()]), [
      ['BTC', '0.12345678', '0'],
      ['USDT', '9876.5', '124'],
    ]);
  });

  it('places an order with its client order id and completes okx’s short answer from the request', async () => {
    const order = await connect({ 'POST /api/v5/trade/batch-orders': ok('okx/place-order.json') }).placeOrder(buy);
    const [sent] = recorded.seen('POST /api/v5/trade/batch-orders');
    assert.deepEqual(
      [sent!.params['instId'], sent!.params['side'], sent!.params['ordType'], sent!.params['sz'], sent!.params['px'], sent!.params['clOrdId']],
      ['BTC-USDT', 'buy', 'limit', '0.01', '41000.1', 'grid7line3'],
    );
    assert.deepEqual(
      [order.id, order.clientOrderId, order.pair, order.status, order.price?.toFixed(), order.amount.toFixed(), order.filled.toFixed()],
      ['680800019749904384', 'grid7line3', 'USDT_BTC', 'open', '41000.1', '0.01', '0'],
    );
  });

  it('returns the existing order when okx refuses a duplicate client order id', async () => {
    const order = await connect({
      'POST /api/v5/trade/batch-orders': recordedError('okx/errors.json', 'duplicateClientOrderId', 200),
      'GET /api/v5/trade/order': ok('okx/order-live.json'),
    }).placeOrder(buy);
    assert.equal(recorded.seen('GET /api/v5/trade/order')[0]!.params['clOrdId'], 'grid7line3');
    assert.deepEqual([order.id, order.status], ['680800019749904384', 'open']);
  });

  it('cancels by client order id and, as okx’s answer has no state, reads how the order ended', async () => {
    const cancelled = await connect({
      'GET /api/v5/trade/order': [ok('okx/order-live.json'), ok('okx/order-canceled.json')],
      'POST /api/v5/trade/cancel-order': ok('okx/cancel-order.json'),
    }).cancelOrder('USDT_BTC', 'grid7line3');
    assert.equal(recorded.seen('POST /api/v5/trade/cancel-order')[0]!.params['ordId'], '680800019749904384');
    assert.deepEqual(
      [cancelled.status, cancelled.filled.toFixed(), cancelled.filledTotal.toFixed(), cancelled.fee.toFixed(), cancelled.feeCurrency],
      ['cancelled', '0.004', '164.0004', '0.000004', 'BTC'],
    );
  });
});
