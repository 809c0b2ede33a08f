/**
 * 10,000 open SmartTrades with trailing stop losses, 2,500 on each of the four paper pairs, half
 * long and half short, running in the engine on the paper exchange while the real Binance BTCUSDT
 * trade file is replayed (support/engine-replay.ts tradeBatches: one tick per trade, each pair on
 * its own quarter of the file). Reports ticks per second and the latency from a batch of ticks to
 * what it caused being stored, next to the same replay with no trades in the same run (the ratio
 * is the figure), and the heap at each tenth of the run.
 *
 * Each trade is created as POST /v2/smart_trades would create it (the service's settings readers,
 * validation and initial state), entered at market, with a trailing stop loss 1 to 3 % away and a
 * market take profit 50 % away, so that every trade stays open: a long wakes on each new high of
 * its pair, a short on each new low. (A limit take profit would rest on the exchange instead of
 * being watched: one more placement per trade at setup, the same wake-ups during the replay.)
 * Trades share accounts, ten to an account.
 * BENCH_TRADES sets how many trades of the file each pair replays (default 1,000, at most 4,976).
 *
 * The run fails when a trade is not waiting for its targets after setup or after the replay, when
 * a trailing extreme is not the best price its pair printed since the entry (a missed wake-up), or
 * when the stored states differ from the engine's.
 */
import type { MarketTick } from '../src/domain/market/market-tick.ts';
import { readStopLoss, readTakeProfit } from '../src/domain/smart-trade/settings-input.ts';
import { newSmartTrade } from '../src/domain/smart-trade/smart-trade.ts';
import type { SmartTradeConfig, SmartTradeState } from '../src/domain/smart-trade/smart-trade.types.ts';
import { validateSmartTrade } from '../src/domain/smart-trade/validation.ts';
import { smartTradeKind } from '../src/engine/kinds/smart-trade.kind.ts';
import type { Market } from '../src/exchanges/exchange.ts';
import { PAPER_MARKETS } from '../src/exchanges/paper/paper-markets.ts';
import { dec, type Decimal, ZERO } from '../src/shared/decimal.ts';
import { FieldErrorCollector } from '../src/shared/errors.ts';
import { Engine } from '../src/engine/engine.ts';
import { SqlEngineRepository } from '../src/store/engine.repository.ts';
import { type Benchmark, type BenchOutcome, scaled } from './support/benchmark.ts';
import { markWrites, writtenSince } from './support/write-stats.ts';
import { describeResult, engineErrorFailures, replay, tradeBatches, type World } from './support/engine-replay.ts';

const TRADES_PER_ACCOUNT = 10;
export const TRADES = scaled(10_000, TRADES_PER_ACCOUNT * 4);
/**
 * Position sizes of about 20 USDT (about 0.02 BTC on BTC_ETH, whose price level is its own), so that a
 * short's take profit at half the price still meets the 5 USDT minimum.
 */
const UNITS: Record<string, string> = { USDT_BTC: '0.0003', USDT_ETH: '0.006', BTC_ETH: '0.006', USDT_SOL: '0.03' };
const BALANCES = ['USDT:10000', 'BTC:10', 'ETH:100', 'SOL:1000'].map((entry) => {
  const [currency, amount] = entry.split(':') as [string, string];
  return { currency, free: dec(amount), locked: ZERO };
});

export const benchmark: Benchmark = {
  name: 'smart-trades',
  description: '10,000 SmartTrades with trailing stop losses on 4 pairs over a real trade file, next to the bare replay',
  run,
};

async function run(): Promise<BenchOutcome> {
  const tradeCount = Number(process.env.BENCH_TRADES ?? 1000);
  const batches = tradeBatches(tradeCount);
  console.log(`  ${tradeCount} trades per pair: ${batches.flat().length} ticks at ${batches.length} instants`);

  const bare = await replay(batches);
  console.log(describeResult('bare replay (no trades)', bare));
  await bare.close();

  const failures: string[] = [];
  let setupMs = 0;
  const loaded = await replay(batches, {
    kinds: [smartTradeKind],
    // Their stop-loss and closing records are for notifications, which this run has none of.
    recordWriters: { [smartTradeKind.name]: async () => {} },
    setup: async (world) => {
      const started = Date.now();
      await createTrades(world);
      setupMs = Date.now() - started;
      const waiting = await countWaiting(world);
      if (waiting !== TRADES) failures.push(`after setup ${waiting} of ${TRADES} trades wait for their targets`);
    },
  });
  console.log(`  ${TRADES} trades created and entered in ${(setupMs / 1000).toFixed(1)} s (included in neither figure)`);
  console.log(describeResult(`with ${TRADES} SmartTrades`, loaded, bare));

  failures.push(...(await checkTrades(loaded.world, batches)));
  // Trailing moves wait up to 30 s before they are stored (their ticks are logged meanwhile): a
  // replay this short stores none of them, so what storing them all at once costs is shown apart.
  const mark = await markWrites(loaded.world.db);
  await loaded.world.engine.storeDeferred();
  const flushed = await writtenSince(loaded.world.db, mark);
  console.log(
    `  then storing every trade's waiting trailing moves at once: ${flushed.rows} rows, ${(flushed.walBytes / 1e6).toFixed(2)} MB WAL ` +
      `(${(flushed.walBytes / TRADES).toFixed(0)} bytes per trade)`,
  );
  failures.push(...engineErrorFailures(loaded.world));
  await loaded.close();
  return { failures };
}

