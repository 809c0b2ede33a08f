/**
 * The 1,000-grid replay of grid-engine.ts (BENCH_SCALE scales the bots) run by one engine process
 * and then by two on one PostgreSQL database (DATABASE_URL; a database of its own per run,
 * dropped afterwards): `tradeloop serve --role engine` processes on this machine, fed through the
 * shared tick log (docs/scaling.md), as servers are. Prints the ticks per second each run applied
 * (every engine applies every tick, to the accounts it holds), their ratio, and, in the two-engine
 * run, how long after a SIGKILL the survivor holds every account and runs them again.
 *
 * The bots of the four pairs are created in turn, so that each engine gets a share of every pair.
 * The bots are created by this process on the engine of a core it opens on the database, which
 * hands the accounts back when closed; the engine processes, already registered, share them. The
 * run fails when nothing fills, or when one and two engines do not make the same fills.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openCore } from '../src/app.ts';
import { loadConfig } from '../src/config/config.ts';
import type { MarketTick } from '../src/domain/market/market-tick.ts';
import { createLogger } from '../src/logging.ts';
import { SqlTickLog } from '../src/store/tick-log.repository.ts';
import { openPostgres } from '../src/store/postgres-database.ts';
import { type Benchmark, type BenchOutcome } from './support/benchmark.ts';
import { createBots } from './grid-engine.ts';
import { marketBatches } from './support/engine-replay.ts';
import { cpuSince, describeCpu, markCpu } from './support/process-cpu.ts';
import { describeWrites, markWrites, writtenSince } from './support/write-stats.ts';

/** With BENCH_CPU_PROFILE, each engine process writes a CPU profile of its whole run there when it stops. */
const PROFILE_DIR = process.env.BENCH_CPU_PROFILE?.trim() || undefined;
const ROOT = path.join(import.meta.dirname, '..');
const LEASE_SECONDS = 5;
/** A PostgreSQL backend sends its table statistics at most 10 s after it went idle. */
const STATISTICS_SETTLE_MS = 11_000;
const BALANCES = 'USDT:100000,BTC:100,ETH:10000,SOL:100000';

export const benchmark: Benchmark = {
  name: 'grid-scale-out',
  description: 'the 1,000-grid replay run by one engine process, then by two on one PostgreSQL database; takeover after SIGKILL',
  run,
};

interface RunResult {
  ticksPerSecond: number;
  fills: number;
  profitRows: number;
  takeover?: { heldMs: number; runningMs: number };
}

async function run(): Promise<BenchOutcome> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.log('  skipped: set DATABASE_URL to a PostgreSQL server (its user may create databases)');
    return { failures: [] };
  }
  const candles = Number(process.env.BENCH_CANDLES ?? 100);
  const batches = marketBatches(candles);
  console.log(`  ${candles} hours of candles: ${batches.length} instants × 4 pairs, lease ${LEASE_SECONDS} s`);
  const one = await runWith(url, 1, batches);
  const two = await runWith(url, 2, batches);
  const failures: string[] = [];
  if (one.fills === 0) failures.push('no grid order filled');
  if (one.fills !== two.fills || one.profitRows !== two.profitRows) {
    failures.push(`one engine made ${one.fills} fills and ${one.profitRows} profit rows, two made ${two.fills} and ${two.profitRows}`);
  }
  console.log(
    `  two engines: ${(two.ticksPerSecond / one.ticksPerSecond).toFixed(2)}× the ticks per second of one ` +
      `(goal ≥ 1.6× on 2 cores; ${os.availableParallelism()} CPUs here, load ${os.loadavg()[0]!.toFixed(1)})`,
  );
  if (two.takeover) {
    console.log(
      `  takeover after SIGKILL: the survivor held every account after ${(two.takeover.heldMs / 1000).toFixed(1)} s and ran them ` +
        `(a new tick applied to each) after ${(two.takeover.runningMs / 1000).toFixed(1)} s (goal ≤ lease + 2 s = ${LEASE_SECONDS + 2} s)`,
    );
  }
  return { failures };
}

