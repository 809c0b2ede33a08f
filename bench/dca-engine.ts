/**
 * 1,000 DCA bots, 250 on each of the four paper pairs, each running one deal at a time with 5
 * active safety orders, trading through the engine and the paper exchange while real 1h candles
 * are replayed (support/engine-replay.ts), with both storing every batch and the deals table
 * written in the same transactions (writeDcaRecords). Reports ticks per second and the latency
 * from a batch of ticks to the orders it caused being sent and stored, next to the same replay
 * with no bots in the same run (the ratio is the figure), and the heap at each tenth of the run.
 *
 * Each bot is created as POST /ver1/bots/create_bot and /enable would create it (the service's
 * settings reader and initial state) on its own account: nonstop start, base order at market,
 * take profit 1 to 3 % and safety orders 1 to 2 % apart (spread over the bots), up to 10 safety
 * orders with 5 working at once, volumes growing 1.2 times per order and steps 1.1 times. A deal
 * that completes is followed at once by the next. BENCH_CANDLES sets how many hours are replayed
 * (default 500).
 *
 * The run fails when a bot has no deal with 5 working safety orders after setup, when no deal
 * completes, or when the completed deals in the deals table do not add up to the bots' counts and
 * USD profits.
 */
import { randomBytes } from 'node:crypto';
import { botConfigFrom, type BotParams } from '../src/domain/dca-bot/bot-params.ts';
import { newBotState } from '../src/domain/dca-bot/dca-bot-state.ts';
import { dcaBotKind } from '../src/engine/kinds/dca-bot.kind.ts';
import type { Market } from '../src/exchanges/exchange.ts';
import { PAPER_MARKETS } from '../src/exchanges/paper/paper-markets.ts';
import { dec, ZERO } from '../src/shared/decimal.ts';
import { FieldErrorCollector } from '../src/shared/errors.ts';
import { SqlDcaRepository, writeDcaRecords } from '../src/store/dca.repository.ts';
import { type Benchmark, type BenchOutcome, scaled } from './support/benchmark.ts';
import { describeResult, marketBatches, replay, type World } from './support/engine-replay.ts';

const BOTS_PER_PAIR = scaled(250);
const ACTIVE_SAFETY_ORDERS = 5;
/** Base and safety order volumes in the quote currency: about twice the market minimum. */
const ORDER_VOLUME: Record<string, string> = { USDT_BTC: '10', USDT_ETH: '10', BTC_ETH: '0.0002', USDT_SOL: '10' };
const BALANCES = ['USDT:100000', 'BTC:100', 'ETH:10000', 'SOL:100000'].map((entry) => {
  const [currency, amount] = entry.split(':') as [string, string];
  return { currency, free: dec(amount), locked: ZERO };
});

export const benchmark: Benchmark = {
  name: 'dca-engine',
  description: '1,000 DCA bots × 5 active safety orders on 4 pairs over real 1h candles, next to the bare replay',
  run,
};

