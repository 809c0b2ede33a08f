/**
 * The `tradeloop` command as an operator runs it: real processes on a temporary DATA_DIR.
 * Without DATABASE_URL they use PGlite; with it, each suite gets its own schema through the
 * URL's search_path, and the lock cases (PGlite only) are skipped.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { loadConfig } from '../../src/config/config.ts';
import { openPglite } from '../../src/store/pglite-database.ts';
import { seedEmbeddedDatabase } from '../support/database.ts';
import { signPayload } from '../support/signing.ts';
import { TradeloopProcesses, type RunningServer } from '../support/tradeloop-process.ts';

const postgresUrl = process.env.DATABASE_URL || undefined;
const pgliteOnly = { skip: postgresUrl === undefined ? false : 'the data directory lock is for PGlite only' };

/**
 * A temporary data directory and, on PostgreSQL, an empty schema; both removed by `cleanup`.
 * `seeded` puts a migrated embedded database in place, for suites not about the first start.
 */
async function freshStore(options: { seeded?: boolean } = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradeloop-e2e-'));
  if (options.seeded && postgresUrl === undefined) await seedEmbeddedDatabase(dataDir);
  const env: Record<string, string> = { DATA_DIR: dataDir };
  const schema = `e2e_${randomBytes(6).toString('hex')}`;
  if (postgresUrl !== undefined) {
    await postgresQuery(postgresUrl, `CREATE SCHEMA ${schema}`);
    const separator = postgresUrl.includes('?') ? '&' : '?';
    env.DATABASE_URL = `${postgresUrl}${separator}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  }
  const cleanup = async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (postgresUrl !== undefined) await postgresQuery(postgresUrl, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  };
  return { dataDir, env, cleanup };
}

/** Reads the store a command wrote, once no process holds it. */
async function storeQuery<Row extends object>(store: { dataDir: string; env: Record<string, string> }, text: string): Promise<Row[]> {
  if (postgresUrl !== undefined) return postgresQuery<Row>(store.env.DATABASE_URL!, text);
  const db = await openPglite({ dataDir: path.join(store.dataDir, 'pgdata') });
  try {
    return await db.query<Row>(text);
  } finally {
    await db.close();
  }
}

async function postgresQuery<Row extends object>(connectionString: string, text: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query(text)).rows as Row[];
  } finally {
    await client.end();
  }
}

// The suites use separate stores, so they run side by side; the tests inside each run in order.
describe('tradeloop command', { concurrency: true }, () => {
  describe('users and keys', { concurrency: 1 }, () => {
    let store: Awaited<ReturnType<typeof freshStore>>;
    let hmacKey: { id: number; api_key: string; secret: string };
    let rsaKey: { id: number; api_key: string };
    const processes = new TradeloopProcesses();
    const cli = (args: string[], env: Record<string, string> = {}) =>
      processes.run(args, { ...store.env, ...env });

    before(async () => {
      store = await freshStore();
    });

    after(async () => {
      processes.killAll();
      await store?.cleanup();
    });

    it('creates a user, once, printing only JSON with --json even at LOG_LEVEL=info', async () => {
      const created = await cli(['users', 'create', 'alice', '--json'], { LOG_LEVEL: 'info' });
      assert.equal(created.code, 0, created.stderr);
      assert.deepEqual(Object.keys(JSON.parse(created.stdout)), ['id', 'name']);
      assert.match(created.stderr, /migrations applied/);
      const again = await cli(['users', 'create', 'alice']);
      assert.equal(again.code, 1);
      assert.match(again.stderr, /has already been taken/);
      const text = await cli(['users', 'create', 'bob']);
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /^Created user bob \(id \d+\)\n$/);
    });

    it('opens each user a paper account holding the configured paper balances', async () => {
      const rows = await storeQuery<{ currency: string; free: string }>(
        store,
        `SELECT b.currency, b.free::text AS free FROM users u JOIN accounts a ON a.user_id = u.id
           JOIN paper_balances b ON b.account_id = a.id WHERE u.name = 'alice' ORDER BY b.currency`,
      );
      const configured = loadConfig({ DATA_DIR: store.dataDir }).paper.balances;
      assert.deepEqual(
        rows.map((row) => [row.currency, row.free]),
        configured.map((balance) => [balance.currency, balance.amount]).sort(([a], [b]) => a!.localeCompare(b!)),
      );
    });

    it('creates the master key file with mode 0600 on first use', () => {
      const file = path.join(store.dataDir, 'master.key');
      assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    });

    it('keys create --json prints exactly id, api_key and secret', async () => {
      const result = await cli(
        ['keys', 'create', '--user', 'alice', '--name', 'bot', '--permissions', 'BOTS_READ,BOTS_WRITE', '--json'],
        { LOG_LEVEL: 'info' },
      );
      assert.equal(result.code, 0, result.stderr);
      hmacKey = JSON.parse(result.stdout);
      assert.deepEqual(Object.keys(hmacKey), ['id', 'api_key', 'secret']);
      assert.equal(typeof hmacKey.id, 'number');
      assert.match(hmacKey.api_key, /^[A-Za-z0-9]{64}$/);
      assert.match(hmacKey.secret, /^[A-Za-z0-9]{64}$/);
      assert.ok(!result.stderr.includes(hmacKey.secret));
    });

    it('keys create --rsa-public-key prints no secret', async () => {
      const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const pemFile = path.join(store.dataDir, 'client.pub.pem');
      fs.writeFileSync(pemFile, publicKey.export({ type: 'spki', format: 'pem' }));
      const result = await cli([
        'keys', 'create', '--user', 'alice', '--name', 'rsa client', '--permissions', 'SMART_TRADES_READ',
        '--rsa-public-key', pemFile, '--strict', '--signing', 'tl1', '--json',
      ]);
      assert.equal(result.code, 0, result.stderr);
      rsaKey = JSON.parse(result.stdout);
      assert.deepEqual(Object.keys(rsaKey), ['id', 'api_key']);
    });

    it('keys list --json shows the keys without key or secret', async () => {
      const result = await cli(['keys', 'list', '--json']);
      assert.equal(result.code, 0, result.stderr);
      for (const text of [hmacKey.api_key, hmacKey.secret, rsaKey.api_key]) {
        assert.ok(!result.stdout.includes(text), 'a key or secret is listed');
      }
      const keys = JSON.parse(result.stdout);
      assert.deepEqual(
        keys.map((key: Record<string, unknown>) => [
          key.id, key.user, key.name, key.signature_type, key.strict, key.signing, key.revoked_at,
        ]),
        [
          [hmacKey.id, 'alice', 'bot', 'hmac', false, '3commas', null],
          [rsaKey.id, 'alice', 'rsa client', 'rsa', true, 'tl1', null],
        ],
      );
      assert.equal(keys[0].key_prefix, hmacKey.api_key.slice(0, 8));
      assert.deepEqual(keys[0].permissions, ['BOTS_READ', 'BOTS_WRITE']);
    });

    it('passes over a server note left by a killed server whose pid lives on in another process', async () => {
      const note = path.join(store.dataDir, 'server.json');
      fs.writeFileSync(note, JSON.stringify({ pid: process.pid, url: 'http://127.0.0.1:9' }));
      try {
        const result = await cli(['keys', 'list', '--json']);
        assert.equal(result.code, 0, result.stderr);
        assert.equal(JSON.parse(result.stdout).length, 2);
      } finally {
        fs.rmSync(note);
      }
    });

    it('keys revoke marks the key revoked, and a second revoke fails', async () => {
      const revoked = await cli(['keys', 'revoke', String(hmacKey.id)]);
      assert.equal(revoked.code, 0, revoked.stderr);
      const listed = JSON.parse((await cli(['keys', 'list', '--json'])).stdout);
      assert.notEqual(listed[0].revoked_at, null);
      assert.equal(listed[1].revoked_at, null);
      const again = await cli(['keys', 'revoke', String(hmacKey.id)]);
      assert.equal(again.code, 1);
      assert.match(again.stderr, new RegExp(`No active API key with id ${hmacKey.id}`));
    });

    it('rejects an unknown permission with a message that names it and the known ones', async () => {
      const result = await cli([
        'keys', 'create', '--user', 'alice', '--name', 'x', '--permissions', 'BOTS_READ,BOTS_FLY',
      ]);
      assert.notEqual(result.code, 0);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, /Unknown permission\(s\): BOTS_FLY\. Known permissions: .*BOTS_WRITE/);
    });

    it('rejects a signing scheme it does not know', async () => {
      const result = await cli(['keys', 'create', '--user', 'alice', '--name', 'x', '--permissions', 'BOTS_READ', '--signing', 'v2']);
      assert.equal(result.code, 2);
      assert.match(result.stderr, /--signing must be 3commas or tl1/);
    });

    it('rejects a key for an unknown user', async () => {
      const result = await cli(['keys', 'create', '--user', 'nobody', '--name', 'x', '--permissions', 'BOTS_READ']);
      assert.equal(result.code, 1);
      assert.match(result.stderr, /no user named nobody/);
    });
  });

  describe('serve', { concurrency: 1 }, () => {
    const masterKey = randomBytes(32).toString('hex');
    let store: Awaited<ReturnType<typeof freshStore>>;
    let server: RunningServer | undefined;
    let adminKey: { id: number; api_key: string; secret: string };
    const processes = new TradeloopProcesses();

    before(async () => {
      store = await freshStore({ seeded: true });
      // With the master key from the environment, any master.key file would come from a process
      // that was refused the data directory.
      server = await processes.serve({ ...store.env, PORT: '0', LOG_LEVEL: 'info', TRADELOOP_MASTER_KEY: masterKey });
    });

    after(async () => {
      processes.killAll();
      await store?.cleanup();
    });

    it('writes the admin key to DATA_DIR/admin-key.json, mode 0600, and logs only where', () => {
      const file = path.join(store.dataDir, 'admin-key.json');
      assert.equal(fs.statSync(file).mode & 0o777, 0o600);
      adminKey = JSON.parse(fs.readFileSync(file, 'utf8'));
      assert.deepEqual(Object.keys(adminKey), ['id', 'api_key', 'secret']);
      assert.ok(server!.output().includes(file));
    });

    it('accepts a request signed with the admin key', async () => {
      const url = `http://127.0.0.1:${server!.port}/public/api/ver1/validate`;
      const signature = signPayload({ apiKey: adminKey.api_key, secret: adminKey.secret }, '/public/api/ver1/validate');
      const response = await fetch(url, { headers: { APIKEY: adminKey.api_key, Signature: signature } });
      assert.equal(response.status, 200);
      const forged = await fetch(url, { headers: { APIKEY: adminKey.api_key, Signature: '0'.repeat(64) } });
      assert.equal(forged.status, 401);
    });

    it('lets the command line act through the running server, changing nothing in the data directory', async () => {
      const filesBefore = fs.readdirSync(store.dataDir).sort();
      const created = await processes.run(['users', 'create', 'carol', '--json'], store.env);
      assert.equal(created.code, 0, created.stderr);
      assert.equal(JSON.parse(created.stdout).name, 'carol');
      const key = await processes.run(['keys', 'create', '--user', 'carol', '--name', 'own client', '--permissions', 'BOTS_READ', '--signing', 'tl1', '--json'], store.env);
      assert.equal(key.code, 0, key.stderr);
      const listed = await processes.run(['keys', 'list', '--json'], store.env);
      assert.equal(listed.code, 0, listed.stderr);
      assert.deepEqual(
        JSON.parse(listed.stdout).map((listedKey: { user: string; signing: string }) => `${listedKey.user} ${listedKey.signing}`),
        ['admin 3commas', 'carol tl1'],
      );
      assert.deepEqual(fs.readdirSync(store.dataDir).sort(), filesBefore);
      assert.ok(!filesBefore.includes('master.key'));
    });

    it('makes a second process fail at once when it cannot find the server that holds the lock', pgliteOnly, async () => {
      const noted = path.join(store.dataDir, 'server.json');
      fs.renameSync(noted, `${noted}.aside`);
      try {
        const result = await processes.run(['keys', 'list'], store.env);
        assert.equal(result.code, 1);
        assert.equal(result.stdout, '');
        assert.match(result.stderr, /is in use by another Tradeloop process \(pid \d+\)/);
      } finally {
        fs.renameSync(`${noted}.aside`, noted);
      }
    });

    it('refuses a second server on the same embedded database with one clear line', pgliteOnly, async () => {
      const result = await processes.run(['serve'], { ...store.env, PORT: '0', TRADELOOP_MASTER_KEY: masterKey });
      assert.equal(result.code, 1);
      assert.match(result.stderr, /^The data directory .* is in use by another Tradeloop process \(pid \d+\)\./);
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
    });

    it('keeps the embedded database files readable by this user only', pgliteOnly, () => {
      for (const file of ['pgdata', 'pgdata/PG_VERSION', 'pgdata/postgresql.conf', 'admin-key.json']) {
        assert.equal(fs.statSync(path.join(store.dataDir, file)).mode & 0o077, 0, file);
      }
    });

    it('stops on SIGTERM with exit code 0, releasing the lock, and never logged a secret', async () => {
      const code = await server!.stop('SIGTERM');
      assert.equal(code, 0, server!.output());
      assert.equal(fs.existsSync(path.join(store.dataDir, 'tradeloop.lock')), false);
      const log = server!.output();
      assert.match(log, /"msg":"shutting down"/);
      for (const text of [adminKey.secret, adminKey.api_key, masterKey]) {
        assert.ok(!log.includes(text), 'the log holds a secret');
      }
    });

    it('lets the CLI open the data directory once the server has stopped', async () => {
      const result = await processes.run(['keys', 'list', '--json'], { ...store.env, TRADELOOP_MASTER_KEY: masterKey });
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(JSON.parse(result.stdout).map((key: { user: string }) => key.user), ['admin', 'carol']);
    });
  });

  describe('a first start stopped halfway', { concurrency: 1 }, () => {
    let store: Awaited<ReturnType<typeof freshStore>>;
    const processes = new TradeloopProcesses();

    before(async () => {
      store = await freshStore();
    });

    after(async () => {
      processes.killAll();
      await store?.cleanup();
    });

    it('ends on SIGTERM, and the next start has the database and the admin key', pgliteOnly, async () => {
      const env = { ...store.env, PORT: '0', LOG_LEVEL: 'info', PAPER_FEED: 'manual' };
      const starting = await processes.serveUntil(env, (output) => output.includes('creating the embedded database'));
      // PGlite's initdb holds the event loop, so the signal may be handled only once the start is done;
      // either way the process ends by itself.
      const code = await starting.stop('SIGTERM');
      assert.match(starting.output(), code === 1 ? /"msg":"stopped while starting"/ : /"msg":"shutting down"/);
      const server = await processes.serve(env);
      const key = JSON.parse(fs.readFileSync(path.join(store.dataDir, 'admin-key.json'), 'utf8'));
      const signature = signPayload({ apiKey: key.api_key, secret: key.secret }, '/public/api/ver1/validate');
      const response = await fetch(`http://127.0.0.1:${server.port}/public/api/ver1/validate`, { headers: { APIKEY: key.api_key, Signature: signature } });
      assert.equal(response.status, 200);
      assert.equal(await server.stop('SIGTERM'), 0, server.output());
    });
  });

  describe('the paper replay across a restart', { concurrency: 1 }, () => {
    let store: Awaited<ReturnType<typeof freshStore>>;
    const processes = new TradeloopProcesses();
    const env = () => ({ ...store.env, PORT: '0', LOG_LEVEL: 'info', PAPER_FEED: 'replay', PAPER_REPLAY_SPEED: '0', PAPER_REPLAY_FROM: '2025-10-01' });
    const btcPrice = async (server: RunningServer) => {
      const response = await fetch(`http://127.0.0.1:${server.port}/public/api/ver1/accounts/currency_rates?market_code=paper_trading&pair=USDT_BTC`);
      assert.equal(response.status, 200);
      return Number(((await response.json()) as { last: string }).last);
    };

    before(async () => {
      store = await freshStore({ seeded: true });
    });

    after(async () => {
      processes.killAll();
      await store?.cleanup();
    });

    it('listens while replaying at full speed, says which period it plays, and continues there after a restart', async () => {
      const first = await processes.serve(env());
      assert.match(first.output(), /paper prices: replaying the shipped candles 2025-10-01 onwards at full speed, dated now/);
      assert.ok((await btcPrice(first)) > 50_000, 'a 2025 price, not one from 2016');
      assert.equal(await first.stop('SIGTERM'), 0, first.output());
      const second = await processes.serve(env());
      assert.match(second.output(), /paper prices: replaying the shipped candles from where the last run stopped, 2025-\d\d-\d\d/);
      assert.ok(!/2025-10-01 onwards/.test(second.output()));
      assert.equal(await second.stop('SIGTERM'), 0, second.output());
    });
  });

  describe('settings that cannot work', { concurrency: true }, () => {
    const processes = new TradeloopProcesses();
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tradeloop-settings-'));
    after(() => {
      processes.killAll();
      fs.rmSync(scratch, { recursive: true, force: true });
    });
    const aFile = path.join(scratch, 'a-file');
    fs.writeFileSync(aFile, '');

    for (const [what, env, message] of [
      ['a DATA_DIR that is a file', { DATA_DIR: aFile }, /^DATA_DIR \(--data-dir\) .*a-file is a file, not a directory; set it to a directory/],
      ['a DATA_DIR under /proc', { DATA_DIR: '/proc/tradeloop' }, /^DATA_DIR \(--data-dir\) \/proc\/tradeloop is on a kernel file system/],
      ['a HOST that is no address', { HOST: 'no-such-host', DATA_DIR: scratch }, /^HOST must be an IP address of this machine/],
      ['a HOST of another machine', { HOST: '192.0.2.1', PORT: '0', DATA_DIR: scratch }, /^Cannot listen on 192\.0\.2\.1:0: "192\.0\.2\.1" is no address of this machine; set HOST/],
      ['a paper balance no market trades', { PAPER_BALANCES: 'USDT:5,DOGE:1', DATA_DIR: scratch }, /^PAPER_BALANCES names DOGE, which no paper market trades; use /],
    ] as const) {
      it(`refuses ${what} in one line with exit status 2, before opening anything`, async () => {
        const result = await processes.run(['serve'], env);
        assert.equal(result.code, 2, result.stderr);
        assert.equal(result.stdout, '');
        assert.match(result.stderr, message);
        assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
        assert.ok(!fs.existsSync(path.join(scratch, 'pgdata')));
      });
    }
  });
});
