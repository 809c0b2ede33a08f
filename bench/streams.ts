/**
 * 1,000 websocket subscribers while 1,000 grid bots trade: the engine's rate with them next to the
 * same replay with none, in the same run, and the push latency from a batch's commit to a client
 * receiving the bot it changed.
 *
 * Each run is the real server (src/app.ts, streams included) on a fresh database and the manual
 * paper feed. 100 users own 10 grid bots each (100 lines, 250 bots per paper pair, ±30 % ranges
 * shifted per bot as in grid-engine) and hold 10 GridBotsChannel subscriptions each. The
 * subscribers live in a child process (support/stream-subscribers.mjs), as clients live on other
 * machines; one more subscriber, the probe, lives in this process and measures the latency: from
 * the first commit that changed a bot since the probe last received it, to receiving it. Real 1h
 * candles are replayed (BENCH_CANDLES hours, default 25) through `applyPaperTicks`, which resolves
 * once the engine stored everything a batch caused. The goal: at least 0.9 of the rate without
 * subscribers.
 */
import { fork } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { buildApp, createLogger, openCore, type Core } from '../src/app.ts';
import { loadConfig } from '../src/config/config.ts';
import { buildGridConfig } from '../src/domain/grid-bot/config-validation.ts';
import { newGridBot } from '../src/domain/grid-bot/grid-bot-state.ts';
import type { MarketTick } from '../src/domain/market/market-tick.ts';
import { parsePair } from '../src/domain/market/pair.ts';
import { gridBotKind } from '../src/engine/kinds/grid-bot.kind.ts';
import { PAPER_MARKETS } from '../src/exchanges/paper/paper-markets.ts';
import { dec, type Decimal } from '../src/shared/decimal.ts';
import { openTestDatabase } from '../test/support/database.ts';
import type { Benchmark, BenchOutcome } from './support/benchmark.ts';
import { marketBatches } from './support/engine-replay.ts';

const USERS = 100;
const BOTS_PER_USER = 10;
const SUBSCRIBERS_PER_USER = 10;
const LINES = 100;
const QUANTITY_PER_GRID: Record<string, string> = { USDT_BTC: '10', USDT_ETH: '10', BTC_ETH: '0.0002', USDT_SOL: '10' };
const BALANCES = 'USDT:100000,BTC:100,ETH:10000,SOL:100000';
const FEE_RATE = dec('0.001');

export const benchmark: Benchmark = {
  name: 'streams',
  description: '1,000 GridBotsChannel subscribers while 1,000 grid bots trade, next to the same replay with none',
  run,
};

interface RunResult {
  ticks: number;
  ms: number;
  pushes: number;
  latencies: number[];
}

async function run(): Promise<BenchOutcome> {
  const candles = Number(process.env.BENCH_CANDLES ?? 25);
  const batches = marketBatches(candles);
  console.log(`  ${candles} hours of candles: ${batches.length} instants × 4 pairs; ${USERS * BOTS_PER_USER} grid bots of ${LINES} lines`);
  const quiet = await replayWith(batches, 0);
  const watched = await replayWith(batches, SUBSCRIBERS_PER_USER);
  const rate = (result: RunResult) => (result.ticks / result.ms) * 1000;
  const ratio = rate(watched) / rate(quiet);
  const sorted = [...watched.latencies].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
  console.log(`  no subscribers             ${Math.round(rate(quiet))} ticks/s`);
  console.log(`  ${USERS * SUBSCRIBERS_PER_USER} subscribers + probe   ${Math.round(rate(watched))} ticks/s  ${ratio.toFixed(2)}× the rate without`);
  console.log(`  pushes received by the subscribers: ${watched.pushes}; probe latency over ${sorted.length} pushes: p50 ${at(0.5).toFixed(1)} ms  p99 ${at(0.99).toFixed(1)} ms  max ${at(1).toFixed(1)} ms`);
  const failures: string[] = [];
  if (watched.pushes === 0 || sorted.length === 0) failures.push('no bot was pushed to the subscribers');
  if (ratio < 0.9) failures.push(`the engine kept ${ratio.toFixed(2)} of its rate with subscribers (goal 0.9)`);
  return { failures };
}

