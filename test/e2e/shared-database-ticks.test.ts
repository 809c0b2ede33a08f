/**
 * Servers on one PostgreSQL database trade exactly as one server does: six paper accounts with a
 * grid bot each, created through either server, ticks posted to one of them, and every bot's
 * orders, fills and profits compared with a one-server run of the same ticks, after a SIGKILL (the
 * survivor takes every account), a SIGSTOP past the lease (the frozen engine writes nothing once
 * it wakes) and a rolling restart under a steady flow of ticks.
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
const ACCOUNTS = 6;

/** A price path that crosses the grids' lines back and forth, the same in every run. */
function pricePath(from: number, count: number): string[] {
  return Array.from({ length: count }, (_, k) => String(60_000 + Math.round(Math.sin((from + k) * 0.9) * 1_800 / 10) * 10));
}

const PHASES = { first: pricePath(0, 12), afterKill: pricePath(12, 12), afterFreeze: pricePath(24, 12), rolling: pricePath(36, 24) };

class Cluster {
  readonly name = `tl_ticks_${randomBytes(5).toString('hex')}`;
  readonly dataDirs: string[] = [];
  readonly masterKey = randomBytes(32).toString('hex');
  admin!: Key;
  traders: Key[] = [];
  accountIds: number[] = [];
  botIds: number[] = [];
  private client: pg.Client | undefined;

  constructor(readonly processes: TradeloopProcesses) {}

  url(): string {
    const url = new URL(postgresUrl!);
    url.pathname = `/${this.name}`;
    return url.toString();
  }

