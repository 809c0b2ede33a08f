/**
 * Consistency checks for paper exchange benchmarks: after a replay, the accounts' balances must
 * be explained exactly by their starting balances and the fills, and the database must hold what
 * the venue holds in memory. Each returns the problems it found, empty when there are none.
 */
import type { Balance, OrderUpdate } from '../../src/exchanges/exchange.ts';
import type { PaperAccount } from '../../src/exchanges/paper/paper-account.ts';
import { PAPER_MARKETS } from '../../src/exchanges/paper/paper-markets.ts';
import { dec, type Decimal, ZERO } from '../../src/shared/decimal.ts';
import type { Sql } from '../../src/store/database.ts';

type Totals = Map<string, Decimal>;

const add = (totals: Totals, currency: string, amount: Decimal) =>
  totals.set(currency, (totals.get(currency) ?? ZERO).plus(amount));

/**
 * Free plus locked per currency, over all accounts, must have moved by exactly what the fills
 * say: a buy pays amount × price in quote and receives amount − fee in base, a sell the reverse
 * with the fee taken from the quote it receives (resting orders fill at their limit price, so no
 * unused lock is handed back). Nothing may be negative, and what is locked must be exactly what
 * the open orders still need.
 */
export async function checkBalances(
  label: string,
  accounts: readonly PaperAccount[],
  startBalances: readonly Balance[],
  updates: readonly OrderUpdate[],
): Promise<string[]> {
  const failures: string[] = [];
  const expected: Totals = new Map();
  const held: Totals = new Map();
  const locked: Totals = new Map();
  const needed: Totals = new Map();
  for (const balance of startBalances) add(expected, balance.currency, balance.free.plus(balance.locked).times(accounts.length));
  for (const { fill } of updates) {
    if (!fill) return [`${label}: a market event returned an update without a fill`];
    const { base, quote } = currenciesOf(fill.pair);
    const total = fill.amount.times(fill.price);
    if (fill.side === 'buy') {
      add(expected, quote, total.neg());
      add(expected, base, fill.amount.minus(fill.fee));
    } else {
      add(expected, base, fill.amount.neg());
      add(expected, quote, total.minus(fill.fee));
    }
  }
  for (const account of accounts) {
    for (const balance of await account.balances()) {
      if (balance.free.isNegative() || balance.locked.isNegative()) {
        failures.push(`${label}: account ${account.accountId} holds ${balance.free} free, ${balance.locked} locked ${balance.currency}`);
      }
      add(held, balance.currency, balance.free.plus(balance.locked));
      add(locked, balance.currency, balance.locked);
    }
    for (const order of await account.openOrders()) {
      const { base, quote } = currenciesOf(order.pair);
      const remaining = order.amount.minus(order.filled);
      if (order.side === 'buy') add(needed, quote, remaining.times(order.price!));
      else add(needed, base, remaining);
    }
  }
  for (const currency of new Set([...expected.keys(), ...held.keys()])) {
    const [has, should] = [held.get(currency) ?? ZERO, expected.get(currency) ?? ZERO];
    if (!has.eq(should)) failures.push(`${label}: ${currency} totals ${has}, the fills account for ${should}`);
    const [isLocked, isNeeded] = [locked.get(currency) ?? ZERO, needed.get(currency) ?? ZERO];
    if (!isLocked.eq(isNeeded)) failures.push(`${label}: ${isLocked} ${currency} locked, the open orders need ${isNeeded}`);
  }
  return failures;
}

/** Every balance, the number of fills and the number of open orders as stored equal the venue's. */
export async function checkStored(db: Sql, accounts: readonly PaperAccount[], fills: number): Promise<string[]> {
  const failures: string[] = [];
  const rows = await db.query<{ account_id: string | number; currency: string; free: string; locked: string }>(
    'SELECT account_id, currency, free::text, locked::text FROM paper_balances',
  );
  for (const account of accounts) {
    for (const balance of await account.balances()) {
      const row = rows.find((r) => Number(r.account_id) === account.accountId && r.currency === balance.currency);
      if (!row || !dec(row.free).eq(balance.free) || !dec(row.locked).eq(balance.locked)) {
        failures.push(`stored: account ${account.accountId} ${balance.currency} differs from the venue`);
      }
    }
  }
  const [counts] = await db.query<{ fills: number; open: number }>(
    `SELECT (SELECT count(*) FROM paper_fills)::int AS fills,
       (SELECT count(*) FROM paper_orders WHERE status = 'open')::int AS open`,
  );
  const open = (await Promise.all(accounts.map((account) => account.openOrders()))).flat().length;
  if (counts!.fills !== fills) failures.push(`stored: ${counts!.fills} fills, the venue made ${fills}`);
  if (counts!.open !== open) failures.push(`stored: ${counts!.open} open orders, the venue has ${open}`);
  return failures;
}

function currenciesOf(pair: string): { base: string; quote: string } {
  const market = PAPER_MARKETS.find((candidate) => candidate.pair === pair);
  if (!market) throw new Error(`${pair} is not a paper market`);
  return market;
}
