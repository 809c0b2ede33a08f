/**
 * Live pacing: how long an order takes to reach the paper exchange after the tick that caused it,
 * with a live population running: 1,000 grid bots of 100 lines, 1,000 DCA bots and 10,000
 * SmartTrades (the populations of grid-engine, dca-engine and smart-trades; BENCH_SCALE scales
 * them), all storing every batch (PGlite, or DATABASE_URL).
 *
 * Ticks come in real time as the live feed delivers them, 5 a second on each of the four pairs
 * (real Binance BTCUSDT trades, each pair on its own quarter of the file as smart-trades replays
 * them, taken evenly over the quarter, their moves amplified), for BENCH_DURATION seconds. As in
 * the server, each tick is applied to the paper exchange when it comes, whatever the engine is
 * doing: the engine takes what came while it was busy as one batch (group commit: one
 * transaction, each tick still seen in its order), and steps it while the batch before is stored.
 * Every order placed is timed from the arrival of the oldest tick the engine had not finished
 * stepping when the order reached the paper exchange (the order is that tick's or a later one's:
 * an upper bound); each tick is also timed until everything it caused is stored.
 *
 * Then a burst: one tick on each pair at once, 2 % below the last price, which crosses a line of
 * every grid bot; printed is how long until every order it caused was placed.
 */
import { performance } from 'node:perf_hooks';
import type { MarketTick } from '../src/domain/market/market-tick.ts';
import { dcaBotKind } from '../src/engine/kinds/dca-bot.kind.ts';
import { gridBotKind } from '../src/engine/kinds/grid-bot.kind.ts';
import { smartTradeKind } from '../src/engine/kinds/smart-trade.kind.ts';
import { PAPER_MARKETS } from '../src/exchanges/paper/paper-markets.ts';
import { roundToStep } from '../src/shared/decimal.ts';
import { writeDcaRecords } from '../src/store/dca.repository.ts';
import { gridProfitsLogged } from '../src/store/grid-bots.repository.ts';
import { createDcaBots } from './dca-engine.ts';
import { createBots as createGridBots } from './grid-engine.ts';
import { createTrades, TRADES } from './smart-trades.ts';
import type { Benchmark, BenchOutcome, BenchSettings } from './support/benchmark.ts';
import { engineErrorFailures, openWorld, startCpuProfile, tradeBatches, type World } from './support/engine-replay.ts';

const TICKS_PER_SECOND_PER_PAIR = 5;
/** The trade file holds this many trades for each pair's quarter. */
const TRADES_PER_PAIR_IN_FILE = 4976;
/**
 * Grid lines and DCA orders in the quote currency, for the trade file's price levels (BTC about
 * 60,000 USDT, BTC_ETH about 3): a little over the markets' minimums.
 */
/**
 * Each pair's quarter of the trade file moves 0.16 to 0.34 %, less than the grid bots' lines are
 * apart (0.6 %): the trades' moves away from the pair's first price are taken ten times over,
 * the swings of a busy market with the real trades' order and rhythm.
 */
const AMPLITUDE = 10;
const QUOTE_PER_ORDER: Record<string, string> = { USDT_BTC: '10', USDT_ETH: '10', BTC_ETH: '0.001', USDT_SOL: '10' };
const GOAL_P99_MS = 50;

export const benchmark: Benchmark = {
  name: 'live-latency',
  description: '1,000 grid bots, 1,000 DCA bots and 10,000 SmartTrades on real trades at 4 pairs × 5 ticks/s: tick to order at the exchange',
  run,
};

/** Ticks handed over together, whose arrival the orders placed until they are stepped are timed from. */
interface Handling {
  arrivedAt: number;
  orders: number;
}

