import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { checkPaperBalances, ConfigError, loadConfig } from './config.ts';
import { resolveMasterKey } from './master-key.ts';

const DEFAULT_PAPER = {
  feed: 'live',
  replaySpeed: 3600,
  replayFrom: undefined,
  liveExchange: 'binance',
  balances: [
    { currency: 'USDT', amount: '10000' },
    { currency: 'BTC', amount: '0.1' },
    { currency: 'ETH', amount: '2' },
  ],
  fee: '0.001',
  slippageBasisPoints: 5,
};

describe(loadConfig.name, () => {
  it('defaults to PGlite in ./data on 127.0.0.1:8080', () => {
    assert.deepEqual(loadConfig({}), {
      host: '127.0.0.1',
      port: 8080,
      dataDir: path.resolve('data'),
      databaseUrl: undefined,
      masterKey: undefined,
      logLevel: 'info',
      logFormat: 'auto',
      rateLimitPerMinute: 100,
      paper: DEFAULT_PAPER,
      signals: { allowedIps: [], hmacSecret: undefined },
      engineLeaseSeconds: 15,
      role: 'all',
      notifications: { telegramApiUrl: 'https://api.telegram.org' },
      streamLimits: { total: 10000, perAddress: 2000, perKey: 100 },
    });
  });

  it('reads the environment, ignoring empty values', () => {
    const config = loadConfig({
      HOST: '0.0.0.0',
      PORT: '9090',
      DATA_DIR: '/var/lib/tradeloop',
      DATABASE_URL: 'postgresql://user:pw@db:5432/tradeloop',
      TRADELOOP_MASTER_KEY: ' passphrase ',
      LOG_LEVEL: 'debug',
      RATE_LIMIT_PER_MINUTE: '0',
      SIGNAL_ALLOWED_IPS: '52.89.214.238, 34.212.75.30,::1',
      SIGNAL_HMAC_SECRET: 'shared',
      ENGINE_LEASE_SECONDS: '4',
      TRADELOOP_ROLE: 'engine',
      TELEGRAM_API_URL: 'http://127.0.0.1:8081/telegram',
      STREAM_MAX_CONNECTIONS: '500',
      STREAM_MAX_CONNECTIONS_PER_ADDRESS: '50',
      STREAM_MAX_CONNECTIONS_PER_KEY: '5',
    });
    assert.deepEqual(config, {
      host: '0.0.0.0',
      port: 9090,
      dataDir: '/var/lib/tradeloop',
      databaseUrl: 'postgresql://user:pw@db:5432/tradeloop',
      masterKey: 'passphrase',
      logLevel: 'debug',
      logFormat: 'auto',
      rateLimitPerMinute: 0,
      paper: DEFAULT_PAPER,
      signals: { allowedIps: ['52.89.214.238', '34.212.75.30', '::1'], hmacSecret: 'shared' },
      engineLeaseSeconds: 4,
      role: 'engine',
      notifications: { telegramApiUrl: 'http://127.0.0.1:8081/telegram' },
      streamLimits: { total: 500, perAddress: 50, perKey: 5 },
    });
    assert.equal(loadConfig({ PORT: '', HOST: ' ', DATABASE_URL: '' }).port, 8080);
    assert.equal(loadConfig({ DATABASE_URL: '' }).databaseUrl, undefined);
  });

  it('lets flags override the environment', () => {
    const config = loadConfig(
      { HOST: '0.0.0.0', PORT: '9090', DATA_DIR: '/env', DATABASE_URL: 'postgres://env/db', LOG_LEVEL: 'debug' },
      { host: '::1', port: '0', 'data-dir': 'relative', 'database-url': 'postgres://flag/db', 'log-level': 'error' },
    );
    assert.equal(config.host, '::1');
    assert.equal(config.port, 0);
    assert.equal(config.dataDir, path.resolve('relative'));
    assert.equal(config.databaseUrl, 'postgres://flag/db');
    assert.equal(config.logLevel, 'error');
  });

  const invalid: Array<[string, Record<string, string>, Record<string, string>, RegExp]> = [
    ['a PORT that is not a number', { PORT: 'http' }, {}, /^PORT must be an integer from 0 to 65535, got "http"$/],
    ['a PORT out of range', { PORT: '65536' }, {}, /^PORT must be an integer from 0 to 65535/],
    ['a negative PORT', { PORT: '-1' }, {}, /^PORT must be/],
    ['a fractional PORT', { PORT: '80.5' }, {}, /^PORT must be/],
    ['a PORT in hexadecimal', { PORT: '0x50' }, {}, /^PORT must be/],
    ['a --port flag out of range', { PORT: '80' }, { port: '70000' }, /^--port must be an integer .*, got "70000"$/],
    [
      'a DATABASE_URL of another kind',
      { DATABASE_URL: 'mysql://db/x' },
      {},
      /^DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL$/,
    ],
    ['a --database-url path', {}, { 'database-url': '/tmp/db' }, /^--database-url must be a postgres:\/\//],
    [
      'an unknown LOG_LEVEL',
      { LOG_LEVEL: 'verbose' },
      {},
      /^LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"$/,
    ],
    ['an unknown --log-level', {}, { 'log-level': 'loud' }, /^--log-level must be one of/],
    ['a negative RATE_LIMIT_PER_MINUTE', { RATE_LIMIT_PER_MINUTE: '-5' }, {}, /^RATE_LIMIT_PER_MINUTE must be/],
    ['a STREAM_MAX_CONNECTIONS_PER_KEY of 0', { STREAM_MAX_CONNECTIONS_PER_KEY: '0' }, {}, /^STREAM_MAX_CONNECTIONS_PER_KEY must be/],
    ['a TELEGRAM_API_URL that is not http(s)', { TELEGRAM_API_URL: 'api.telegram.org' }, {}, /^TELEGRAM_API_URL must be an http:\/\/ or https:\/\/ URL, got "api.telegram.org"$/],
    ['a SIGNAL_ALLOWED_IPS entry that is a name', { SIGNAL_ALLOWED_IPS: '52.89.214.238,tradingview.com' }, {}, /^SIGNAL_ALLOWED_IPS must list IP addresses separated by commas, got "tradingview.com"$/],
    ['a RATE_LIMIT_PER_MINUTE that is no number', { RATE_LIMIT_PER_MINUTE: 'lots' }, {}, /^RATE_LIMIT_PER_MINUTE/],
    ['a HOST that is a name', { HOST: 'my-server.example' }, {}, /^HOST must be an IP address of this machine or localhost .*got "my-server.example"$/],
    ['a --host that is no address', {}, { host: '300.1.2.3' }, /^--host must be an IP address/],
    ['an ENGINE_LEASE_SECONDS of 0', { ENGINE_LEASE_SECONDS: '0' }, {}, /^ENGINE_LEASE_SECONDS must be an integer from 1 to 3600, got "0"$/],
    ['an unknown --role', {}, { role: 'worker' }, /^--role must be one of all, api, engine, got "worker"$/],
    ['--role api without DATABASE_URL', {}, { role: 'api' }, /^--role api needs DATABASE_URL: the embedded database serves one process/],
    ['TRADELOOP_ROLE=engine without DATABASE_URL', { TRADELOOP_ROLE: 'engine' }, {}, /^TRADELOOP_ROLE engine needs DATABASE_URL/],
    ['an unknown LOG_FORMAT', { LOG_FORMAT: 'xml' }, {}, /^LOG_FORMAT must be one of auto, pretty, json, got "xml"$/],
  ];
  for (const [what, env, flags, message] of invalid) {
    it(`rejects ${what} with a ConfigError naming it`, () => {
      assert.throws(() => loadConfig(env, flags), (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, message);
        return true;
      });
    });
  }

  it('never repeats a DATABASE_URL, which may hold a password', () => {
    assert.throws(() => loadConfig({ DATABASE_URL: 'mysql://user:hunter2@db/x' }), (error: unknown) => {
      return error instanceof ConfigError && !error.message.includes('hunter2');
    });
  });
});

