/**
 * The paper exchange's state in SQL. Each batch is written with one statement per table, rows
 * passed as arrays and expanded with unnest, so a tick that fills a thousand orders still costs
 * three statements.
 */
import type { ExchangeOrder } from '../exchanges/exchange.ts';
import {
  balancesText,
  type PaperChanges,
  type PaperFees,
  type PaperStateStore,
  type PaperWrite,
  type StoredPaperAccount,
  type StoredPaperState,
} from '../exchanges/paper-state.ts';
import { dec } from '../shared/decimal.ts';
import type { Database, Sql } from './database.ts';
import { columns } from './unnest.ts';

interface OrderRow {
  id: string;
  account_id: number;
  client_order_id: string;
  pair: string;
  side: 'buy' | 'sell';
  type: 'market' | 'limit';
  price: string | null;
  amount: string;
  filled: string;
  filled_total: string;
  fee: string;
  fee_currency: string;
  status: ExchangeOrder['status'];
  created_at: Date;
  updated_at: Date;
  /** The order's record is the engine's journal row. */
  journaled: boolean;
}

const ORDER_COLUMNS = `o.id, o.account_id, o.client_order_id, o.pair, o.side, o.type, o.price::text, o.amount::text,
  o.filled::text, o.filled_total::text, o.fee::text, o.fee_currency, o.status, o.created_at, o.updated_at, false AS journaled`;

/**
 * A journal row (`engine_orders o`) in the shape of a paper order row: for a paper account, the
 * engine's orders placed while it stored the paper exchange's changes have their journal row as
 * their only record (a paper order's id is P<sequence>). Orders the paper exchange stored itself
 * are its own rows. The statements take the accounts as known paper accounts rather than joining
 * `accounts`: a planner that had not yet seen the journal grow (a thousand bots just created)
 * compared every journal row with every account, 18 s to load a thousand accounts.
 */
const journaledOrders = (where: string) => `SELECT o.exchange_order_id AS id, o.account_id, o.client_order_id, o.pair, o.side,
    o.order_type AS type, o.price::text, o.amount::text, o.filled::text, o.filled_total::text, o.fee::text, o.fee_currency,
    o.status, o.created_at, o.updated_at, true AS journaled
  FROM engine_orders o
  WHERE ${where} AND o.live AND o.exchange_order_id IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM paper_orders p WHERE p.account_id = o.account_id AND p.client_order_id = o.client_order_id)`;

/**
 * The lease check of paper writes when several engines share the database (leases.repository.ts):
 * answers, of `accountIds`, those this engine may not write under the rule of `write`.
 */
export type PaperFence = (tx: Sql, accountIds: number[], write: PaperWrite) => Promise<number[]>;

/** Order ids are reserved a block at a time when several venues share the database. */
const ID_BLOCK = 1_000_000;

export class SqlPaperRepository implements PaperStateStore {
  constructor(
    private readonly db: Database,
    private readonly fence?: PaperFence,
  ) {}

  async save(changes: PaperChanges, write: PaperWrite = 'held'): Promise<readonly number[]> {
    if (changes.balances.length + changes.orders.length + changes.fills.length === 0) return [];
    return this.db.transaction((tx) => this.writeIn(tx, changes, write === 'free' ? new Set(accountsOf(changes)) : undefined));
  }

  async writeIn(tx: Sql, changes: PaperChanges, opened?: ReadonlySet<number>, logged?: ReadonlySet<number>): Promise<readonly number[]> {
    let refused: number[] = [];
    if (this.fence) {
      const accountIds = accountsOf(changes);
      const free = accountIds.filter((accountId) => opened?.has(accountId));
      const held = accountIds.filter((accountId) => !opened?.has(accountId));
      refused = [
        ...(held.length > 0 ? await this.fence(tx, held, 'held') : []),
        ...(free.length > 0 ? await this.fence(tx, free, 'free') : []),
      ];
      if (refused.length > 0) {
        const kept = (change: { accountId: number }) => !refused.includes(change.accountId);
        changes = { balances: changes.balances.filter(kept), orders: changes.orders.filter(kept), fills: changes.fills.filter(kept) };
      }
    }
    await this.write(tx, logged?.size ? { ...changes, balances: changes.balances.filter((change) => !logged.has(change.accountId)) } : changes);
    return refused;
  }