  env(extra: Record<string, string> = {}): Record<string, string> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradeloop-ticks-'));
    this.dataDirs.push(dataDir);
    return {
      DATA_DIR: dataDir,
      DATABASE_URL: this.url(),
      PORT: '0',
      PAPER_FEED: 'manual',
      LOG_LEVEL: 'info',
      RATE_LIMIT_PER_MINUTE: '0',
      ENGINE_LEASE_SECONDS: '2',
      TRADELOOP_MASTER_KEY: this.masterKey,
      ...extra,
    };
  }

  async create(): Promise<void> {
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${this.name}`);
    await admin.end();
  }

  async serve(first = false): Promise<RunningServer> {
    const env = this.env();
    const server = await this.processes.serve(env);
    if (first) {
      const key = JSON.parse(fs.readFileSync(path.join(env.DATA_DIR!, 'admin-key.json'), 'utf8'));
      this.admin = { apiKey: key.api_key, secret: key.secret };
    }
    return server;
  }

  /** Users with a paper account and a grid bot each, every other one through the second server. */
  async populate(servers: RunningServer[]): Promise<void> {
    assert.equal((await this.tick(servers[0]!, ['60000'])).status, 200);
    for (let index = 0; index < ACCOUNTS; index += 1) {
      const server = servers[index % servers.length]!;
      assert.equal((await call(server.port, this.admin, 'POST', '/ext/users', { name: `trader${index}` })).status, 201);
      const created = await call(server.port, this.admin, 'POST', '/ext/api_keys', { user: `trader${index}`, name: 'bots', permissions: ['ACCOUNTS_READ', 'BOTS_READ', 'BOTS_WRITE'] });
      const key = { apiKey: created.body.api_key, secret: created.body.secret };
      this.traders.push(key);
      const accountId = (await call(server.port, key, 'GET', '/ver1/accounts')).body[0].id as number;
      this.accountIds.push(accountId);
      const grid = {
        account_id: accountId,
        pair: 'USDT_BTC',
        upper_price: String(62_000 - index * 100),
        lower_price: String(58_000 + index * 100),
        grids_quantity: 6 + index,
        quantity_per_grid: '50',
        order_currency_type: 'quote',
      };
      const bot = await call(server.port, key, 'POST', '/ver1/grid_bots/manual', grid);
      assert.equal(bot.status, 201, JSON.stringify(bot.body));
      this.botIds.push(bot.body.id);
    }
  }

  tick(server: RunningServer, prices: string[]) {
    return call(server.port, this.admin, 'POST', '/ext/paper/ticks', { market_code: 'paper_trading', ticks: prices.map((price) => ({ pair: 'USDT_BTC', price })) });
  }

  /** Posts each price in a request of its own, as a feed would. */
  async ticks(server: () => RunningServer, prices: string[]): Promise<void> {
    for (const price of prices) {
      const posted = await this.tick(server(), [price]);
      assert.equal(posted.status, 200, JSON.stringify(posted.body));
    }
  }

  async engines(server: RunningServer) {
    return (await call(server.port, this.admin, 'GET', '/ext/engines')).body as Array<{ id: string; pid: number; role: string; account_ids: number[] }>;
  }

  /** What each bot did, by its place in the population: independent of ids and times. */
  async figures(server: RunningServer) {
    const bots = [];
    for (let index = 0; index < ACCOUNTS; index += 1) {
      const key = this.traders[index]!;
      const id = this.botIds[index]!;
      const bot = (await call(server.port, key, 'GET', `/ver1/grid_bots/${id}`)).body;
      const answered = (await call(server.port, key, 'GET', `/ver1/grid_bots/${id}/market_orders?limit=1000`)).body;
      const orders = [...answered.grid_lines_orders, ...answered.balancing_orders] as Array<Record<string, string>>;
      const profits = (await call(server.port, key, 'GET', `/ver1/grid_bots/${id}/profits`)).body as Array<Record<string, unknown>>;
      bots.push({
        profit: bot.current_profit,
        profits: bot.total_profits_count,
        bought: bot.bought_volume,
        sold: bot.sold_volume,
        lines: bot.grid_lines.map((line: Record<string, unknown>) => `${line.price}:${line.side}:${line.order_placed}`),
        orders: orders.map((o) => `${o.order_type} ${o.rate} ${o.quantity} ${o.status_string} ${o.quantity_remaining}`).sort(),
        profitRows: profits.map((p) => `${p.grid_line_id}:${p.profit}`).sort(),
      });
    }
    const db = await this.db();
    const fills = await db.query<{ account_id: string; n: number; amount: string }>(
      'SELECT account_id::text, count(*)::int AS n, coalesce(sum(amount), 0)::text AS amount FROM paper_trades GROUP BY account_id',
    );
    const perAccount = this.accountIds.map((accountId) => {
      const row = fills.rows.find((r) => Number(r.account_id) === accountId);
      return `${row?.n ?? 0}:${row?.amount ?? '0'}`;
    });
    return { bots, fills: perAccount };
  }

  /** Orders stored twice, or fills of one order stored twice (every tick here fills a whole order). */
  async duplicates(): Promise<string[]> {
    const db = await this.db();
    const orders = await db.query('SELECT account_id, client_order_id FROM paper_orders GROUP BY 1, 2 HAVING count(*) > 1');
    const fills = await db.query('SELECT order_id FROM paper_trades GROUP BY 1 HAVING count(*) > 1');
    const journal = await db.query('SELECT account_id, client_order_id FROM engine_orders GROUP BY 1, 2 HAVING count(*) > 1');
    return [
      ...orders.rows.map((row) => `paper order ${row.account_id}/${row.client_order_id} stored twice`),
      ...fills.rows.map((row) => `paper order ${row.order_id} filled twice`),
      ...journal.rows.map((row) => `engine order ${row.account_id}/${row.client_order_id} journaled twice`),
    ];
  }

  async db(): Promise<pg.Client> {
    if (!this.client) {
      this.client = new pg.Client({ connectionString: this.url() });
      await this.client.connect();
    }
    return this.client;
  }

  async drop(): Promise<void> {
    await this.client?.end();
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${this.name} WITH (FORCE)`);
    await admin.end();
    for (const dataDir of this.dataDirs) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('servers sharing one PostgreSQL database trade as one server', { skip, concurrency: 1, timeout: 900_000 }, () => {
  const processes = new TradeloopProcesses();
  const baseline = new Cluster(processes);
  const cluster = new Cluster(processes);
  const expected: Array<Awaited<ReturnType<Cluster['figures']>>> = [];
  let first: RunningServer;
  let second: RunningServer;
  let third: RunningServer;

  /** Waits until the cluster's figures are those of the one-server run (they settle after a takeover). */
  const settlesTo = async (server: () => RunningServer, phase: number) => {
    let last: Awaited<ReturnType<Cluster['figures']>> | undefined;
    await until(`the figures equal the one-server run's after phase ${phase}`, async () => {
      last = await cluster.figures(server());
      return JSON.stringify(last) === JSON.stringify(expected[phase]) ? true : undefined;
    }, 60_000).catch(() => undefined);
    assert.deepEqual(last, expected[phase]);
    assert.deepEqual(await cluster.duplicates(), []);
  };

  before(async () => {
    // The one-server run: the same population and ticks, phase by phase.
    await baseline.create();
    const alone = await baseline.serve(true);
    await baseline.populate([alone]);
    for (const prices of Object.values(PHASES)) {
      await baseline.ticks(() => alone, prices);
      expected.push(await baseline.figures(alone));
    }
    assert.deepEqual(await baseline.duplicates(), []);
    assert.ok(expected.at(-1)!.bots.every((bot) => Number(bot.profits) > 0), 'every bot completed trades');
    assert.equal(await alone.stop('SIGTERM'), 0);

    await cluster.create();
    first = await cluster.serve(true);
    second = await cluster.serve();
  });

  after(async () => {
    // TL_DUMP=dir keeps the servers' logs, to see why figures differed (takeovers, replays).
    if (process.env.TL_DUMP) for (const [name, server] of Object.entries({ first, second, third })) if (server) fs.writeFileSync(`${process.env.TL_DUMP}/${name}.log`, server.output());
    processes.killAll();
    await baseline.drop();
    await cluster.drop();
  });

  it('spreads the accounts over both engines and trades them as one server does', async () => {
    await cluster.populate([first, second]);
    const engines = await until('both engines run accounts', async () => {
      const listed = await cluster.engines(first);
      return listed.length === 2 && listed.every((engine) => engine.account_ids.length > 0) ? listed : undefined;
    });
    assert.deepEqual(engines.flatMap((engine) => engine.account_ids).sort((a, b) => a - b), [...cluster.accountIds].sort((a, b) => a - b));
    await cluster.ticks(() => first, PHASES.first);
    await settlesTo(() => first, 0);
  });

  it('after a SIGKILL, the survivor takes every account and misses no tick', async () => {
    first.signal('SIGKILL');
    await cluster.ticks(() => second, PHASES.afterKill);
    await until('the survivor holds every account', async () => {
      const listed = await cluster.engines(second);
      return listed.length === 1 && listed[0]!.account_ids.length === ACCOUNTS ? true : undefined;
    });
    await settlesTo(() => second, 1);
  });

  it('an engine frozen past its lease writes nothing for the accounts it lost once it wakes', async () => {
    third = await cluster.serve();
    second.signal('SIGSTOP');
    try {
      await until('the third engine holds every account', async () => {
        const listed = await cluster.engines(third);
        const live = listed.find((engine) => engine.pid !== second.pid);
        return live && live.account_ids.length === ACCOUNTS ? true : undefined;
      });
      await cluster.ticks(() => third, PHASES.afterFreeze);
    } finally {
      second.signal('SIGCONT');
    }
    await until('the woken engine saw it lost its accounts', async () => (/engine lost an account to another engine/.test(second.output()) ? true : undefined));
    // Ticks it had queued, its timers and its heartbeat have run: nothing of it was stored.
    await until('the woken engine is registered again', async () => ((await cluster.engines(third)).length === 2 ? true : undefined));
    await settlesTo(() => third, 2);
  });

  it('a rolling restart of both servers under a steady flow of ticks loses no tick', async () => {
    let target = second;
    let posted = 0;
    // As a feed behind a balancer: a request that reached a server only as it stopped (refused,
    // or its connection closed unread) is sent again to the server the flow now goes to.
    const post = async (price: string, attempts = 3): Promise<Awaited<ReturnType<typeof cluster.tick>>> => {
      const server = target;
      try {
        return await cluster.tick(server, [price]);
      } catch (error) {
        if (attempts === 1 || target === server) throw error;
        return post(price, attempts - 1);
      }
    };
    const flow = (async () => {
      for (const price of PHASES.rolling) {
        const answer = await post(price);
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        posted += 1;
      }
    })();
    await until('the flow started', async () => (posted >= 3 ? true : undefined));
    assert.equal(await third.stop('SIGTERM'), 0, third.output());
    third = await cluster.serve();
    await until('a few more ticks went out', async () => (posted >= 10 ? true : undefined));
    target = third;
    assert.equal(await second.stop('SIGTERM'), 0, second.output());
    second = await cluster.serve();
    await flow;
    await until('the two servers hold every account', async () => {
      const listed = await cluster.engines(second);
      return listed.length === 2 && listed.flatMap((engine) => engine.account_ids).length === ACCOUNTS ? true : undefined;
    });
    await settlesTo(() => second, 3);
  });
});