describe(resolveMasterKey.name, () => {
  let dataDir: string;
  const keyFile = () => path.join(dataDir, 'master.key');

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradeloop-config-'));
  });

  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('creates master.key with mode 0600 on first use and reuses it afterwards', () => {
    const first = resolveMasterKey(undefined, dataDir);
    assert.equal(first.length, 32);
    assert.equal(fs.statSync(keyFile()).mode & 0o777, 0o600);
    assert.match(fs.readFileSync(keyFile(), 'utf8'), /^[0-9a-f]{64}\n$/);
    assert.deepEqual(resolveMasterKey(undefined, dataDir), first);
    assert.deepEqual(fs.readdirSync(dataDir), ['master.key']);
  });

  it('uses TRADELOOP_MASTER_KEY when given, and writes no file', () => {
    const hex = 'ab'.repeat(32);
    assert.deepEqual(resolveMasterKey(hex, dataDir), Buffer.from(hex, 'hex'));
    assert.equal(fs.existsSync(keyFile()), false);
  });

  it('refuses an empty key file instead of deriving a key from nothing', () => {
    fs.writeFileSync(keyFile(), '\n', { mode: 0o600 });
    assert.throws(() => resolveMasterKey(undefined, dataDir), (error: unknown) => {
      return error instanceof ConfigError && error.message.includes(keyFile());
    });
  });
});