  async reserveIds(): Promise<{ from: number; to: number }> {
    const [row] = await this.db.query<{ next: number }>(
      `UPDATE paper_order_ids SET next = greatest(next, (SELECT coalesce(max(sequence), 0) + 1 FROM paper_orders)) + $1
       RETURNING next - $1 AS next`,
      [ID_BLOCK],
    );
    const from = Number(row!.next);
    return { from, to: from + ID_BLOCK - 1 };
  }

  async loadAccount(accountId: number): Promise<StoredPaperAccount | undefined> {
    return (await this.loadAccounts([accountId]))[0];
  }

  /** The stored paper accounts among these (those holding nothing are left out), in four reads for all. */
  async loadAccounts(accountIds: readonly number[]): Promise<StoredPaperAccount[]> {
    // The paper accounts among them first, so that the journal is filtered by them (journaledOrders),
    // through their automations: the journal has no index by account (engine.repository.ts, loadRunning).
    const ids = (
      await this.db.query<{ id: number }>("SELECT id FROM accounts WHERE id = ANY($1::bigint[]) AND market_code = 'paper_trading'", [[...accountIds]])
    ).map((row) => Number(row.id));
    const balances = await this.db.query<{ account_id: number; currency: string; free: string; locked: string }>(
      'SELECT account_id, currency, free::text, locked::text FROM paper_balances WHERE account_id = ANY($1::bigint[]) ORDER BY account_id, currency',
      [ids],
    );
    const orders = await this.db.query<OrderRow & { account_id: number }>(
      `SELECT ${ORDER_COLUMNS} FROM paper_orders o WHERE o.account_id = ANY($1::bigint[]) AND o.status = 'open'
       UNION ALL ${journaledOrders("o.automation_id IN (SELECT a.id FROM automations a WHERE a.account_id = ANY($1::bigint[])) AND o.status = 'open'")}`,
      [ids],
    );
    orders.sort(bySequence);
    const fees = await this.db.query<{ account_id: number; maker: string; taker: string }>(
      'SELECT account_id, maker::text, taker::text FROM paper_fees WHERE account_id = ANY($1::bigint[])',
      [ids],
    );
    const accounts = new Map<number, StoredPaperAccount & { journaled: string[] }>();
    const entry = (accountId: number) => {
      let found = accounts.get(accountId);
      if (!found) accounts.set(accountId, (found = { accountId, balances: [], openOrders: [], journaled: [] }));
      return found;
    };
    for (const b of balances) entry(Number(b.account_id)).balances.push({ currency: b.currency, free: dec(b.free), locked: dec(b.locked) });
    for (const row of orders) {
      const account = entry(Number(row.account_id));
      account.openOrders.push(toOrder(row));
      if (row.journaled) account.journaled.push(row.id);
    }
    for (const row of fees) {
      const account = accounts.get(Number(row.account_id));
      if (account) account.fees = { maker: dec(row.maker), taker: dec(row.taker) };
    }
    return [...accounts.values()];
  }

