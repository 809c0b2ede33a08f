/**
 * Fills per second of the paper exchange replaying a real Binance trade file (19,904 BTCUSDT
 * trades with volumes) through 10,000 resting limit orders, next to a bare loop over the same
 * ticks: the venue alone (PaperVenue.applyTick per trade), and the venue behind PaperTrading
 * storing every batch in a fresh PGlite database (or DATABASE_URL) through SqlPaperRepository.
 *
 * A fixed workload: one pass over the file per row, so BENCH_DURATION does not apply. There is no
 * goal; the run fails when nothing fills, when the balances after the replay are not explained
 * exactly by the fills and the orders still open, or when the database differs from the venue.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { MarketTick } from '../src/domain/market/market-tick.ts';
import { PaperTrading } from '../src/engine/paper-trading.ts';
import type { Balance, OrderUpdate } from '../src/exchanges/exchange.ts';
import type { PaperAccount } from '../src/exchanges/paper/paper-account.ts';
import { PAPER_MARKETS } from '../src/exchanges/paper/paper-markets.ts';
import { PaperVenue } from '../src/exchanges/paper/paper-venue.ts';
import { ManualFeed } from '../src/market-data/manual-feed.ts';
import { MARKET_FIXTURES_DIR, readTrades } from '../src/market-data/market-files.ts';
import { ReplayFeed } from '../src/market-data/replay-feed.ts';
import { dec, type Decimal, ZERO } from '../src/shared/decimal.ts';
import { SqlPaperRepository } from '../src/store/paper.repository.ts';
import { openTestDatabase } from '../test/support/database.ts';
import type { Benchmark, BenchOutcome } from './support/benchmark.ts';
import { checkBalances, checkStored } from './support/paper-checks.ts';

const TRADES_FILE = path.join(MARKET_FIXTURES_DIR, 'binance-BTCUSDT-trades-2024-08-08T2354_2024-08-09T0005.csv.gz');
const PAIR = 'USDT_BTC';
const ORDERS = 10_000;
const ACCOUNTS = 4;
const START_BALANCES: Balance[] = [
  { currency: 'USDT', free: dec(100_000), locked: ZERO },
  { currency: 'BTC', free: dec(2), locked: ZERO },
];
/** One pass of the bare loop takes a few milliseconds; repeating it keeps the timer's noise out. */
const BASELINE_MIN_MS = 250;

interface GridOrder {
  side: 'buy' | 'sell';
  price: Decimal;
  amount: Decimal;
}

interface Row {
  label: string;
  ticks: number;
  fills: number | undefined;
  ms: number;
}

export const benchmark: Benchmark = {
  name: 'paper-exchange',
  description: 'fills/s of the paper exchange replaying 19,904 real trades through 10,000 resting orders',
  run,
};

async function run(): Promise<BenchOutcome> {
  const trades = readTrades(TRADES_FILE);
  // Grouped by timestamp exactly as the replay feed hands them to PaperTrading.
  const batches = [...new ReplayFeed({ sources: [{ pair: PAIR, trades }], speed: 0 }).batches()];
  const ticks = batches.flat();
  const { low, high } = priceRange(ticks);
  const orders = orderGrid(ticks[0]!.price, low, high);
  console.log(
    `  ${ticks.length} trades at ${batches.length} distinct times, ${low.toFixed()} – ${high.toFixed()}, first at ` +
      `${ticks[0]!.price.toFixed()}; ${orders.length} resting orders over ${ACCOUNTS} accounts`,
  );

  let passes = 0;
  const baselineStart = performance.now();
  do {
    priceRange(ticks);
    passes += 1;
  } while (performance.now() - baselineStart < BASELINE_MIN_MS);
  const bare: Row = { label: 'bare loop (min/max)', ticks: ticks.length * passes, fills: undefined, ms: performance.now() - baselineStart };

  // The bare loop is warm after its first passes; one unmeasured replay warms the venue alike.
  replayVenue(ticks, orders);
  const alone = replayVenue(ticks, orders);
  const failures = await checkBalances('venue', alone.accounts, START_BALANCES, alone.updates);
  if (alone.updates.length === 0) failures.push('the replay filled no order');

  const persisted = await replayPersisted(batches, orders);
  failures.push(...persisted.failures);
  if (persisted.fills !== alone.updates.length) {
    failures.push(`the persisted replay made ${persisted.fills} fills, the venue alone ${alone.updates.length}`);
  }

  printTable(
    [
      bare,
      { label: 'PaperVenue.applyTick', ticks: ticks.length, fills: alone.updates.length, ms: alone.ms },
      { label: 'PaperTrading + SqlPaperRepository', ticks: ticks.length, fills: persisted.fills, ms: persisted.ms },
    ],
    rate(bare.ticks, bare.ms),
  );
  const open = (await Promise.all(alone.accounts.map((account) => account.openOrders()))).flat().length;
  console.log(
    `  ${ORDERS - open} orders filled completely, ${open} still open; bare loop: ${passes} passes; venue: after one ` +
      `warm-up replay; persisted: ${persisted.savedBatches} of ${batches.length} batches stored changes in ${persisted.database}; no goal`,
  );
  return { failures };
}

