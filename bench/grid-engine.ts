/**
 * 1,000 grid bots of 100 lines each, 250 on each of the four paper pairs, trading through the
 * engine and the paper exchange while real 1h candles are replayed (support/engine-replay.ts),
 * with both storing every batch. Reports ticks per second and the latency from a batch of ticks
 * to the orders it caused being sent and stored, next to the same replay with no bots in the same
 * run (the ratio is the figure), and the heap at each tenth of the run.
 *
 * Each bot has its own account and a slightly shifted ±30 % range around the first price, quote
 * order size of about twice the market minimum, so crossings spread over the bots as in a real
 * population. BENCH_CANDLES sets how many hours are replayed (default 100). The run fails when
 * the bots never fill, or when the profit rows do not add up to the bots' reported profits.
 */
import { parsePair } from '../src/domain/market/pair.ts';
import { buildGridConfig } from '../src/domain/grid-bot/config-validation.ts';
import { newGridBot } from '../src/domain/grid-bot/grid-bot-state.ts';
import { gridBotKind } from '../src/engine/kinds/grid-bot.kind.ts';
import { PAPER_MARKETS } from '../src/exchanges/paper/paper-markets.ts';
import { dec, ZERO } from '../src/shared/decimal.ts';
import { gridProfitsLogged } from '../src/store/grid-bots.repository.ts';
import { type Benchmark, type BenchOutcome, scaled } from './support/benchmark.ts';
import type { MarketTick } from '../src/domain/market/market-tick.ts';
import { MemoryGridProfits } from '../src/store/memory/memory-grid-profits.ts';
import { describeResult, engineErrorFailures, marketBatches, replay, type TimedReplay, type World } from './support/engine-replay.ts';
import { replayInMemory } from './support/memory-replay.ts';
import { describeLimit } from './support/raw-write-limit.ts';

const BOTS_PER_PAIR = scaled(250);
const LINES = Number(process.env.BENCH_GRID_LINES ?? 100);
const QUANTITY_PER_GRID: Record<string, string> = { USDT_BTC: '10', USDT_ETH: '10', BTC_ETH: '0.0002', USDT_SOL: '10' };
/** The paper exchange's default fee, which the balancing orders and the grids' step check assume. */
const FEE_RATE = dec('0.001');
const BALANCES = ['USDT:100000', 'BTC:100', 'ETH:10000', 'SOL:100000'].map((entry) => {
  const [currency, amount] = entry.split(':') as [string, string];
  return { currency, free: dec(amount), locked: ZERO };
});

export const benchmark: Benchmark = {
  name: 'grid-engine',
  description: '1,000 grid bots × 100 lines on 4 pairs over real 1h candles, next to the bare replay',
  run,
};


async function run(): Promise<BenchOutcome> {
  const candles = Number(process.env.BENCH_CANDLES ?? 100);
  const batches = marketBatches(candles);
  console.log(`  ${candles} hours of candles: ${batches.length} instants × 4 pairs`);
  const failures = await runInMemory(batches);
  if (process.env.BENCH_STORE === 'memory') return { failures };

  const bare = await replay(batches);
  console.log(describeResult('bare replay (no bots)', bare));
  await bare.close();

  let created = 0;
  let setupMs = 0;
  const loaded = await replay(batches, {
    kinds: [gridBotKind],
    recordWriters: { [gridBotKind.name]: gridProfitsLogged },
    setup: async (world) => {
      const started = Date.now();
      created = await createBots(world);
      setupMs = Date.now() - started;
    },
  });
  console.log(`  ${created} bots created in ${(setupMs / 1000).toFixed(1)} s (included in neither figure)`);
  console.log(`  ${perBot('stored', loaded.setupHeapBytes, created)}`);
  console.log(describeResult(`with ${created} grid bots`, loaded, bare));
  if (loaded.fills > 0) console.log(await describeLimit(loaded));

  if (loaded.fills === 0) failures.push('no grid order filled');
  failures.push(...engineErrorFailures(loaded.world));
  const [sums] = await loaded.world.db.query<{ rows: string; total: string | null }>(
    'SELECT count(*) AS rows, sum(profit)::text AS total FROM grid_profits',
  );
  const bots = await loaded.world.engine.list(gridBotKind, { userId: loaded.world.userId });
  const reported = bots.reduce((sum, bot) => sum.plus(bot.state.figures.profit), ZERO);
  console.log(`  ${sums!.rows} profit rows, total ${sums!.total ?? '0'}; bots report ${reported.toFixed()}`);
  if (!reported.eq(dec(sums!.total ?? '0'))) failures.push('the profit rows do not add up to the reported profits');
  await loaded.close();
  return { failures };
}

/** Memory per running automation: the heap the bots and their open orders added, per bot. */
function perBot(label: string, bytes: number, bots: number): string {
  return `${label}: heap after GC grew ${(bytes / 1e6).toFixed(1)} MB creating ${bots} bots of ${LINES} lines and placing their orders, ${(bytes / bots / 1024).toFixed(1)} KB per bot`;
}