async function run(settings: BenchSettings): Promise<BenchOutcome> {
  const perPair = settings.durationSeconds * TICKS_PER_SECOND_PER_PAIR;
  const ticks = pacedTicks(perPair);
  const orderLatencies: number[] = [];
  // Handed over and not yet stepped, oldest first: an order placed now is one of theirs.
  const unstepped: Handling[] = [];
  const placed = () => {
    const oldest = unstepped[0];
    if (!oldest) return;
    orderLatencies.push(performance.now() - oldest.arrivedAt);
    oldest.orders += 1;
  };

  const started = Date.now();
  const counts = { grid: 0, dca: 0 };
  const { world, close } = await openWorld(
    ticks.slice(0, PAPER_MARKETS.length).map(({ tick }) => tick),
    {
      kinds: [gridBotKind, dcaBotKind, smartTradeKind],
      // The SmartTrades' stop-loss and closing records are for notifications, which this run has none of.
      recordWriters: { [gridBotKind.name]: gridProfitsLogged, [dcaBotKind.name]: writeDcaRecords, [smartTradeKind.name]: async () => {} },
      setup: async (setupWorld) => {
        counts.grid = await createGridBots(setupWorld, QUOTE_PER_ORDER);
        counts.dca = await createDcaBots(setupWorld, QUOTE_PER_ORDER);
        await createTrades(setupWorld);
      },
    },
    { onPlaced: placed },
  );
  console.log(
    `  ${counts.grid} grid bots, ${counts.dca} DCA bots and ${TRADES} SmartTrades set up in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );

  const tickLatencies: number[] = [];
  let waited = 0;
  // As the feed hands them over, whatever the engine is doing: dated when they are handed over.
  // Resolves with the orders placed until they were stepped, once everything they caused is stored.
  const handOver = (ticks: MarketTick[], arrivals: number[]): Promise<number> => {
    if (unstepped.length > 0) waited += ticks.length;
    const handling: Handling = { arrivedAt: arrivals[0]!, orders: 0 };
    unstepped.push(handling);
    const applied = world.paper.applyTicks(ticks.map((tick) => ({ ...tick, at: new Date() })));
    // Every tick handed over so far is stepped, these and those before.
    const stepped = world.engine.stepped().then(() => void unstepped.splice(0, unstepped.indexOf(handling) + 1));
    return Promise.all([applied, stepped, world.engine.stored()]).then(() => {
      for (const arrivedAt of arrivals) tickLatencies.push(performance.now() - arrivedAt);
      return handling.orders;
    });
  };

  const paced = ticks.slice(PAPER_MARKETS.length);
  const start = performance.now() + 100;
  const arrival = (index: number) => start + paced[index]!.offsetMs;
  const profile = await startCpuProfile();
  const handedOver: Promise<number>[] = [];
  for (let next = 0; next < paced.length; ) {
    const early = arrival(next) - performance.now();
    if (early > 0) await new Promise((resolve) => setTimeout(resolve, early));
    // Ticks that came while this thread was busy are read together, in the order they came.
    const now = performance.now();
    let end = next + 1;
    while (end < paced.length && arrival(end) <= now) end += 1;
    const group = paced.slice(next, end);
    handedOver.push(handOver(group.map(({ tick }) => tick), group.map((_, offset) => arrival(next + offset))));
    next = end;
  }
  const ordersPlaced = (await Promise.all(handedOver)).reduce((sum, orders) => sum + orders, 0);
  await profile.stop();
  const pacedOrders = [...orderLatencies];
  console.log(
    `  ${paced.length} ticks over ${settings.durationSeconds} s (${PAPER_MARKETS.length} pairs × ${TICKS_PER_SECOND_PER_PAIR}/s), ` +
      `${waited} came while the engine was still stepping ticks before them`,
  );
  console.log(`  tick to order at the exchange: ${ordersPlaced} orders, ${describe(pacedOrders)} (goal p99 ≤ ${GOAL_P99_MS} ms)`);
  console.log(`  tick to everything it caused stored: ${describe(tickLatencies)}`);

  orderLatencies.length = 0;
  const burstAt = performance.now();
  const burst = burstTicks(world);
  const burstOrders = await handOver(burst, burst.map(() => burstAt));
  console.log(
    `  burst (every pair 2 % down at once): ${burstOrders} orders placed, the last ${Math.max(...orderLatencies).toFixed(0)} ms and all stored ` +
      `${(performance.now() - burstAt).toFixed(0)} ms after the ticks came; ${describe(orderLatencies)}`,
  );
  await close();

  const failures: string[] = [];
  if (pacedOrders.length === 0) failures.push('no order was placed during the paced ticks');
  failures.push(...engineErrorFailures(world));
  if (burstOrders < counts.grid) failures.push(`the burst placed ${burstOrders} orders for ${counts.grid} grid bots`);
  return { failures };
}

/**
 * Each pair's ticks in turn, a pair's next tick 1/5 s after its last, the pairs 50 ms apart. The
 * ticks are trades taken evenly from the pair's whole quarter of the file, so a short run still
 * sees its minutes of price moves (one trade in 5 a second would barely move). The first tick of
 * each pair sets the prices the automations start from (offsets below zero).
 */
function pacedTicks(perPair: number): { tick: MarketTick; offsetMs: number }[] {
  const byPair = new Map<string, MarketTick[]>();
  for (const tick of tradeBatches(TRADES_PER_PAIR_IN_FILE).flat()) {
    const list = byPair.get(tick.pair) ?? [];
    const first = list[0]?.price ?? tick.price;
    const step = PAPER_MARKETS.find((market) => market.pair === tick.pair)!.rules.priceStep;
    list.push({ ...tick, price: roundToStep(first.plus(tick.price.minus(first).times(AMPLITUDE)), step) });
    byPair.set(tick.pair, list);
  }
  const intervalMs = 1000 / TICKS_PER_SECOND_PER_PAIR;
  const spacingMs = intervalMs / PAPER_MARKETS.length;
  const paced: { tick: MarketTick; offsetMs: number }[] = [];
  for (let index = 0; index <= perPair; index += 1) {
    PAPER_MARKETS.forEach((market, pairIndex) => {
      const trades = byPair.get(market.pair)!;
      const tick = trades[Math.floor((index * (trades.length - 1)) / perPair)]!;
      paced.push({ tick, offsetMs: (index - 1) * intervalMs + pairIndex * spacingMs });
    });
  }
  return paced;
}

function burstTicks(world: World): MarketTick[] {
  return PAPER_MARKETS.map((market) => {
    const last = world.paper.ticker(market.pair)!.last;
    return { pair: market.pair, price: roundToStep(last.times('0.98'), market.rules.priceStep), at: new Date() };
  });
}

function describe(latencies: readonly number[]): string {
  if (latencies.length === 0) return 'none';
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
  return `p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`;
}
