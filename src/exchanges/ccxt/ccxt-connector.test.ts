import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { ExchangeError, type Market } from '../exchange.ts';
import { CcxtConnector } from './ccxt-connector.ts';
import { NO_UPPER_LIMIT } from './ccxt-rules.ts';
import { fixture, json, ok, RecordedExchange } from './test-support/recorded-exchange.ts';

const text = (market: Market | undefined) =>
  market && Object.fromEntries(Object.entries(market.rules).map(([key, value]) => [key, value.toFixed()]));

describe(CcxtConnector.name, () => {
  let recorded: RecordedExchange;
  const connector = (routes: ConstructorParameters<typeof RecordedExchange>[0]) => {
    recorded = new RecordedExchange(routes);
    return new CcxtConnector({ transport: recorded.transport, rateLimit: false });
  };
  afterEach(() => assert.deepEqual(recorded?.unexpected ?? [], []));

  it('describes each exchange from its ccxt class: name, links, credential fields, streaming', async () => {
    const described = await new CcxtConnector().describe();
    assert.deepEqual(described.map((exchange) => exchange.marketCode), ['binance', 'bybit', 'okx', 'kucoin', 'coinbase', 'kraken', 'gate', 'bitget']);
    const binance = described.find((exchange) => exchange.marketCode === 'binance')!;
    assert.deepEqual(binance, {
      marketCode: 'binance',
      name: 'Binance',
      marketUrl: 'https://www.binance.com',
      helpLink: 'https://developers.binance.com/en',
      icon: 'https://github.com/user-attachments/assets/e9419b93-ccb0-46aa-9bff-c883f096274b',
      formFields: { required: [{ field: 'api_key', localized_name: 'API Key' }, { field: 'secret', localized_name: 'Secret' }], optional: [] },
      streamsOrders: true,
    });
    const okx = described.find((exchange) => exchange.marketCode === 'okx')!;
    assert.deepEqual(okx.formFields.required.map((field) => field.field), ['api_key', 'secret', 'passphrase']);
    assert.equal(described.find((exchange) => exchange.marketCode === 'gate')!.name, 'Gate');
  });

  it('maps binance spot markets to QUOTE_BASE pairs with exact rules, leaving out halted ones', async () => {
    const markets = await connector({ 'GET /api/v3/exchangeInfo': ok('binance/exchange-info.json') }).markets('binance');
    assert.deepEqual(markets.map((market) => [market.pair, market.base, market.quote]), [
      ['USDT_BTC', 'BTC', 'USDT'],
      ['USDT_ETH', 'ETH', 'USDT'],
      ['BTC_ETH', 'ETH', 'BTC'],
    ]);
    assert.deepEqual(text(markets[0]), {
      minPrice: '0.01', maxPrice: '1000000', priceStep: '0.01',
      minLotSize: '0.00001', maxLotSize: '9000', lotStep: '0.00001',
      minTotal: '5', minMarketTotal: '5', maxTotal: '9000000',
      maxMarketBuyAmount: '114.81524264', maxMarketSellAmount: '114.81524264',
      bidMultiplierUp: '5', bidMultiplierDown: '0.2', askMultiplierUp: '5', askMultiplierDown: '0.2',
    });
    const ethBtc = text(markets[2])!;
    assert.deepEqual([ethBtc['priceStep'], ethBtc['lotStep'], ethBtc['minTotal'], ethBtc['minMarketTotal']], ['0.00001', '0.0001', '0.0001', '0']);
  });

  it('maps okx spot markets the same way, with permissive values where okx states none', async () => {
    const markets = await connector({ 'GET /api/v5/public/instruments': ok('okx/instruments-spot.json') }).markets('okx');
    assert.deepEqual(markets.map((market) => market.pair), ['USDT_BTC', 'USDT_ETH']);
    const btc = text(markets[0])!;
    assert.deepEqual(
      [btc['priceStep'], btc['lotStep'], btc['minLotSize'], btc['minTotal'], btc['minPrice'], btc['maxPrice'], btc['bidMultiplierUp']],
      ['0.1', '0.00000001', '0.00001', '0', '0.1', NO_UPPER_LIMIT.toFixed(), NO_UPPER_LIMIT.toFixed()],
    );
  });

  it('loads markets once per exchange and shares them with connected accounts', async () => {
    const shared = connector({ 'GET /api/v3/exchangeInfo': ok('binance/exchange-info.json') });
    await shared.markets('binance');
    await shared.markets('binance');
    const account = shared.account('binance', { api_key: 'key-1', secret: 'secret-1' });
    assert.equal((await account.markets()).length, 3);
    assert.equal(recorded.seen('GET /api/v3/exchangeInfo').length, 1);
    await account.close();
  });

  it('loads markets again once they are older than marketsTtlMs, and connected accounts follow', async () => {
    const info = JSON.parse(fixture('binance/exchange-info.json')) as { symbols: { symbol: string }[] };
    const btcOnly = { ...info, symbols: info.symbols.filter((symbol) => symbol.symbol === 'BTCUSDT') };
    recorded = new RecordedExchange({ 'GET /api/v3/exchangeInfo': [ok('binance/exchange-info.json'), json(200, btcOnly)] });
    let now = 0;
    const aging = new CcxtConnector({ transport: recorded.transport, rateLimit: false, marketsTtlMs: 1_000, now: () => new Date(now) });
    const account = aging.account('binance', { api_key: 'key-1', secret: 'secret-1' });
    assert.equal((await account.markets()).length, 3);
    now = 999;
    assert.equal((await aging.markets('binance')).length, 3);
    now = 1_000;
    assert.deepEqual((await account.markets()).map((market) => market.pair), ['USDT_BTC']);
    assert.equal(recorded.seen('GET /api/v3/exchangeInfo').length, 2);
    await account.close();
  });

  it('reads tickers as exact decimals, several pairs in one request', async () => {
    const tickers = await connector({
      'GET /api/v3/exchangeInfo': ok('binance/exchange-info.json'),
      'GET /api/v3/ticker/24hr': ok('binance/tickers-24hr.json'),
    }).tickers('binance', ['USDT_BTC', 'USDT_ETH']);
    assert.deepEqual(tickers.map((ticker) => [ticker.pair, ticker.bid.toFixed(), ticker.ask.toFixed(), ticker.last.toFixed()]), [
      ['USDT_BTC', '42000', '42000.01', '42000.01'],
      ['USDT_ETH', '2303.4', '2303.41', '2303.41'],
    ]);
    const [request] = recorded.seen('GET /api/v3/ticker/24hr');
    assert.equal(request!.query.get('symbols'), '["BTCUSDT","ETHUSDT"]');
  });

  it('reads okx tickers, keeping only the pairs asked for', async () => {
    const tickers = await connector({
      'GET /api/v5/public/instruments': ok('okx/instruments-spot.json'),
      'GET /api/v5/market/tickers': ok('okx/tickers-spot.json'),
    }).tickers('okx', ['USDT_ETH', 'USDT_BTC']);
    assert.deepEqual(tickers.map((ticker) => `${ticker.pair} ${ticker.bid} ${ticker.ask} ${ticker.last}`).sort(), [
      'USDT_BTC 42010.3 42010.4 42010.3',
      'USDT_ETH 2303.52 2303.53 2303.52',
    ]);
  });

  it('names unknown market codes and pairs as unknown markets', async () => {
    const known = connector({ 'GET /api/v3/exchangeInfo': ok('binance/exchange-info.json') });
    await assert.rejects(known.markets('mtgox'), (error: ExchangeError) => error.kind === 'unknown_market' && /mtgox/.test(error.message));
    await assert.rejects(known.tickers('binance', ['USDT_DOGE']), (error: ExchangeError) => error.kind === 'unknown_market' && /USDT_DOGE/.test(error.message));
  });

  it('reports an exchange that cannot be reached as unavailable, and tries again next time', async () => {
    const flaky = connector({
      'GET /api/v3/exchangeInfo': [{ status: 503, body: 'Service Unavailable' }, ok('binance/exchange-info.json')],
    });
    await assert.rejects(flaky.markets('binance'), (error: ExchangeError) => error.kind === 'unavailable' && error.message.startsWith('Binance: '));
    assert.equal((await flaky.markets('binance')).length, 3);
  });

  it('refuses to connect without the credentials the exchange requires, before sending anything', () => {
    const offline = connector({});
    assert.throws(
      () => offline.account('okx', { api_key: 'key-1', secret: 'secret-1' }),
      (error: ExchangeError) => error.kind === 'invalid_credentials' && error.message === 'OKX needs Passphrase',
    );
    assert.deepEqual(recorded.requests, []);
  });

  it('passes the credentials to ccxt under its names', async () => {
    const okx = connector({
      'GET /api/v5/public/instruments': ok('okx/instruments-spot.json'),
      'GET /api/v5/account/balance': json(200, { code: '0', msg: '', data: [{ details: [] }] }),
    }).account('okx', { api_key: 'key-1', secret: 'secret-1', passphrase: 'pass-phrase-1' });
    await okx.balances();
    const [request] = recorded.seen('GET /api/v5/account/balance');
    assert.equal(request!.headers['OK-ACCESS-KEY'], 'key-1');
    assert.equal(request!.headers['OK-ACCESS-PASSPHRASE'], 'pass-phrase-1');
    await okx.close();
  });
});
