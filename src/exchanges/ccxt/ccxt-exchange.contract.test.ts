import assert from 'node:assert/strict';
import { exchangeContract } from '../exchange.contract.ts';
import { CcxtConnector } from './ccxt-connector.ts';
import { SimulatedBinance } from './test-support/simulated-binance.ts';

exchangeContract('CcxtExchange on binance', async () => {
  const binance = new SimulatedBinance('contract-key', { USDT: '10000', BTC: '1' }, { BTCUSDT: { bid: '60000', ask: '60000.01' } });
  const connector = new CcxtConnector({ transport: binance.transport, rateLimit: false, pollIntervalMs: 5 });
  const exchange = connector.account('binance', { api_key: 'contract-key', secret: 'contract-secret' });
  return {
    exchange,
    pair: 'USDT_BTC',
    crossMarket: (_pair, order) => binance.fill(order.clientOrderId),
    close: async () => {
      await exchange.close();
      assert.deepEqual(binance.recorded.unexpected, []);
    },
  };
});
