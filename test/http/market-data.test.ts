import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, assertRecordInvalid, postTicks } from '../support/api.ts';
import type { Credentials } from '../support/signing.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
let admin: Credentials;
before(async () => {
  t = await startTestApp({}, { unreachableExchanges: true });
  admin = await t.createKey({ user: 'operator', permissions: ['ADMIN'] });
});
after(() => t.close());

// Market data is public: none of these requests is signed.
const get = (path: string) => t.request({ path });

const MARKET_FIELDS = [
  'available_connection_flows', 'fast_connect_action_name', 'form_fields', 'help_link', 'market_code', 'market_icon',
  'market_name', 'market_url', 'third_party_allowed', 'trusted_ips', 'trusted_ips_input_type',
];

const USDT_ETH_RULES = {
  orderbook_price_currency: 'USDT', strategy_name: 'spot', contract_strategy_name: 'spot', instrumentKind: 'spot',
  minPrice: '0.01', maxPrice: '1000000', priceStep: '0.01', minLotSize: '0.0001', maxLotSize: '9000', lotStep: '0.0001',
  maxMarketBuyAmount: '2000', maxMarketSellAmount: '2000', bidMultiplierDown: '0.2', bidMultiplierUp: '5',
  askMultiplierUp: '5', askMultiplierDown: '0.2', minTotal: '5', minMarketTotal: '5', maxTotal: '9000000',
};