async function run(): Promise<BenchOutcome> {
  const candles = Number(process.env.BENCH_CANDLES ?? 500);
  const batches = marketBatches(candles);
  console.log(`  ${candles} hours of candles: ${batches.length} instants × 4 pairs`);

  const bare = await replay(batches);
  console.log(describeResult('bare replay (no bots)', bare));
  await bare.close();

  const failures: string[] = [];
  let created = 0;
  let setupMs = 0;
  const loaded = await replay(batches, {
    kinds: [dcaBotKind],
    recordWriters: { [dcaBotKind.name]: writeDcaRecords },
    setup: async (world) => {
      const started = Date.now();
      created = await createDcaBots(world);
      setupMs = Date.now() - started;
      const bots = await world.engine.list(dcaBotKind, { userId: world.userId });
      const laddered = bots.filter((bot) =>
        bot.state.deals.some((deal) => deal.orders.filter((order) => order.role === 'safety' && !order.cancelling).length === ACTIVE_SAFETY_ORDERS),
      ).length;
      console.log(`  after setup: ${laddered} of ${created} bots have a deal with ${ACTIVE_SAFETY_ORDERS} working safety orders`);
      if (laddered !== created) failures.push(`after setup only ${laddered} of ${created} bots have ${ACTIVE_SAFETY_ORDERS} working safety orders`);
    },
  });
  console.log(`  ${created} bots created and their first deals started in ${(setupMs / 1000).toFixed(1)} s (included in neither figure)`);
  console.log(describeResult(`with ${created} DCA bots`, loaded, bare));

  const [sums] = await loaded.world.db.query<{ started: string; closed: string; usd: string | null }>(
    `SELECT count(*) AS started, count(*) FILTER (WHERE status IN ('completed', 'panic_sold', 'stop_loss_finished')) AS closed,
       (sum(usd_final_profit) FILTER (WHERE status IN ('completed', 'panic_sold', 'stop_loss_finished')))::text AS usd
     FROM dca_deals`,
  );
  const bots = await loaded.world.engine.list(dcaBotKind, { userId: loaded.world.userId });
  const closed = bots.reduce((sum, bot) => sum + bot.state.finishedDealsCount, 0);
  const usd = bots.reduce((sum, bot) => sum.plus(dec(bot.state.finishedDealsProfitUsd)), ZERO);
  const safetyFills = bots.reduce((sum, bot) => sum + bot.state.deals.reduce((n, deal) => n + deal.safetyCompleted, 0), 0);
  console.log(
    `  ${sums!.started} deals in the deals table, ${sums!.closed} closed with ${sums!.usd ?? '0'} USD profit; bots report ` +
      `${closed} closed with ${usd.toFixed()} USD; open deals hold ${safetyFills} filled safety orders`,
  );
  if (Number(sums!.started) === 0) failures.push('no deal started');
  if (Number(sums!.closed) === 0) failures.push('no deal completed');
  if (Number(sums!.closed) !== closed || !usd.eq(dec(sums!.usd ?? '0'))) {
    failures.push('the closed deals in the deals table do not add up to the bots’ counts and USD profits');
  }
  await loaded.close();
  return { failures };
}

/** `volumes`: each pair's base and safety order volume in its quote currency, for other price levels. */
export async function createDcaBots(world: World, volumes: Record<string, string> = ORDER_VOLUME): Promise<number> {
  // As the service does: the bot gets the user's pairs blacklist (empty here) and a url secret.
  const blacklist = await new SqlDcaRepository(world.db).blacklist(world.userId);
  let created = 0;
  for (const market of PAPER_MARKETS) {
    for (let index = 0; index < BOTS_PER_PAIR; index += 1) {
      const accountId = await world.openAccount(BALANCES);
      const state = newBotState({
        userId: world.userId,
        accountId,
        urlSecret: randomBytes(12).toString('hex'),
        config: botConfig(market, index, volumes[market.pair]!),
        blacklist,
      });
      await world.engine.create(dcaBotKind, { userId: world.userId, accountId, state }, { type: 'enable' });
      created += 1;
    }
  }
  return created;
}

function botConfig(market: Market, index: number, volume: string) {
  const spread = (from: number, to: number) => (from + ((to - from) * index) / (BOTS_PER_PAIR - 1)).toFixed(2);
  const params: BotParams = {
    name: `bench ${market.pair} ${index}`,
    pairs: [market.pair],
    max_active_deals: 1,
    strategy: 'long',
    base_order_volume: volume,
    base_order_volume_type: 'quote_currency',
    safety_order_volume: volume,
    safety_order_volume_type: 'quote_currency',
    start_order_type: 'market',
    strategy_list: [{ strategy: 'nonstop', options: {} }],
    take_profit: spread(1, 3),
    take_profit_type: 'total',
    safety_order_step_percentage: spread(1, 2),
    martingale_volume_coefficient: '1.2',
    martingale_step_coefficient: '1.1',
    max_safety_orders: 10,
    active_safety_orders_count: ACTIVE_SAFETY_ORDERS,
  };
  const invalid = new FieldErrorCollector();
  const config = botConfigFrom(params, invalid);
  invalid.throwIfAny();
  return config!;
}
