/**
 * Replays real candles through the paper exchange and the engine, both storing every batch in a
 * fresh database (PGlite, or DATABASE_URL), and measures ticks per second, the latency from a
 * batch of ticks to the orders it caused being sent and stored, and the heap along the way.
 *
 * The four paper pairs all follow the Coinbase BTC-USD 1h candles (fixtures/market/): USDT_BTC
 * as they are, the other three time-shifted by a quarter of the file each and scaled to their own
 * price level, so every pair moves like a real market without moving in lockstep.
 * `tradeBatches` does the same with the real Binance BTCUSDT trade file: one tick per trade, with
 * its volume, each pair following its own quarter of the file.
 */
import fs from 'node:fs';
import inspector from 'node:inspector/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { intraCandlePath } from '../../src/domain/market/candle.ts';
import type { MarketTick } from '../../src/domain/market/market-tick.ts';
import type { AnyAutomationKind } from '../../src/engine/automation-kind.ts';
import { Engine } from '../../src/engine/engine.ts';
import type { LoggedRecords, PaperCompanion, RecordWriter } from '../../src/engine/engine-store.ts';
import { engineHost, PaperTrading } from '../../src/engine/paper-trading.ts';
import type { Balance, Exchange } from '../../src/exchanges/exchange.ts';
import { PAPER_MARKETS } from '../../src/exchanges/paper/paper-markets.ts';
import { PaperVenue } from '../../src/exchanges/paper/paper-venue.ts';
import { ManualFeed } from '../../src/market-data/manual-feed.ts';
import { candleDurationMs, MARKET_FIXTURES_DIR, readCandles, readTrades } from '../../src/market-data/market-files.ts';
import { ReplayFeed } from '../../src/market-data/replay-feed.ts';
import { dec, Decimal, roundToStep } from '../../src/shared/decimal.ts';
import type { Database } from '../../src/store/database.ts';
import { SqlEngineRepository } from '../../src/store/engine.repository.ts';
import { SqlPaperRepository } from '../../src/store/paper.repository.ts';
import { openTestDatabase } from '../../test/support/database.ts';
import { describeWrites, markWrites, type Written, writtenSince } from './write-stats.ts';

const CANDLES_FILE = path.join(MARKET_FIXTURES_DIR, 'coinbase-BTCUSD-1h-2017-07_2019-10.csv.gz');
const TRADES_FILE = path.join(MARKET_FIXTURES_DIR, 'binance-BTCUSDT-trades-2024-08-08T2354_2024-08-09T0005.csv.gz');
const PRICE_LEVEL: Record<string, number> = { USDT_BTC: 1, USDT_ETH: 0.05, BTC_ETH: 0.00005, USDT_SOL: 0.01 };

/** One batch per instant: one tick for each of the four pairs. */
export function marketBatches(candleCount: number): MarketTick[][] {
  const candles = readCandles(CANDLES_FILE);
  const duration = candleDurationMs(CANDLES_FILE);
  const quarter = Math.floor(candles.length / 4);
  if (candleCount > quarter) throw new Error(`at most ${quarter} candles per pair`);
  const batches: MarketTick[][] = [];
  for (let index = 0; index < candleCount; index += 1) {
    const paths = PAPER_MARKETS.map((market, pairIndex) => {
      const source = candles[index + pairIndex * quarter]!;
      const scale = PRICE_LEVEL[market.pair]! * (candles[0]!.open.toNumber() / candles[pairIndex * quarter]!.open.toNumber());
      return intraCandlePath(source, duration).map((point) => ({
        pair: market.pair,
        price: roundToStep(point.price.times(scale), market.rules.priceStep),
      }));
    });
    const time = candles[index]!.time.getTime();
    for (let step = 0; step < 4; step += 1) {
      const at = new Date(time + Math.floor((step * duration) / 4));
      batches.push(paths.map((path) => ({ ...path[step]!, at })));
    }
  }
  return batches;
}