describe('paper trading settings', () => {
  it('reads the feed, replay speed, balances and fee', () => {
    const { paper } = loadConfig({
      PAPER_FEED: 'replay',
      PAPER_REPLAY_SPEED: '60',
      PAPER_REPLAY_FROM: '2021-05-01',
      PAPER_BALANCES: 'USDT:500, SOL:3.5',
      PAPER_FEE: '0.00075',
      PAPER_LIVE_EXCHANGE: 'kraken',
      PAPER_SLIPPAGE_BPS: '0',
    });
    assert.deepEqual(paper, {
      feed: 'replay',
      replaySpeed: 60,
      replayFrom: new Date('2021-05-01T00:00:00Z'),
      liveExchange: 'kraken',
      balances: [
        { currency: 'USDT', amount: '500' },
        { currency: 'SOL', amount: '3.5' },
      ],
      fee: '0.00075',
      slippageBasisPoints: 0,
    });
  });

  for (const [name, value, message] of [
    ['PAPER_FEED', 'random', /PAPER_FEED must be one of live, replay, synthetic, manual/],
    ['PAPER_BALANCES', 'USDT=5', /PAPER_BALANCES must look like/],
    ['PAPER_FEE', '1.5', /PAPER_FEE must be a fraction below 1/],
    ['PAPER_REPLAY_SPEED', '-1', /PAPER_REPLAY_SPEED must be an integer/],
    ['PAPER_REPLAY_FROM', 'May 2021', /PAPER_REPLAY_FROM must be a date such as 2024-03-01 \(UTC\), got "May 2021"/],
    ['PAPER_REPLAY_FROM', '2021-02-30', /PAPER_REPLAY_FROM must be a date/],
  ] as const) {
    it(`refuses ${name}=${value}`, () => {
      assert.throws(() => loadConfig({ [name]: value }), message);
    });
  }

  it('refuses starting balances in a currency no paper market trades, listing the ones it does', () => {
    const traded = ['BTC', 'USDT', 'ETH'];
    assert.doesNotThrow(() => checkPaperBalances(loadConfig({ PAPER_BALANCES: 'USDT:1,ETH:2' }).paper.balances, traded));
    assert.throws(
      () => checkPaperBalances(loadConfig({ PAPER_BALANCES: 'USDT:1,DOGE:5,XRP:1' }).paper.balances, traded),
      /^ConfigError: PAPER_BALANCES names DOGE, XRP, which no paper market trades; use BTC, USDT, ETH$/,
    );
  });
});
