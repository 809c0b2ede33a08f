/**
 * Several real server processes on one PostgreSQL database (a database of its own, dropped
 * afterwards): each account is run by the one engine holding its lease, a stopped server hands
 * its accounts back and another takes them, an `engine` process serves no API, and an `api`
 * process runs nothing and refuses actions with a 503 it can be retried after.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { callProcess as call, type ProcessKey as Key } from '../support/process-client.ts';
import { TradeloopProcesses, type RunningServer } from '../support/tradeloop-process.ts';
import { until } from '../support/until.ts';

const postgresUrl = process.env.DATABASE_URL;
const skip = postgresUrl === undefined ? 'several servers share a PostgreSQL database: set DATABASE_URL to run these tests' : false;

describe('servers sharing one PostgreSQL database', { skip, concurrency: 1, timeout: 300_000 }, () => {
  const processes = new TradeloopProcesses();
  const database = `tl_shared_${randomBytes(5).toString('hex')}`;
  const dataDirs: string[] = [];
  const masterKey = randomBytes(32).toString('hex');
  let first: RunningServer;
  let second: RunningServer;
  let admin: Key;
  let trader: Key;
  let accountId: number;

  const env = (extra: Record<string, string> = {}) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradeloop-shared-'));
    dataDirs.push(dataDir);
    const url = new URL(postgresUrl!);
    url.pathname = `/${database}`;
    return {
      DATA_DIR: dataDir,
      DATABASE_URL: url.toString(),
      PORT: '0',
      PAPER_FEED: 'manual',
      LOG_LEVEL: 'info',
      RATE_LIMIT_PER_MINUTE: '0',
      ENGINE_LEASE_SECONDS: '2',
      TRADELOOP_MASTER_KEY: masterKey,
      ...extra,
    };
  };
  const engines = async (port: number) => (await call(port, admin, 'GET', '/ext/engines')).body as Array<{ id: string; pid: number; role: string; account_ids: number[] }>;

  before(async () => {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    await client.query(`CREATE DATABASE ${database}`);
    await client.end();
    const firstEnv = env();
    first = await processes.serve(firstEnv);
    const key = JSON.parse(fs.readFileSync(path.join(firstEnv.DATA_DIR, 'admin-key.json'), 'utf8'));
    admin = { apiKey: key.api_key, secret: key.secret };
    second = await processes.serve(env());
    assert.equal((await call(first.port, admin, 'POST', '/ext/users', { name: 'trader' })).status, 201);
    const created = await call(first.port, admin, 'POST', '/ext/api_keys', { user: 'trader', name: 'bots', permissions: ['ACCOUNTS_READ', 'BOTS_READ', 'BOTS_WRITE'] });
    trader = { apiKey: created.body.api_key, secret: created.body.secret };
    accountId = (await call(first.port, trader, 'GET', '/ver1/accounts')).body[0].id;
    // A tick posted to one server reaches every engine.
    const posted = await call(second.port, admin, 'POST', '/ext/paper/ticks', { market_code: 'paper_trading', ticks: [{ pair: 'USDT_BTC', price: '60000' }] });
    assert.equal(posted.status, 200);
  });

  after(async () => {
    processes.killAll();
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await client.end();
    for (const dataDir of dataDirs) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs an account on the engine of the server its bot was created on, as every server lists', async () => {
    const grid = { account_id: accountId, pair: 'USDT_BTC', upper_price: '62000', lower_price: '58000', grids_quantity: 5, quantity_per_grid: '100', order_currency_type: 'quote' };
    const created = await call(first.port, trader, 'POST', '/ver1/grid_bots/manual', grid);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const listed = await engines(second.port);
    assert.equal(listed.length, 2);
    assert.deepEqual(listed.map((engine) => engine.role), ['all', 'all']);
    const [owner, other] = listed;
    assert.deepEqual(owner!.account_ids, [accountId]);
    assert.deepEqual(other!.account_ids, []);
    assert.match(first.output(), /engine took an account/);

    // The other server's engine does not run the account: the action is passed to the owner, run
    // there once, and answered as the owner answers.
    const passed = await call(second.port, trader, 'POST', '/ver1/grid_bots/manual', { ...grid, lower_price: '57000' });
    assert.equal(passed.status, 201, JSON.stringify(passed.body));
    assert.equal(passed.body.account_id, accountId);
    assert.equal(passed.body.lower_price, '57000.0');
    const disabled = await call(second.port, trader, 'POST', `/ver1/grid_bots/${passed.body.id}/disable`);
    assert.equal(disabled.status, 201, JSON.stringify(disabled.body));
    assert.equal(disabled.body.is_enabled, false);
    const refusedAtOwner = await call(second.port, trader, 'POST', `/ver1/grid_bots/${passed.body.id}/disable`);
    const refusedLocally = await call(first.port, trader, 'POST', `/ver1/grid_bots/${passed.body.id}/disable`);
    assert.deepEqual([refusedAtOwner.status, refusedAtOwner.body], [refusedLocally.status, refusedLocally.body]);
    const removed = await call(second.port, trader, 'DELETE', `/ver1/grid_bots/${passed.body.id}`);
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.deepEqual((await engines(first.port)).map((engine) => engine.account_ids), [[accountId], []]);
    const bots = await call(first.port, trader, 'GET', '/ver1/grid_bots');
    assert.equal(bots.body.length, 1);
  });

  it('hands the accounts back on SIGTERM, and the other engine takes them', async () => {
    assert.equal(await first.stop('SIGTERM'), 0, first.output());
    assert.match(first.output(), /engine handed back its accounts/);
    const owner = await until('the second engine holds the account', async () => {
      const listed = await engines(second.port);
      return listed.length === 1 && listed[0]!.account_ids.includes(accountId) ? listed[0] : undefined;
    });
    assert.ok(owner);
    assert.match(second.output(), /engine took an account/);
  });

  it('runs an engine process without an API and an API process without an engine', async () => {
    // Given a port another server listens on: an engine process listens on none, so engines
    // started together on one machine do not collide.
    const engineOnly = await processes.serveUntil(env({ TRADELOOP_ROLE: 'engine', PORT: String(second.port) }), (output) => output.includes('Tradeloop engine running'));
    const apiOnly = await processes.serve(env({ TRADELOOP_ROLE: 'api' }));
    const listed = await until('three processes are registered', async () => {
      const found = await engines(apiOnly.port);
      return found.length === 3 ? found : undefined;
    });
    assert.deepEqual(listed.map((engine) => engine.role).sort(), ['all', 'api', 'engine']);
    assert.deepEqual(listed.find((engine) => engine.role === 'api')!.account_ids, []);
    const bots = await call(apiOnly.port, trader, 'GET', '/ver1/grid_bots');
    assert.equal(bots.status, 200);
    assert.equal(bots.body.length, 1);
    const disabled = await call(apiOnly.port, trader, 'POST', `/ver1/grid_bots/${bots.body[0].id}/disable`);
    assert.equal(disabled.status, 201, JSON.stringify(disabled.body));
    assert.equal(disabled.body.is_enabled, false);
    assert.equal(await engineOnly.stop('SIGTERM'), 0, engineOnly.output());
    assert.equal(await second.stop('SIGTERM'), 0, second.output());
    // No engine is left to run the account: the action is refused, to be retried.
    const refused = await call(apiOnly.port, trader, 'DELETE', `/ver1/grid_bots/${bots.body[0].id}`);
    assert.equal(refused.status, 503);
    assert.equal(refused.headers.get('retry-after'), '5');
    assert.deepEqual(refused.body, { error: 'service_unavailable', error_description: 'Another engine runs this account; retry in a few seconds' });
    assert.equal(await apiOnly.stop('SIGTERM'), 0, apiOnly.output());
  });
});