/**
 * The trade file's first `tradeCount` trades for USDT_BTC, and for each other pair the same number
 * from the start of its quarter of the file, moved back in time to start with USDT_BTC and scaled
 * to the pair's price level (volumes by the inverse, rounded down to the lot step). Ticks at the
 * same millisecond form one batch, as the replay feed groups them.
 */
export function tradeBatches(tradeCount: number): MarketTick[][] {
  const trades = readTrades(TRADES_FILE);
  const quarter = Math.floor(trades.length / 4);
  if (tradeCount > quarter) throw new Error(`at most ${quarter} trades per pair`);
  const sources = PAPER_MARKETS.map((market, pairIndex) => {
    const first = trades[pairIndex * quarter]!;
    const scale = dec(PRICE_LEVEL[market.pair]!).times(trades[0]!.price).div(first.price);
    const shift = first.at.getTime() - trades[0]!.at.getTime();
    return {
      pair: market.pair,
      trades: trades.slice(pairIndex * quarter, pairIndex * quarter + tradeCount).map((trade) => ({
        ...trade,
        at: new Date(trade.at.getTime() - shift),
        price: roundToStep(trade.price.times(scale), market.rules.priceStep),
        amount: trade.amount.div(scale).toNearest(market.rules.lotStep, Decimal.ROUND_DOWN),
      })),
    };
  });
  return [...new ReplayFeed({ sources, speed: 0 }).batches()];
}

export interface World {
  engine: Engine;
  paper: PaperTrading;
  db: Database;
  userId: number;
  /** The price of each pair after the first batch. */
  prices: Map<string, Decimal>;
  openAccount(balances: Balance[]): Promise<number>;
  /** What the engine logged as errors (a quarantine, a failed step): a run with any is not a measurement. */
  engineErrors: string[];
}

export interface Scenario {
  kinds: readonly AnyAutomationKind[];
  recordWriters?: Record<string, RecordWriter | LoggedRecords>;
  setup(world: World): Promise<void>;
}

export interface ReplayResult {
  ticks: number;
  /** The batches' own time; the heap samples (full collections) are left out. */
  ms: number;
  /** CPU time of this process over the replay, the heap samples left out. */
  cpuMs: number;
  p50Ms: number;
  p99Ms: number;
  /** Heap in use after a collection, at each tenth of the run. */
  heapMb: number[];
  fills: number;
  /** Heap after a full collection after the setup, less before it: what the automations hold. */
  setupHeapBytes: number;
  /** Rows and WAL the database wrote during the replay (setup left out). */
  written: Written;
  /** Batches the engine stored during the replay (those that changed an automation). */
  storedBatches: number;
  world: World;
  close(): Promise<void>;
}

v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

export interface OpenWorld {
  world: World;
  /** Heap after a full collection after the setup, less before it. */
  setupHeapBytes: number;
  close(): Promise<void>;
}

export interface WorldOptions {
  /** Hears each order the engine places (through an account's exchange, or resting at once in the venue). */
  onPlaced?: () => void;
}

/**
 * The paper exchange and the engine over a fresh database, the first batch's prices applied and
 * the scenario's automations set up.
 */
