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
 * The bots' replay runs four times: twice as is, and twice with a notification target for their
 * user, so that the outbox's writer adds the notices of each batch (deal opened, safety order
 * filled, deal closed) to its transaction; the difference is what notifications cost the engine.
 *
 * The run fails when a bot has no deal with 5 working safety orders after setup, when no deal
 * completes, when the completed deals in the deals table do not add up to the bots' counts and
 * USD profits, or when the outbox is written without a target or stays empty with one.
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
import type { MarketTick } from '../src/domain/market/market-tick.ts';
import type { RecordWriter } from '../src/engine/engine-store.ts';
import { bothWriters, OutboxHook } from '../src/notifications/outbox-hook.ts';
import { SqlNotificationsRepository } from '../src/store/notifications.repository.ts';
import { type Benchmark, type BenchOutcome, scaled } from './support/benchmark.ts';
import { describeResult, engineErrorFailures, marketBatches, replay, type ReplayResult, type World } from './support/engine-replay.ts';
import { describeLimit } from './support/raw-write-limit.ts';

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
  // Without, with, with, without: the later runs find the code compiled, so each side gets an
  // early and a late one.
  const runs: BotsRun[] = [];
  for (const notified of [false, true, true, false]) runs.push(await withBots(batches, bare, failures, notified));
  console.log(describeOutbox([runs[0]!, runs[3]!], [runs[1]!, runs[2]!]));
  return { failures };
}

interface BotsRun {
  result: ReplayResult;
  notices: number;
}

/**
 * The bots' replay; `notified`: their user has a notification target, so the outbox's writer adds
 * each batch's notices to its transaction (as the server does; without one it returns at once).
 */
async function withBots(batches: MarketTick[][], bare: ReplayResult, failures: string[], notified: boolean): Promise<BotsRun> {
  let created = 0;
  let setupMs = 0;
  let outbox: OutboxHook | undefined;
  const notices: RecordWriter = async (sql, batch) => outbox?.dcaWriter()(sql, batch);
  const label = notified ? 'with a notification target' : 'no notification target';
  const loaded = await replay(batches, {
    kinds: [dcaBotKind],
    recordWriters: { [dcaBotKind.name]: bothWriters(writeDcaRecords, notices) },
    setup: async (world) => {
      const started = Date.now();
      if (notified) {
        await world.db.query(
          `INSERT INTO notification_targets (user_id, kind, name, url, secret_sealed, created_at, updated_at)
           VALUES ($1, 'webhook', 'bench', 'http://127.0.0.1:9/', 'unused: nothing is sent', now(), now())`,
          [world.userId],
        );
        outbox = new OutboxHook(new SqlNotificationsRepository(world.db));
        await outbox.refresh();
      }
      created = await createDcaBots(world);
      setupMs = Date.now() - started;
      const bots = await world.engine.list(dcaBotKind, { userId: world.userId });
      const laddered = bots.filter((bot) =>
        bot.state.deals.some((deal) => deal.orders.filter((order) => order.role === 'safety' && !order.cancelling).length === ACTIVE_SAFETY_ORDERS),
      ).length;
      console.log(`  ${label}: after setup ${laddered} of ${created} bots have a deal with ${ACTIVE_SAFETY_ORDERS} working safety orders`);
      if (laddered !== created) failures.push(`${label}: after setup only ${laddered} of ${created} bots have ${ACTIVE_SAFETY_ORDERS} working safety orders`);
      // Notices of the setup are not the replay's: only what the replay adds is counted.
      await world.db.query('DELETE FROM notification_outbox');
    },
  });
  console.log(`  ${created} bots created and their first deals started in ${(setupMs / 1000).toFixed(1)} s (included in neither figure)`);
  console.log(describeResult(`${created} DCA bots, ${label}`, loaded, bare));
  if (!notified && loaded.fills > 0) console.log(await describeLimit(loaded));

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
  if (Number(sums!.started) === 0) failures.push(`${label}: no deal started`);
  failures.push(...engineErrorFailures(loaded.world, `${label}: `));
  if (Number(sums!.closed) === 0) failures.push(`${label}: no deal completed`);
  if (Number(sums!.closed) !== closed || !usd.eq(dec(sums!.usd ?? '0'))) {
    failures.push(`${label}: the closed deals in the deals table do not add up to the bots’ counts and USD profits`);
  }
  const [outboxRows] = await loaded.world.db.query<{ count: string }>('SELECT count(*) AS count FROM notification_outbox');
  const noticeCount = Number(outboxRows!.count);
  if (notified && noticeCount === 0) failures.push('with a notification target: the outbox stayed empty');
  if (!notified && noticeCount !== 0) failures.push('no notification target: the outbox was written');
  await loaded.close();
  return { result: loaded, notices: noticeCount };
}

const signed = (value: number, digits: number) => `${value < 0 ? '−' : '+'}${Math.abs(value).toFixed(digits)}`;

/** What writing notices in the batches' transactions costs, against the runs without a target. */
function describeOutbox(plain: BotsRun[], notified: BotsRun[]): string {
  const sum = (runs: BotsRun[], value: (run: BotsRun) => number) => runs.reduce((total, run) => total + value(run), 0);
  const fills = (runs: BotsRun[]) => sum(runs, (run) => run.result.fills);
  const perFill = (runs: BotsRun[], value: (run: BotsRun) => number) => sum(runs, value) / Math.max(1, fills(runs));
  const rate = (runs: BotsRun[]) => sum(runs, (run) => run.result.ticks) / sum(runs, (run) => run.result.ms);
  const perCpu = (runs: BotsRun[]) => fills(runs) / sum(runs, (run) => run.result.cpuMs);
  const rows = [perFill(plain, (run) => run.result.written.rows), perFill(notified, (run) => run.result.written.rows)];
  const wal = [perFill(plain, (run) => run.result.written.walBytes), perFill(notified, (run) => run.result.written.walBytes)];
  return (
    `  outbox: ${perFill(notified, (run) => run.notices).toFixed(2)} notices per fill; per fill ` +
    `${rows[0]!.toFixed(1)} → ${rows[1]!.toFixed(1)} rows, ${Math.round(wal[0]!)} → ${Math.round(wal[1]!)} WAL bytes ` +
    `(${signed(rows[1]! - rows[0]!, 2)} rows, ${signed(wal[1]! - wal[0]!, 0)} bytes); with a target ` +
    `${(rate(notified) / rate(plain)).toFixed(2)}× the ticks/s and ${(perCpu(notified) / perCpu(plain)).toFixed(2)}× the fills per CPU second ` +
    `of the runs without (two runs each side)`
  );
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