export async function createTrades(world: World): Promise<void> {
  let accountId = 0;
  for (let index = 0; index < TRADES; index += 1) {
    if (index % TRADES_PER_ACCOUNT === 0) accountId = await world.openAccount(BALANCES);
    const market = PAPER_MARKETS[index % PAPER_MARKETS.length]!;
    const side = Math.floor(index / PAPER_MARKETS.length) % 2 === 0 ? 'buy' : 'sell';
    // 1 to 3 % in steps of 0.01, spread over the trades.
    const trailing = dec(100 + (index % 201)).div(100).toFixed();
    const state = smartTradeState(world, market, side, trailing);
    await world.engine.create(smartTradeKind, { userId: world.userId, accountId, state }, { type: 'start' });
  }
}

/** The initial state SmartTradesService.create builds for this request, through the same functions. */
function smartTradeState(world: World, market: Market, side: 'buy' | 'sell', trailingPercent: string): SmartTradeState {
  const invalid = new FieldErrorCollector();
  const takeProfit = readTakeProfit({ enabled: true, steps: [{ order_type: 'market', volume: '100', price: { percent: '50' } }] }, invalid);
  const stopLoss = readStopLoss(
    {
      enabled: true,
      order_type: 'market',
      conditional: { price: { percent: trailingPercent }, trailing: { enabled: true, percent: trailingPercent } },
    },
    invalid,
  );
  invalid.throwIfAny();
  const config: SmartTradeConfig = {
    pair: market.pair,
    base: market.base,
    quote: market.quote,
    side,
    instant: false,
    skipEnterStep: false,
    entry: { orderType: 'market', units: dec(UNITS[market.pair]!) },
    takeProfit: { enabled: takeProfit.enabled, steps: takeProfit.steps.map(({ id: _id, ...step }) => step) },
    ...(stopLoss ? { stopLoss } : {}),
  };
  const last = world.prices.get(market.pair)!;
  validateSmartTrade(config, market.rules, { bid: last, ask: last, last });
  const { priceStep, lotStep, minLotSize, minTotal } = market.rules;
  return newSmartTrade(config, { priceStep, lotStep, minLotSize, minTotal });
}

/**
 * The trades as a server started now on this database would run them: what is stored, and the
 * ticks logged for the trailing moves not stored yet, stepped again (the engine is not stopped
 * first, as after a crash).
 */
async function restartedStates(world: World) {
  const engine = new Engine({
    store: new SqlEngineRepository(world.db),
    exchangeFor: (accountId) => world.paper.exchange(accountId),
    clock: () => new Date(),
    logger: { warn: () => {}, error: (object, message) => console.error(message, object) },
    kinds: [smartTradeKind],
  });
  engine.registerRecordWriter(smartTradeKind.name, async () => {});
  await engine.start();
  return engine.list(smartTradeKind, { userId: world.userId });
}

async function countWaiting(world: World): Promise<number> {
  const trades = await world.engine.list(smartTradeKind, { userId: world.userId });
  return trades.filter((trade) => trade.state.status === 'waiting_targets').length;
}

/**
 * After the replay every trade still waits for its targets, its trailing extreme is the highest
 * (long) or lowest (short) price its pair printed since the entry, and a restart would run it from
 * the same state.
 */
async function checkTrades(world: World, batches: readonly MarketTick[][]): Promise<string[]> {
  const failures: string[] = [];
  // The trades entered at the first batch's prices; the replay's ticks come after.
  const high = new Map<string, Decimal>(world.prices);
  const low = new Map<string, Decimal>(world.prices);
  for (const tick of batches.slice(1).flat()) {
    if (tick.price.gt(high.get(tick.pair)!)) high.set(tick.pair, tick.price);
    if (tick.price.lt(low.get(tick.pair)!)) low.set(tick.pair, tick.price);
  }
  const trades = await world.engine.list(smartTradeKind, { userId: world.userId });
  const stored = new Map((await restartedStates(world)).map((trade) => [trade.id, JSON.stringify(smartTradeKind.toJson(trade.state))]));
  let open = 0;
  let missed = 0;
  let differ = 0;
  for (const trade of trades) {
    const { state } = trade;
    if (state.status === 'waiting_targets') open += 1;
    const best = state.config.side === 'buy' ? high.get(state.config.pair)! : low.get(state.config.pair)!;
    if (!state.stopLoss?.extreme?.eq(best)) missed += 1;
    if (stored.get(trade.id) !== JSON.stringify(smartTradeKind.toJson(state))) differ += 1;
  }
  console.log(`  after the replay: ${open} of ${trades.length} trades open, ${missed} trailing extremes off the best price, ${differ} states differ after a restart`);
  if (trades.length !== TRADES || open !== TRADES) failures.push(`${open} of ${trades.length} trades are still open after the replay, ${TRADES} expected`);
  if (missed > 0) failures.push(`${missed} trailing extremes are not the best price since entry`);
  if (differ > 0) failures.push(`${differ} states a restart would run differ from the engine's`);
  return failures;
}