export async function openWorld(firstBatch: readonly MarketTick[], scenario?: Scenario, options: WorldOptions = {}): Promise<OpenWorld> {
  const db = await openTestDatabase();
  const paper = new PaperTrading(new PaperVenue(PAPER_MARKETS), new SqlPaperRepository(db), new ManualFeed());
  const onPlaced = options.onPlaced;
  const wrap = (exchange: Exchange): Exchange =>
    onPlaced
      ? {
          ...exchange,
          placeOrder: async (request) => {
            const order = await exchange.placeOrder(request);
            onPlaced();
            return order;
          },
        }
      : exchange;
  const engineErrors: string[] = [];
  // As in a server with one process per database, the engine stores the paper exchange's changes.
  const paperCompanion = paper.storeThrough(engineHost(() => engine));
  const companion: PaperCompanion = onPlaced
    ? {
        ...paperCompanion,
        placeAtOnce: (accountId, request) => {
          const placed = paperCompanion.placeAtOnce(accountId, request);
          if (placed) onPlaced();
          return placed;
        },
      }
    : paperCompanion;
  const engine: Engine = new Engine({
    store: new SqlEngineRepository(db),
    companion,
    exchangeFor: async (accountId) => wrap(await paper.exchange(accountId)),
    batchOrders: (work) => paper.batch(work),
    clock: () => new Date(),
    logger: {
      warn: () => {},
      error: (object, message) => {
        if (!engineErrors.includes(message)) console.error(message, object);
        engineErrors.push(message);
      },
    },
    kinds: scenario?.kinds ?? [],
  });
  for (const [kind, writer] of Object.entries(scenario?.recordWriters ?? {})) engine.registerRecordWriter(kind, writer);
  await engine.start();
  await paper.start(() => engine.settled());
  const [user] = await db.query<{ id: string }>("INSERT INTO users (name) VALUES ('bench') RETURNING id");
  const userId = Number(user!.id);
  const world: World = {
    engine,
    paper,
    db,
    userId,
    prices: new Map(firstBatch.map((tick) => [tick.pair, tick.price])),
    engineErrors,
    openAccount: async (balances) => {
      const [account] = await db.query<{ id: string }>(
        "INSERT INTO accounts (user_id, name, market_code) VALUES ($1, 'bench', 'paper_trading') RETURNING id",
        [userId],
      );
      const id = Number(account!.id);
      await paper.openAccount(id, balances);
      return id;
    },
  };
  await paper.applyTicks([...firstBatch]);
  await engine.settled();
  const setupHeapBytes = await heapGrowth(async () => {
    if (scenario) await scenario.setup(world);
  });
  return {
    world,
    setupHeapBytes,
    close: async () => {
      await paper.stop();
      await engine.stop();
      await db.close();
    },
  };
}

/** The run's failure when the engine logged errors: the figures of a run with quarantined automations mean nothing. */
export function engineErrorFailures(world: World, label = ''): string[] {
  if (world.engineErrors.length === 0) return [];
  return [`${label}the engine logged ${world.engineErrors.length} errors, first: ${world.engineErrors[0]}`];
}

export async function replay(batches: readonly MarketTick[][], scenario?: Scenario): Promise<ReplayResult> {
  const { world, setupHeapBytes, close } = await openWorld(batches[0]!, scenario);
  let storedBatches = 0;
  world.engine.onCommitted(() => void (storedBatches += 1));
  const mark = await markWrites(world.db);
  const timed = await timedReplay(world.paper, world.engine, batches);
  const written = await writtenSince(world.db, mark);
  return { ...timed, setupHeapBytes, written, storedBatches, world, close };
}

/** How much the heap in use (after full collections) grew over `work`. */
export async function heapGrowth(work: () => Promise<void>): Promise<number> {
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  await work();
  collectGarbage();
  return process.memoryUsage().heapUsed - before;
}

/** `cpuMs` counts every thread of this process: other work on the machine hardly moves it. */
export type TimedReplay = Pick<ReplayResult, 'ticks' | 'ms' | 'cpuMs' | 'p50Ms' | 'p99Ms' | 'heapMb' | 'fills'>;

const cpuMsNow = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * With BENCH_CPU_PROFILE set to a folder, the replay alone (not the setup, nor loading the code) is
 * profiled into a .cpuprofile file there, for Chrome's DevTools or `node --cpu-prof`'s readers.
 */
