/**
 * The real server on a loopback port, backed by a test database, plus helpers to make users and
 * keys and to send signed requests with fetch.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp, createLogger, openCore, type Core } from '../../src/app.ts';
import type { Permission } from '../../src/auth/permissions.ts';
import type { PrepareBacktest } from '../../src/backtest/backtest-jobs.ts';
import { loadConfig } from '../../src/config/config.ts';
import { ExchangeError } from '../../src/exchanges/exchange.ts';
import type { ExchangeConnector } from '../../src/exchanges/exchange-connector.ts';
import { openTestDatabase } from './database.ts';
import { signPayload, type Credentials } from './signing.ts';

export interface TestApp {
  core: Core;
  app: FastifyInstance;
  baseUrl: string;
  dataDir: string;
  close(): Promise<void>;
  createKey(options?: { user?: string; permissions?: Permission[]; strict?: boolean; rsaPublicKeyPem?: string }): Promise<{ id: number; apiKey: string; secret: string }>;
  request(options: SignedRequestOptions): Promise<TestResponse>;
}

export interface SignedRequestOptions {
  method?: string;
  /** Path under /public/api, with the query string if any, exactly as it is to be sent. */
  path: string;
  body?: string | Buffer;
  contentType?: string;
  credentials?: Credentials;
  /** The string to sign; defaults to path (with query) followed by the body. */
  signWith?: string | Buffer;
  headers?: Record<string, string>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface TestAppOptions {
  /** Real exchanges as the tests want them; by default the server offers none. */
  connector?: ExchangeConnector;
  /** Offer ccxt's real exchanges, each answering as if it were down. */
  unreachableExchanges?: boolean;
  now?: () => Date;
  /** The websocket heartbeat interval (3 s by default). */
  streamHeartbeatMs?: number;
  /** The process logger; silent unless TEST_LOG_LEVEL is set. */
  logger?: Logger;
  /** Pauses between notification delivery attempts (minutes by default). */
  notificationRetryDelaysMs?: readonly number[];
  /** How often the notification worker looks at the outbox (every second by default). */
  notificationPollMs?: number;
  /** How a backtest job starts its run (the runner by default). */
  prepareBacktest?: PrepareBacktest;
}

/**
 * Tests never reach the network. Most are about paper trading and need no real exchange, and
 * loading ccxt costs about 1.5 s of CPU per test process, so it is loaded only when asked for.
 */
async function realExchangesFor(options: TestAppOptions): Promise<ExchangeConnector> {
  if (options.connector) return options.connector;
  if (!options.unreachableExchanges) return noRealExchanges;
  const [{ default: ccxt }, { CcxtConnector }] = await Promise.all([
    import('ccxt'),
    import('../../src/exchanges/ccxt/ccxt-connector.ts'),
  ]);
  return new CcxtConnector({
    transport: async (url) => {
      throw new ccxt.NetworkError(`no network in tests (${new URL(url).host})`);
    },
  });
}

const noRealExchanges: ExchangeConnector = {
  describe: async () => [],
  markets: async (marketCode) => refuse(marketCode),
  tickers: async (marketCode) => refuse(marketCode),
  connect: async (marketCode) => refuse(marketCode),
};

function refuse(marketCode: string): never {
  throw new ExchangeError('unknown_market', `Unknown market code ${marketCode}`);
}

export async function startTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradeloop-test-'));
  const config = loadConfig({ RATE_LIMIT_PER_MINUTE: '0', PAPER_FEED: 'manual', ...env, DATA_DIR: dataDir });
  const db = await openTestDatabase();
  const core = await openCore(config, {
    db,
    logger: options.logger ?? createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
    connector: await realExchangesFor(options),
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.notificationRetryDelaysMs === undefined ? {} : { notificationRetryDelaysMs: options.notificationRetryDelaysMs }),
    ...(options.notificationPollMs === undefined ? {} : { notificationPollMs: options.notificationPollMs }),
    ...(options.prepareBacktest === undefined ? {} : { prepareBacktest: options.prepareBacktest }),
  });
  await core.startTrading();
  const app = await buildApp(core, options.now, options.streamHeartbeatMs === undefined ? {} : { streamHeartbeatMs: options.streamHeartbeatMs });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  let userCounter = 0;

  const testApp: TestApp = {
    core,
    app,
    baseUrl,
    dataDir,
    close: async () => {
      // A response a test left unread keeps its connection busy, and close would wait for it.
      const closing = app.close();
      app.server.closeAllConnections();
      await closing;
      await core.close();
      await db.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    createKey: async (options = {}) => {
      const userName = options.user ?? `user${++userCounter}`;
      if (!(await core.users.findByName(userName))) await core.users.create(userName);
      const created = await core.apiKeys.create({
        userName,
        name: 'test key',
        permissions: options.permissions ?? ['BOTS_READ', 'BOTS_WRITE', 'ACCOUNTS_READ', 'ACCOUNTS_WRITE', 'SMART_TRADES_READ', 'SMART_TRADES_WRITE'],
        strict: options.strict ?? false,
        ...(options.rsaPublicKeyPem === undefined ? {} : { rsaPublicKeyPem: options.rsaPublicKeyPem }),
      });
      return { id: created.id, apiKey: created.api_key, secret: created.secret ?? '' };
    },
    request: async (options) => {
      const fullPath = `/public/api${options.path}`;
      const headers: Record<string, string> = { ...options.headers };
      if (options.contentType) headers['content-type'] = options.contentType;
      if (options.credentials) {
        const body = options.body === undefined ? Buffer.alloc(0) : Buffer.from(options.body);
        const payload = options.signWith ?? Buffer.concat([Buffer.from(fullPath), body]);
        headers.APIKEY = options.credentials.apiKey;
        headers.Signature = signPayload(options.credentials, payload);
      }
      const response = await fetch(`${baseUrl}${fullPath}`, {
        method: options.method ?? 'GET',
        headers,
        ...(options.body === undefined ? {} : { body: options.body }),
      });
      const text = await response.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      return { status: response.status, headers: response.headers, body, text };
    },
  };
  return testApp;
}