describe('GET /ver1/accounts/market_list', () => {
  it('lists the paper market first, then the eight real exchanges', async () => {
    const response = await get('/ver1/accounts/market_list');
    assert.equal(response.status, 200, response.text);
    const paperIcon = response.body[0].market_icon;
    assert.match(paperIcon, /^data:image\/svg\+xml,%3Csvg%20/);
    assert.deepEqual(response.body[0], {
      market_name: 'Paper trading account', market_url: '', market_icon: paperIcon, help_link: '', market_code: 'paper_trading',
      form_fields: { required: [], optional: [] }, available_connection_flows: ['form'], third_party_allowed: false,
      trusted_ips: [], trusted_ips_input_type: 'inline', fast_connect_action_name: '',
    });
    const codes = response.body.map((market: { market_code: string }) => market.market_code);
    assert.deepEqual(codes, ['paper_trading', 'binance', 'bybit', 'okx', 'kucoin', 'coinbase', 'kraken', 'gate', 'bitget']);
    for (const market of response.body) assert.deepEqual(Object.keys(market).sort(), MARKET_FIELDS, market.market_code);
    // Every market has an icon: the exchanges' logos as ccxt knows them.
    for (const market of response.body) assert.ok(market.market_icon !== '', market.market_code);
    assert.match(response.body[1].market_icon, /^https:\/\//);
  });

  it('names the credentials each exchange needs; okx, kucoin and bitget also need a passphrase', async () => {
    const markets = (await get('/ver1/accounts/market_list')).body.slice(1);
    const withPassphrase = ['okx', 'kucoin', 'bitget'];
    for (const market of markets) {
      const required = [
        { field: 'api_key', localized_name: 'API Key' },
        { field: 'secret', localized_name: 'Secret' },
        ...(withPassphrase.includes(market.market_code) ? [{ field: 'passphrase', localized_name: 'Passphrase' }] : []),
      ];
      assert.deepEqual(market.form_fields, { required, optional: [] }, market.market_code);
      assert.match(market.market_url, /^https:\/\//, market.market_code);
      assert.ok(market.market_name.length > 0);
    }
  });
});

describe('GET /ver1/accounts/market_pairs', () => {
  it('lists the paper pairs in QUOTE_BASE form', async () => {
    const response = await get('/ver1/accounts/market_pairs?market_code=paper_trading');
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body, ['USDT_BTC', 'USDT_ETH', 'BTC_ETH', 'USDT_SOL']);
  });

  it('names market_code when it is unknown or missing', async () => {
    assertRecordInvalid(await get('/ver1/accounts/market_pairs?market_code=mtgox'), { market_code: ['does not have a valid value'] });
    assertRecordInvalid(await get('/ver1/accounts/market_pairs'), { market_code: ['is missing'] });
  });

  it('answers 503 exchange_unavailable in JSON when the exchange cannot be reached', async () => {
    const response = await get('/ver1/accounts/market_pairs?market_code=binance');
    assertError(response, 503, { error: 'exchange_unavailable', error_description: 'Binance: no network in tests (api.binance.com)' });
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  });
});

describe('GET /ver1/accounts/currency_rates and currency_rates_with_leverage_data', () => {
  it('answers 422 price_unavailable before the pair has had a price', async () => {
    for (const path of ['currency_rates', 'currency_rates_with_leverage_data']) {
      assertError(await get(`/ver1/accounts/${path}?market_code=paper_trading&pair=USDT_SOL`), 422, {
        error: 'price_unavailable',
        error_description: 'No price yet for USDT_SOL on paper_trading',
      });
    }
  });

  it('gives the last tick’s prices and the pair’s rules, every value a string', async () => {
    const ticks = await postTicks(t, admin, [{ pair: 'USDT_ETH', price: '3000.5', bid: '3000.25', ask: '3000.75' }]);
    assert.equal(ticks.status, 200, ticks.text);
    const response = await get('/ver1/accounts/currency_rates?market_code=paper_trading&pair=USDT_ETH&limit_type=bot');
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body, {
      last: '3000.5', bid: '3000.25', ask: '3000.75', orderbook_ask: '3000.75', orderbook_bid: '3000.25', orderbook_last: '3000.5',
      ...USDT_ETH_RULES,
    });
  });

  it('adds leverage data (spot only: none) and the market amounts; all else stays a string', async () => {
    await postTicks(t, admin, [{ pair: 'BTC_ETH', price: '0.05' }]);
    const response = await get('/ver1/accounts/currency_rates_with_leverage_data?market_code=paper_trading&pair=BTC_ETH');
    assert.equal(response.status, 200, response.text);
    const { leverage_data: leverage, ...rest } = response.body;
    assert.deepEqual(leverage, [
      { code: 'none', name: 'None', can_set_leverage_value: false, available_leverage_values: [], max_leverage: '1', valid: { min: 1, max: '1' } },
    ]);
    assert.deepEqual(rest, {
      last: '0.05', bid: '0.05', ask: '0.05', orderbook_ask: '0.05', orderbook_bid: '0.05', orderbook_last: '0.05',
      orderbook_price_currency: 'BTC', strategy_name: 'spot', contract_strategy_name: 'spot', instrumentKind: 'spot',
      minPrice: '0.00001', maxPrice: '922327', priceStep: '0.00001', minLotSize: '0.0001', maxLotSize: '100000', lotStep: '0.0001',
      maxMarketBuyAmount: '2000', maxMarketSellAmount: '2000', bidMultiplierDown: '0.2', bidMultiplierUp: '5',
      askMultiplierUp: '5', askMultiplierDown: '0.2', minTotal: '0.0001', minMarketTotal: '0.0001', maxTotal: '9000000',
      minMarketBuyAmount: '0.0001', minMarketSellAmount: '0.0001',
    });
  });

  it('names a missing or unknown pair, market_code or limit_type', async () => {
    for (const path of ['currency_rates', 'currency_rates_with_leverage_data']) {
      assertRecordInvalid(await get(`/ver1/accounts/${path}?market_code=paper_trading`), { pair: ['is missing'] });
      assertRecordInvalid(await get(`/ver1/accounts/${path}`), { market_code: ['is missing'], pair: ['is missing'] });
      assertRecordInvalid(await get(`/ver1/accounts/${path}?market_code=paper_trading&pair=USDT_XRP`), { pair: ['does not have a valid value'] });
      assertRecordInvalid(await get(`/ver1/accounts/${path}?market_code=mtgox&pair=USDT_BTC`), { market_code: ['does not have a valid value'] });
    }
    assertRecordInvalid(await get('/ver1/accounts/currency_rates?market_code=paper_trading&pair=USDT_ETH&limit_type=grid'), {
      limit_type: ['does not have a valid value'],
    });
  });

  it('answers 503 for a real exchange that cannot be reached', async () => {
    assertError(await get('/ver1/accounts/currency_rates?market_code=okx&pair=USDT_BTC'), 503, {
      error: 'exchange_unavailable',
      error_description: 'OKX: no network in tests (www.okx.com)',
    });
  });
});