async function runWith(url: string, engineCount: number, batches: MarketTick[][]): Promise<RunResult> {
  const name = `tl_bench_scale_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  const logs: string[] = [];
  const masterKey = randomBytes(32).toString('hex');
  const env = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradeloop-bench-'));
    dirs.push(dir);
    return {
      DATABASE_URL: dbUrl.toString(),
      DATA_DIR: dir,
      PAPER_FEED: 'manual',
      PAPER_BALANCES: BALANCES,
      ENGINE_LEASE_SECONDS: String(LEASE_SECONDS),
      TRADELOOP_MASTER_KEY: masterKey,
      LOG_LEVEL: 'warn',
    };
  };
  const db = await openPostgres(dbUrl.toString());
  try {
    // The population, created on this process's engine.
    const config = loadConfig({ ...process.env, ...env(), TRADELOOP_ROLE: 'all' });
    const core = await openCore(config, { logger: createLogger('warn', 1, 'json') });
    await core.startTrading();
    const first = batches[0]!;
    await core.applyPaperTicks(first);
    const user = await core.users.create('bench');
    const started = Date.now();
    const created = await createBots({
      engine: core.engine,
      userId: user.id,
      prices: new Map(first.map((tick) => [tick.pair, tick.price])),
      openAccount: async () => (await core.accounts.createPaperAccount(user.id)).id,
    }, undefined, true);
    console.log(`  ${engineCount} engine${engineCount > 1 ? 's' : ''}: ${created} bots created in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    for (let index = 0; index < engineCount; index += 1) {
      const childEnv = env();
      const output = fs.openSync(path.join(childEnv.DATA_DIR, 'engine.log'), 'w');
      const profile = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
      // The young generation `npm start` gives the server (package.json; docs/architecture.md, *CPU per fill*).
      const child = spawn(process.execPath, ['--max-semi-space-size=64', ...profile, path.join(ROOT, 'bin', 'tradeloop.js'), 'serve', '--role', 'engine'], {
        cwd: ROOT,
        env: { ...process.env, ...childEnv },
        stdio: ['ignore', output, output],
      });
      logs.push(path.join(childEnv.DATA_DIR, 'engine.log'));
      children.push(child);
    }
    await until(`${engineCount} engine processes registered`, async () => (await count(db, "SELECT count(*) FROM engines WHERE role = 'engine'")) === engineCount);
    await core.close();
    const accounts = await count(db, 'SELECT count(DISTINCT account_id) FROM automations WHERE running');
    await until('the engines hold every account', async () =>
      (await count(db, 'SELECT count(*) FROM account_leases l JOIN engines e ON e.id = l.engine_id WHERE e.lease_until > now()')) === accounts,
    );
    // Only an account an engine runs has its position moved on: this tick shows every one runs.
    const log = new SqlTickLog(db);
    const warmUp = await log.append(first.map((tick) => ({ ...tick, at: new Date(tick.at.getTime() + 1) })));
    await until('the engines run every account', async () => (await count(db, `SELECT count(*) FROM account_positions WHERE tick_seq >= ${warmUp}`)) === accounts);
    const spread = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM account_leases WHERE engine_id IS NOT NULL GROUP BY engine_id ORDER BY 1");
    console.log(`    accounts per engine: ${spread.map((row) => row.n).join(' + ')}`);

    const ticks = batches.slice(1).flat();
    // The engines' connections report their statistics once idle for a while.
    await new Promise((resolve) => setTimeout(resolve, STATISTICS_SETTLE_MS));
    const writes = await markWrites(db);
    const fillsBefore = await count(db, 'SELECT count(*) FROM paper_trades');
    const cpu = markCpu();
    const t0 = performance.now();
    const last = await log.append(ticks);
    await until('every engine applied every tick', async () => (await count(db, "SELECT min(coalesce(tick_seq, 0)) FROM engines WHERE role = 'engine'")) >= last, 3_600_000);
    const seconds = (performance.now() - t0) / 1000;
    const cpuUsed = cpu && cpuSince(cpu, children.map((child) => child.pid!));
    const fills = await count(db, 'SELECT count(*) FROM paper_trades');
    const profitRows = await count(db, 'SELECT count(*) FROM grid_profits');
    const ticksPerSecond = ticks.length / seconds;
    console.log(`    ${ticks.length} ticks in ${seconds.toFixed(1)} s: ${Math.round(ticksPerSecond)} ticks/s; ${fills} fills, ${profitRows} profit rows`);
    if (cpuUsed) console.log(describeCpu(cpuUsed));
    // The WAL is counted to the end of the replay; the rows once their statistics arrived (the
    // heartbeats of the wait among them).
    const [walEnd] = await db.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
    await new Promise((resolve) => setTimeout(resolve, STATISTICS_SETTLE_MS));
    const written = await writtenSince(db, writes, walEnd!.lsn);
    console.log(describeWrites(written, fills - fillsBefore, ticks.length).replace(/^ {2}/gm, '    '));
    const result: RunResult = { ticksPerSecond, fills, profitRows };

    if (engineCount > 1) {
      const [victim] = await db.query<{ pid: number }>("SELECT pid FROM engines WHERE role = 'engine' ORDER BY id LIMIT 1");
      const survivorOf = children.find((child) => child.pid !== victim!.pid)!;
      const killedAt = performance.now();
      process.kill(victim!.pid, 'SIGKILL');
      await until('the survivor holds every account', async () =>
        (await count(db, `SELECT count(*) FROM account_leases l JOIN engines e ON e.id = l.engine_id WHERE e.pid = ${survivorOf.pid} AND e.lease_until > now()`)) === accounts,
      );
      const heldMs = performance.now() - killedAt;
      const probe = await log.append([{ ...batches.at(-1)![0]!, at: new Date() }]);
      await until('the survivor applied a new tick to every account', async () =>
        (await count(db, `SELECT count(*) FROM account_positions p JOIN engines e ON e.id = p.engine_id WHERE e.pid = ${survivorOf.pid} AND p.tick_seq >= ${probe}`)) === accounts,
      );
      result.takeover = { heldMs, runningMs: performance.now() - killedAt };
    }
    return result;
  } finally {
    // A profiled process writes its profile when it stops, as it does on SIGTERM.
    for (const child of children) child.kill(PROFILE_DIR ? 'SIGTERM' : 'SIGKILL');
    await Promise.all(children.map((child) => (child.exitCode === null && child.signalCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined)));
    await db.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    // What the engines warned about is shown: a lost lease or a failed batch explains a difference.
    for (const log of logs) {
      const lines = fs.readFileSync(log, 'utf8').split('\n').filter((line) => /"level":(4|5|6)0/.test(line));
      const messages = new Map<string, number>();
      for (const line of lines) {
        const error = /"err":\{[^}]*?"message":"([^"]*)"/.exec(line)?.[1];
        const message = `${/"msg":"([^"]*)"/.exec(line)?.[1] ?? line.slice(0, 120)}${error ? ` (${error.slice(0, 160)})` : ''}`;
        messages.set(message, (messages.get(message) ?? 0) + 1);
      }
      for (const [message, times] of messages) console.log(`    engine ${logs.indexOf(log) + 1} warned ${times}×: ${message}`);
    }
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function count(db: Awaited<ReturnType<typeof openPostgres>>, sql: string): Promise<number> {
  const [row] = await db.query<Record<string, unknown>>(sql);
  return Number(Object.values(row ?? {})[0] ?? 0);
}

async function until(what: string, probe: () => Promise<boolean>, deadlineMs = 600_000): Promise<void> {
  const end = performance.now() + deadlineMs;
  while (!(await probe())) {
    if (performance.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