export async function startCpuProfile(): Promise<{ stop(): Promise<void> }> {
  const cpuFolder = process.env.BENCH_CPU_PROFILE?.trim();
  const heapFolder = process.env.BENCH_HEAP_PROFILE?.trim();
  if (!cpuFolder && !heapFolder) return { stop: async () => {} };
  const session = new inspector.Session();
  session.connect();
  if (cpuFolder) {
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  if (heapFolder) {
    await session.post('HeapProfiler.enable');
    // Every allocation sampled, the garbage among them too: what the collector has to clear.
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 16 * 1024,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    } as inspector.HeapProfiler.StartSamplingParameterType);
  }
  const save = (folder: string, extension: string, content: object) => {
    fs.mkdirSync(folder, { recursive: true });
    const file = path.join(folder, `replay-${Date.now()}.${extension}`);
    fs.writeFileSync(file, JSON.stringify(content));
    return file;
  };
  return {
    stop: async () => {
      if (cpuFolder) {
        const { profile } = await session.post('Profiler.stop');
        console.log(`  CPU profile of the replay: ${save(cpuFolder, 'cpuprofile', profile)}`);
      }
      if (heapFolder) {
        const { profile } = await session.post('HeapProfiler.stopSampling');
        console.log(`  allocation profile of the replay: ${save(heapFolder, 'heapprofile', profile)}`);
      }
      session.disconnect();
    },
  };
}

/**
 * Applies every batch after the first, each once the engine has stepped the one before and placed
 * its orders (the same fills as waiting for it to be stored as well, since the next ticks meet
 * those orders): the engine stores a batch while it steps the next, as with a live feed. Times
 * each batch until it is stepped (p50/p99), and the whole replay until every batch is stored.
 */
export async function timedReplay(
  paper: PaperTrading,
  engine: Engine,
  batches: readonly MarketTick[][],
): Promise<TimedReplay> {
  const latencies: number[] = [];
  const heapMb: number[] = [];
  // A profile would show the samples' full collections as the replay's largest cost: none then.
  const tenth = process.env.BENCH_CPU_PROFILE?.trim() ? Infinity : Math.max(1, Math.floor(batches.length / 10));
  let fills = 0;
  let ticks = 0;
  let sampleMs = 0;
  let sampleCpuMs = 0;
  const applied: Promise<unknown>[] = [];
  const profile = await startCpuProfile();
  const started = performance.now();
  const cpuStarted = cpuMsNow();
  for (let index = 1; index < batches.length; index += 1) {
    const batch = batches[index]!;
    const before = performance.now();
    applied.push(paper.applyTicks(batch).then((updates) => void (fills += updates.filter((update) => update.fill).length)));
    await engine.stepped();
    latencies.push(performance.now() - before);
    ticks += batch.length;
    if (index % tenth === 0) {
      // The heap with nothing in flight.
      await Promise.all(applied);
      await engine.settled();
      const sampleStarted = performance.now();
      const sampleCpuStarted = cpuMsNow();
      collectGarbage();
      heapMb.push(Math.round(process.memoryUsage().heapUsed / 1e6));
      sampleMs += performance.now() - sampleStarted;
      sampleCpuMs += cpuMsNow() - sampleCpuStarted;
    }
  }
  await Promise.all(applied);
  await engine.settled();
  const ms = performance.now() - started - sampleMs;
  const cpuMs = cpuMsNow() - cpuStarted - sampleCpuMs;
  await profile.stop();
  latencies.sort((a, b) => a - b);
  const percentile = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
  return { ticks, ms, cpuMs, p50Ms: percentile(0.5), p99Ms: percentile(0.99), heapMb, fills };
}

export function describeResult(label: string, result: ReplayResult, baseline?: ReplayResult): string {
  const rate = (result.ticks / result.ms) * 1000;
  const ratio = baseline ? `  ${(rate / ((baseline.ticks / baseline.ms) * 1000)).toPrecision(2)}× bare` : '';
  return (
    `  ${label.padEnd(28)} ${Math.round(rate).toString().padStart(8)} ticks/s  p50 ${result.p50Ms.toFixed(2)} ms  ` +
    `p99 ${result.p99Ms.toFixed(2)} ms  fills ${result.fills}${ratio}\n` +
    `  ${''.padEnd(28)} heap after GC at each tenth (MB): ${result.heapMb.join(' ')}` +
    `\n${describeWrites(result.written, result.fills, result.ticks)}`
  );
}