function replayVenue(ticks: readonly MarketTick[], orders: readonly GridOrder[]) {
  const venue = new PaperVenue(PAPER_MARKETS);
  const accounts = Array.from({ length: ACCOUNTS }, (_, i) => venue.openAccount(i + 1, START_BALANCES));
  placeOrders(venue, accounts, orders, ticks[0]!);
  const updates: OrderUpdate[] = [];
  const start = performance.now();
  for (const tick of ticks) updates.push(...venue.applyTick(tick));
  return { accounts, updates, ms: performance.now() - start };
}

async function replayPersisted(batches: readonly MarketTick[][], orders: readonly GridOrder[]) {
  const db = await openTestDatabase();
  try {
    const [user] = await db.query<{ id: number }>(`INSERT INTO users (name) VALUES ('bench') RETURNING id`);
    const ids: number[] = [];
    for (let i = 1; i <= ACCOUNTS; i++) {
      const [row] = await db.query<{ id: number }>(
        `INSERT INTO accounts (user_id, name, market_code) VALUES ($1, $2, 'paper_trading') RETURNING id`,
        [user!.id, `paper ${i}`],
      );
      ids.push(Number(row!.id));
    }
    const venue = new PaperVenue(PAPER_MARKETS);
    const store = new SqlPaperRepository(db);
    const trading = new PaperTrading(venue, store, new ManualFeed());
    for (const id of ids) await trading.openAccount(id, START_BALANCES);
    const accounts = ids.map((id) => venue.openAccount(id, []));
    // Placed on the venue and stored as one batch: placement is not what this benchmark measures.
    placeOrders(venue, accounts, orders, batches[0]![0]!);
    await store.save(venue.drainChanges());
    const updates: OrderUpdate[] = [];
    let savedBatches = 0;
    const start = performance.now();
    for (const batch of batches) {
      const fills = await trading.applyTicks(batch);
      // Only a batch that fills something has changes to write; the others skip the database.
      if (fills.length > 0) savedBatches += 1;
      updates.push(...fills);
    }
    const ms = performance.now() - start;
    const failures = [
      ...(await checkBalances('persisted', accounts, START_BALANCES, updates)),
      ...(await checkStored(db, accounts, updates.length)),
    ];
    return { fills: updates.length, ms, savedBatches, database: db.kind, failures };
  } finally {
    await db.close();
  }
}

function priceRange(ticks: readonly MarketTick[]): { low: Decimal; high: Decimal } {
  let low = ticks[0]!.price;
  let high = low;
  for (const tick of ticks) {
    if (tick.price.lt(low)) low = tick.price;
    else if (tick.price.gt(high)) high = tick.price;
  }
  return { low, high };
}

/**
 * Half the orders are buys spread evenly from the lowest trade to a cent below the first, half
 * sells from a cent above the first to the highest, on the 0.01 grid. Amounts cycle through 9 to
 * 27 lots of 0.00001 BTC: the smallest is worth 5.54 USDT at the lowest price (minimum 5), and
 * the sizes are near the file's median trade of 0.00067 BTC, so many fills are partial.
 */
function orderGrid(first: Decimal, low: Decimal, high: Decimal): GridOrder[] {
  const cents = (price: Decimal) => price.times(100).toNumber();
  const spread = (side: 'buy' | 'sell', from: number, to: number, count: number): GridOrder[] =>
    Array.from({ length: count }, (_, i) => ({
      side,
      price: dec(from + Math.round((i * (to - from)) / (count - 1))).div(100),
      amount: dec(9 + (i % 10) * 2).div(100_000),
    }));
  const buys = spread('buy', cents(low), cents(first) - 1, ORDERS / 2);
  const sells = spread('sell', cents(first) + 1, cents(high), ORDERS / 2);
  return buys.flatMap((buy, i) => [buy, sells[i]!]);
}

function placeOrders(venue: PaperVenue, accounts: PaperAccount[], orders: readonly GridOrder[], first: MarketTick): void {
  // A quote at the first trade's price gives the price band its reference; the empty book fills nothing.
  venue.applyTick({ pair: PAIR, price: first.price, at: first.at });
  orders.forEach((order, i) => {
    const { updates } = accounts[i % accounts.length]!.place({ clientOrderId: `grid-${i}`, pair: PAIR, type: 'limit', ...order });
    if (updates.length > 0) throw new Error(`grid order ${i} (${order.side} at ${order.price.toFixed()}) filled at once`);
  });
}

function rate(count: number, ms: number): number {
  return ms > 0 ? (count * 1000) / ms : 0;
}

function printTable(rows: Row[], bareRate: number): void {
  const header = ['run', 'ticks/s', 'fills/s', 'fills', 'ms', 'ticks/s of bare loop'];
  const lines = rows.map((row) => [
    row.label,
    rate(row.ticks, row.ms).toFixed(0),
    row.fills === undefined ? '-' : rate(row.fills, row.ms).toFixed(0),
    row.fills === undefined ? '-' : String(row.fills),
    row.ms.toFixed(1),
    `${((100 * rate(row.ticks, row.ms)) / bareRate).toPrecision(3)} %`,
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
  for (const line of [header, ...lines]) {
    console.log(`  ${line.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ')}`);
  }
}