async function replayWith(batches: MarketTick[][], subscribersPerUser: number): Promise<RunResult> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradeloop-bench-'));
  const db = await openTestDatabase();
  const config = loadConfig({ RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'silent', DATA_DIR: dataDir, PAPER_FEED: 'manual', PAPER_BALANCES: BALANCES });
  const core = await openCore(config, { db, logger: createLogger('silent') });
  // Registered before the streams' own listener: a bot's commit is noted before it can be pushed.
  const committedAt = new Map<number, number>();
  core.engine.onCommitted((batch) => {
    const now = performance.now();
    for (const { id } of batch.automations) if (!committedAt.has(id)) committedAt.set(id, now);
  });
  const app = await buildApp(core);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `ws://127.0.0.1:${(app.server.address() as { port: number }).port}/websocket`;
  try {
    await core.startTrading();
    await core.applyPaperTicks(batches[0]!);
    const users = await createUsersAndBots(core, new Map(batches[0]!.map((tick) => [tick.pair, tick.price])));
    const identifiers = users.map((user) => user.identifier);
    const latencies: number[] = [];
    let subscribers: Subscribers | undefined;
    let probe: WebSocket | undefined;
    if (subscribersPerUser > 0) {
      subscribers = await startSubscribers(url, identifiers.flatMap((identifier) => Array<string>(subscribersPerUser).fill(identifier)));
      probe = await openProbe(url, identifiers[0]!, (botId) => {
        const since = committedAt.get(botId);
        if (since !== undefined) latencies.push(performance.now() - since);
        committedAt.delete(botId);
      });
    }
    committedAt.clear();
    let ticks = 0;
    const started = performance.now();
    for (const batch of batches.slice(1)) {
      await core.applyPaperTicks(batch);
      ticks += batch.length;
    }
    const ms = performance.now() - started;
    // Pushes still on their way count for the latency, not for the engine's rate.
    if (probe) await probeCaughtUp(users[0]!.botIds, committedAt);
    probe?.close();
    const counts = (await subscribers?.stop()) ?? [];
    return { ticks, ms, pushes: counts.reduce((sum, count) => sum + count, 0), latencies };
  } finally {
    await app.close();
    await core.close();
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** USERS users with BOTS_PER_USER grid bots each, on accounts of their own. */
async function createUsersAndBots(core: Core, prices: Map<string, Decimal>): Promise<Array<{ identifier: string; botIds: number[] }>> {
  const users: Array<{ identifier: string; botIds: number[] }> = [];
  let botIndex = 0;
  for (let u = 0; u < USERS; u += 1) {
    const user = await core.users.create(`bench${u}`);
    const key = await core.apiKeys.create({ userName: user.name, name: 'stream', permissions: ['BOTS_READ'] });
    const signature = createHmac('sha256', key.secret!).update('/grid_bots').digest('hex');
    const botIds: number[] = [];
    for (let b = 0; b < BOTS_PER_USER; b += 1, botIndex += 1) botIds.push(await createBot(core, user.id, botIndex, prices));
    users.push({ identifier: JSON.stringify({ channel: 'GridBotsChannel', users: [{ api_key: key.api_key, signature }] }), botIds });
  }
  return users;
}

/** Waits (two minutes at most) until the probe received every change of its bots. */
async function probeCaughtUp(botIds: number[], committedAt: Map<number, number>): Promise<void> {
  const until = performance.now() + 120_000;
  while (botIds.some((id) => committedAt.has(id)) && performance.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Bot n trades pair n % 4, with a range shifted by its place among that pair's bots. */
async function createBot(core: Core, userId: number, index: number, prices: Map<string, Decimal>): Promise<number> {
  const market = PAPER_MARKETS[index % PAPER_MARKETS.length]!;
  const perPair = (USERS * BOTS_PER_USER) / PAPER_MARKETS.length;
  const price = prices.get(market.pair)!;
  const shift = dec(Math.floor(index / PAPER_MARKETS.length)).div(perPair).times('0.1').minus('0.05');
  const result = buildGridConfig(
    {
      pair: market.pair,
      lower_price: price.times(dec('0.7').plus(shift)).toNearest(market.rules.priceStep).toFixed(),
      upper_price: price.times(dec('1.3').plus(shift)).toNearest(market.rules.priceStep).toFixed(),
      grids_quantity: LINES,
      quantity_per_grid: QUANTITY_PER_GRID[market.pair]!,
      order_currency_type: 'quote',
    },
    parsePair(market.pair)!,
    market.rules,
    FEE_RATE,
  );
  if (!result.ok) throw new Error(`grid settings refused: ${JSON.stringify(result.errors)}`);
  const account = await core.accounts.createPaperAccount(userId, `grid ${index}`);
  const balances = await (await core.paper.exchange(account.id)).balances();
  const funds = (currency: string) => balances.find((balance) => balance.currency === currency)!.free;
  const pair = parsePair(market.pair)!;
  const bot = await core.engine.create(
    gridBotKind,
    { userId, accountId: account.id, state: newGridBot(result.config, market.rules.priceStep) },
    { type: 'start', funds: { base: funds(pair.base), quote: funds(pair.quote) }, feeRate: FEE_RATE },
  );
  return bot.id;
}

interface Subscribers {
  stop(): Promise<number[]>;
}

async function startSubscribers(url: string, identifiers: string[]): Promise<Subscribers> {
  const child = fork(path.join(import.meta.dirname, 'support', 'stream-subscribers.mjs'), { stdio: 'inherit' });
  const nextMessage = () =>
    new Promise<{ type: string; counts?: number[] }>((resolve, reject) => {
      child.once('message', (message) => resolve(message as { type: string; counts?: number[] }));
      child.once('exit', (code) => reject(new Error(`the subscribers' process exited (${code})`)));
    });
  const ready = nextMessage();
  child.send({ url, identifiers });
  await ready;
  return {
    stop: async () => {
      const answer = nextMessage();
      child.send({ type: 'stop' });
      return (await answer).counts ?? [];
    },
  };
}

/** A subscriber in this process: it calls `received` with the id of each grid bot pushed to it. */
async function openProbe(url: string, identifier: string, received: (botId: number) => void): Promise<WebSocket> {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const confirmed = new Promise((resolve) => {
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString());
      if (frame.type === 'confirm_subscription') resolve(undefined);
      else if (frame.message?.type !== 'GridBotProfit' && typeof frame.message?.id === 'number') received(frame.message.id);
    });
  });
  socket.send(JSON.stringify({ command: 'subscribe', identifier }));
  await confirmed;
  return socket;
}