  private async write(tx: Sql, changes: PaperChanges): Promise<void> {
    if (changes.balances.length > 0) {
      const rows = changes.balances.map(({ accountId, balances }) => [accountId, balancesText(balances)]);
      // Updated where stored and inserted where not: an upsert would lock each row before
      // updating it, a WAL record of its own. The row is newer than every event row that logged
      // the account's balances before it (migration 0088).
      await tx.write(
        `WITH c AS (SELECT * FROM unnest($1::bigint[], $2::text[]) AS c (account_id, balances)),
         after AS (SELECT nextval(pg_get_serial_sequence('automation_events', 'id')) AS id),
         updated AS (
           UPDATE paper_account_balances b SET balances = c.balances, logged_after = after.id FROM c, after
           WHERE b.account_id = c.account_id
         )
         INSERT INTO paper_account_balances (account_id, balances, logged_after)
         SELECT c.account_id, c.balances, after.id FROM c, after
         WHERE NOT EXISTS (SELECT 1 FROM paper_account_balances b WHERE b.account_id = c.account_id)`,
        columns(rows, 2),
      );
    }
    const orders = changes.orders.filter((change) => !change.journaled);
    if (orders.length > 0) {
      const rows = orders.map(({ accountId, order }) => [
        order.id, Number(order.id.slice(1)), accountId, order.clientOrderId, order.pair, order.side, order.type,
        order.price?.toFixed() ?? null, order.amount.toFixed(), order.filled.toFixed(), order.filledTotal.toFixed(),
        order.fee.toFixed(), order.feeCurrency, order.status, order.createdAt.toISOString(), order.updatedAt.toISOString(),
      ] as const);
      await tx.write(
        `WITH c AS (SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::text[],
           $7::text[], $8::numeric[], $9::numeric[], $10::numeric[], $11::numeric[], $12::numeric[],
           $13::text[], $14::text[], $15::timestamptz[], $16::timestamptz[])
           AS c (id, sequence, account_id, client_order_id, pair, side, type, price, amount, filled, filled_total, fee,
             fee_currency, status, created_at, updated_at)),
         updated AS (
           UPDATE paper_orders o SET filled = c.filled, filled_total = c.filled_total, fee = c.fee, status = c.status,
             updated_at = c.updated_at
           FROM c WHERE o.sequence = c.sequence RETURNING o.id
         )
         INSERT INTO paper_orders (id, sequence, account_id, client_order_id, pair, side, type, price, amount,
           filled, filled_total, fee, fee_currency, status, created_at, updated_at)
         SELECT * FROM c WHERE c.id NOT IN (SELECT id FROM updated)`,
        columns(rows, 16),
      );
    }
    const fills = changes.fills.filter((change) => !change.journaled);
    if (fills.length > 0) {
      const rows = fills.map(({ accountId, fill }) => [
        fill.orderId, accountId, fill.pair, fill.side, fill.price.toFixed(), fill.amount.toFixed(),
        fill.fee.toFixed(), fill.feeCurrency, fill.maker, fill.at.toISOString(),
      ] as const);
      await tx.write(
        `INSERT INTO paper_fills (order_id, account_id, pair, side, price, amount, fee, fee_currency, maker, at)
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::numeric[], $6::numeric[],
           $7::numeric[], $8::text[], $9::boolean[], $10::timestamptz[])`,
        columns(rows, 10),
      );
    }
  }

  async saveFees(accountId: number, fees: PaperFees): Promise<void> {
    await this.db.query(
      `INSERT INTO paper_fees (account_id, maker, taker) VALUES ($1, $2, $3)
       ON CONFLICT (account_id) DO UPDATE SET maker = EXCLUDED.maker, taker = EXCLUDED.taker`,
      [accountId, fees.maker.toFixed(), fees.taker.toFixed()],
    );
  }

  /**
   * An order by client id. Of the engine's orders only those still open are looked up (through the
   * live-order index): an ended one is its journal row, which the engine reads itself.
   */
  async findOrder(accountId: number, clientOrderId: string): Promise<ExchangeOrder | undefined> {
    const [row] = await this.db.query<OrderRow>(
      `SELECT ${ORDER_COLUMNS} FROM paper_orders o WHERE o.account_id = $1 AND o.client_order_id = $2
       UNION ALL ${journaledOrders('o.account_id = $1 AND o.client_order_id = $2')}`,
      [accountId, clientOrderId],
    );
    return row && toOrder(row);
  }

  /** Every paper account not deleted, read as `loadAccounts` reads them, and the highest sequence of all orders. */
  async load(): Promise<StoredPaperState> {
    const rows = await this.db.query<{ id: number }>("SELECT id FROM accounts WHERE market_code = 'paper_trading' AND deleted_at IS NULL");
    const accounts = await this.loadAccounts(rows.map((row) => Number(row.id)));
    const [sequence] = await this.db.query<{ last: number | null }>('SELECT max(sequence) AS last FROM paper_orders');
    return { accounts, lastSequence: sequence?.last ?? 0 };
  }
}


/** Paper orders in the order they were placed: their ids are P<sequence>. */
const bySequence = (a: OrderRow, b: OrderRow) => Number(a.id.slice(1)) - Number(b.id.slice(1));

function toOrder(row: OrderRow): ExchangeOrder {
  return {
    id: row.id,
    clientOrderId: row.client_order_id,
    pair: row.pair,
    side: row.side,
    type: row.type,
    price: row.price === null ? null : dec(row.price),
    amount: dec(row.amount),
    filled: dec(row.filled),
    filledTotal: dec(row.filled_total),
    fee: dec(row.fee),
    feeCurrency: row.fee_currency,
    status: row.status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function accountsOf(changes: PaperChanges): number[] {
  return [...new Set([...changes.balances, ...changes.orders, ...changes.fills].map((change) => change.accountId))];
}