/** The same replay with no storage: the engine's, the bots' and the paper venue's CPU alone. */
async function runInMemory(batches: MarketTick[][]): Promise<string[]> {
  const bare = await replayInMemory(batches);
  const profits = new MemoryGridProfits();
  let created = 0;
  const loaded = await replayInMemory(batches, {
    kinds: [gridBotKind],
    sinks: { [gridBotKind.name]: profits.write },
    setup: async (world) => {
      created = await createBots(world);
    },
  });
  const fillRate = (loaded.fills / loaded.ms) * 1000;
  const fillCpuRate = (loaded.fills / loaded.cpuMs) * 1000;
  const tickRate = (result: TimedReplay) => (result.ticks / result.ms) * 1000;
  const tickCpuRate = (result: TimedReplay) => (result.ticks / result.cpuMs) * 1000;
  console.log(
    `  in memory, ${created} grid bots: ${Math.round(fillRate)} fills/s (${loaded.fills} fills), ${Math.round(fillCpuRate)} per CPU second; ` +
      `${Math.round(tickRate(loaded))} ticks/s, ${(tickRate(loaded) / tickRate(bare)).toPrecision(2)}× the bare in-memory replay (${Math.round(tickRate(bare))} ticks/s), ` +
      `per CPU second ${(tickCpuRate(loaded) / tickCpuRate(bare)).toPrecision(2)}×; ` +
      `p50 ${loaded.p50Ms.toFixed(2)} ms, p99 ${loaded.p99Ms.toFixed(2)} ms per instant; heap after GC at each tenth (MB): ${loaded.heapMb.join(' ')}`,
  );
  console.log(`  ${perBot('in memory', loaded.setupHeapBytes, created)}, the memory stores' copies of the orders included`);
  const bots = await loaded.world.engine.list(gridBotKind, { userId: loaded.world.userId });
  const reported = bots.reduce((sum, bot) => sum.plus(bot.state.figures.profit), ZERO);
  const recorded = (await Promise.all(bots.map((bot) => profits.profits(bot.id, {})))).flat().reduce((sum, row) => sum.plus(dec(row.profit)), ZERO);
  const failures: string[] = [];
  if (loaded.fills === 0) failures.push('in memory: no grid order filled');
  if (!reported.eq(recorded)) failures.push('in memory: the profit rows do not add up to the reported profits');
  return failures;
}

/** `quantities`: each pair's quantity per grid line in its quote currency, for other price levels. */
export async function createBots(
  world: Pick<World, 'engine' | 'userId' | 'prices' | 'openAccount'>,
  quantities: Record<string, string> = QUANTITY_PER_GRID,
  /**
   * Bots of the four pairs in turn rather than pair after pair, so that consecutive accounts hold
   * bots of every pair: engines sharing a database take unowned accounts in order of id, and two
   * engines given the bots pair after pair split them by pair (grid-scale-out). One engine runs
   * them about a tenth slower in turn than pair after pair (docs/scaling.md).
   */
  pairsInTurn = false,
): Promise<number> {
  let created = 0;
  const order = pairsInTurn
    ? Array.from({ length: BOTS_PER_PAIR }, (_, index) => PAPER_MARKETS.map((market) => ({ market, index }))).flat()
    : PAPER_MARKETS.flatMap((market) => Array.from({ length: BOTS_PER_PAIR }, (_, index) => ({ market, index })));
  for (const { market, index } of order) {
    const price = world.prices.get(market.pair)!;
    const pair = parsePair(market.pair)!;
    const shift = dec(index).div(BOTS_PER_PAIR).times('0.1').minus('0.05');
    const lower = price.times(dec('0.7').plus(shift)).toNearest(market.rules.priceStep);
    const upper = price.times(dec('1.3').plus(shift)).toNearest(market.rules.priceStep);
    const result = buildGridConfig(
      {
        pair: market.pair,
        lower_price: lower.toFixed(),
        upper_price: upper.toFixed(),
        grids_quantity: LINES,
        quantity_per_grid: quantities[market.pair]!,
        order_currency_type: 'quote',
      },
      pair,
      market.rules,
      FEE_RATE,
    );
    if (!result.ok) throw new Error(`grid settings refused: ${JSON.stringify(result.errors)}`);
    const accountId = await world.openAccount(BALANCES);
    const funds = {
      base: BALANCES.find((b) => b.currency === pair.base)!.free,
      quote: BALANCES.find((b) => b.currency === pair.quote)!.free,
    };
    await world.engine.create(
      gridBotKind,
      { userId: world.userId, accountId, state: newGridBot(result.config, market.rules.priceStep) },
      { type: 'start', funds, feeRate: FEE_RATE },
    );
    created += 1;
  }
  return created;
}
