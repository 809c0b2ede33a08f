/**
 * The engine's automations, event logs and order journal in SQL. A batch costs one statement per
 * table however many automations it touches: rows go in as arrays and are expanded with unnest.
 */
import type { EngineOrder, StoredEvent } from '../engine/automation-kind.ts';
import type {
  AutomationFilter,
  BatchGuard,
  EngineBatch,
  EngineStore,
  KindRecords,
  LoggedRecords,
  LoggedTickBatch,
  NewAutomation,
  RecordWriter,
  StoredAutomation,
} from '../engine/engine-store.ts';
import { applyLog, changesText, type PackedChanges } from '../engine/state-changes.ts';
import type { Database } from './database.ts';
import { columns, slices } from './unnest.ts';

interface AutomationRow {
  id: string;
  kind: string;
  user_id: string;
  account_id: string;
  running: boolean;
  state: string;
  changes: string | null;
  /** The changes logged after the snapshot, in order, as one JSON array (migration 0081). */
  logged: string | null;
  created_at: Date;
  updated_at: Date;
  tick_seq: string;
}

interface OrderRow {
  id: string;
  automation_id: string;
  order_key: string;
  client_order_id: string;
  account_id: string;
  pair: string;
  role: string;
  side: 'buy' | 'sell';
  order_type: 'market' | 'limit';
  time_in_force: EngineOrder['timeInForce'];
  price: string | null;
  amount: string;
  filled: string;
  filled_total: string;
  fee: string;
  status: EngineOrder['status'];
  cancel_requested: boolean;
  exchange_order_id: string | null;
  fee_currency: string | null;
  filled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const AUTOMATION_COLUMNS = 'id, kind, user_id, account_id, running, state, changes, NULL::text AS logged, created_at, updated_at, tick_seq';
/** Automations (`a`) as stored: the snapshot's row with the changes logged after it, and their time and tick position. */
const STORED_AUTOMATIONS = `SELECT a.id, a.kind, a.user_id, a.account_id, a.running, a.state, a.changes, l.logged, a.created_at,
    greatest(a.updated_at, l.updated_at) AS updated_at, greatest(a.tick_seq, l.tick_seq) AS tick_seq
  FROM automations a LEFT JOIN LATERAL (
    SELECT '[' || string_agg(e.changes, ',' ORDER BY e.id) || ']' AS logged, max(e.created_at) AS updated_at, max(e.tick_seq) AS tick_seq
    FROM automation_events e WHERE e.automation_id = a.id AND e.id > a.log_after AND e.changes IS NOT NULL
  ) l ON true`;
const ORDER_COLUMNS = `id, automation_id, order_key, client_order_id, account_id, pair, role, side, order_type,
  time_in_force, price::text, amount::text, filled::text, filled_total::text, fee::text, status, cancel_requested,
  exchange_order_id, fee_currency, filled_at, created_at, updated_at`;

export class SqlEngineRepository implements EngineStore {
  private readonly writers = new Map<string, RecordWriter | LoggedRecords>();

  constructor(
    private readonly db: Database,
    private readonly guard?: BatchGuard,
  ) {}

  registerRecordWriter(kind: string, write: RecordWriter | LoggedRecords): void {
    this.writers.set(kind, write);
  }

  async insert(automation: NewAutomation): Promise<StoredAutomation> {
    const [row] = await this.db.query<AutomationRow>(
      `INSERT INTO automations (kind, user_id, account_id, running, state, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING ${AUTOMATION_COLUMNS}`,
      [automation.kind, automation.userId, automation.accountId, automation.running, JSON.stringify(automation.state), automation.at],
    );
    return toAutomation(row!);
  }

  async save(batch: EngineBatch): Promise<void> {
    const rows = batch.automations.length + batch.events.length + batch.orders.length + batch.records.length + (batch.companion?.length ?? 0);
    if (rows === 0 && !batch.ticks && batch.ticksNeededFrom === undefined && !batch.position) return;
    await this.db.transaction(async (tx) => {
      // Every statement of a batch writes or looks up rows by an index, a few hundred at most. The
      // planner, costing pages as if read from disk, hashed the whole journal (a sequential scan of
      // every order ever placed) to update a batch's orders once it held some 10,000 rows: 8 of a
      // batch's 12 ms with 23,000 (docs/architecture.md). Where an index serves, it is used.
      await tx.write('SET LOCAL enable_seqscan = off');
      await batch.position?.(tx);
      await this.guard?.(tx, batch);
      if (batch.orders.length > 0) {
        // Updated where stored and inserted where not: an upsert would lock each stored row before
        // updating it, a WAL record of its own per order.
        await tx.write(
          `WITH c AS (SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::text[],
             $8::text[], $9::text[], $10::text[], $11::numeric[], $12::numeric[], $13::numeric[], $14::numeric[],
             $15::numeric[], $16::text[], $17::boolean[], $18::text[], $19::text[], $20::timestamptz[], $21::timestamptz[],
             $22::timestamptz[])
             AS c (id, automation_id, order_key, client_order_id, account_id, pair, role, side, order_type, time_in_force,
               price, amount, filled, filled_total, fee, status, cancel_requested, exchange_order_id, fee_currency,
               filled_at, created_at, updated_at)),
           updated AS (
             UPDATE engine_orders o SET filled = c.filled, filled_total = c.filled_total, fee = c.fee, status = c.status,
               cancel_requested = c.cancel_requested, exchange_order_id = c.exchange_order_id, fee_currency = c.fee_currency,
               filled_at = c.filled_at, updated_at = c.updated_at
             FROM c WHERE o.automation_id = c.automation_id AND o.order_key = c.order_key RETURNING o.id
           )
           INSERT INTO engine_orders (id, automation_id, order_key, client_order_id, account_id, pair, role, side,
             order_type, time_in_force, price, amount, filled, filled_total, fee, status, cancel_requested,
             exchange_order_id, fee_currency, filled_at, created_at, updated_at)
           SELECT * FROM c WHERE c.id NOT IN (SELECT id FROM updated)`,
          columns(
            batch.orders.map((o) => [
              o.id, o.automationId, o.key, o.clientOrderId, o.accountId, o.pair, o.role, o.side, o.orderType,
              o.timeInForce, o.price, o.amount, o.filled, o.filledTotal, o.fee, o.status, o.cancelRequested,
              o.exchangeOrderId ?? null, o.feeCurrency ?? null, o.filledAt ?? null, o.createdAt, o.updatedAt,
            ]),
            22,
          ),
        );
      }
      const logged = logRows(batch, (kind) => {
        const writer = this.writers.get(kind);
        return writer && typeof writer !== 'function' ? writer : undefined;
      });
      const balances = loggedBalances(batch, logged);
      if (logged.length > 0) {
        const messages = slices(logged.map((row) => row.messages));
        await tx.write(
          `INSERT INTO automation_events (automation_id, messages, created_at, changes, tick_seq, records, balances)
           SELECT e.automation_id, CASE WHEN e.last >= e.first THEN ($9::text[])[e.first:e.last] END, e.created_at, e.changes,
             e.tick_seq, e.records, e.balances
           FROM unnest($1::bigint[], $2::int[], $3::int[], $4::timestamptz[], $5::text[], $6::bigint[], $7::text[], $8::text[])
             AS e (automation_id, first, last, created_at, changes, tick_seq, records, balances)`,
          [
            ...columns(
              logged.map((row, index) => [
                row.automationId, ...messages.bounds[index]!, row.at, row.changes, row.tickSeq, row.records, balances.rows[index] ?? null,
              ]),
              8,
            ),
            messages.all,
          ],
        );
      }
      const flags = batch.automations.filter((a) => a.changes !== undefined && a.setsRunning);
      if (flags.length > 0) {
        await tx.write(
          'UPDATE automations a SET running = c.running FROM unnest($1::bigint[], $2::boolean[]) AS c (id, running) WHERE a.id = c.id',
          columns(flags.map((a) => [a.id, a.running]), 2),
        );
      }
      const snapshots = batch.automations.filter((a) => a.changes === undefined);
      if (snapshots.length > 0) {
        // A new snapshot includes every change logged before it, this batch's rows included.
        await tx.write(
          `UPDATE automations a SET running = c.running, state = c.state, changes = NULL, updated_at = c.updated_at,
             tick_seq = coalesce(c.tick_seq, a.tick_seq),
             log_after = coalesce((SELECT max(e.id) FROM automation_events e WHERE e.automation_id = a.id), 0)
           FROM unnest($1::bigint[], $2::boolean[], $3::text[], $4::timestamptz[], $5::bigint[])
             AS c (id, running, state, updated_at, tick_seq)
           WHERE a.id = c.id`,
          columns(
            snapshots.map((a) => [
              a.id,
              a.running,
              JSON.stringify(a.encode ? a.encode() : a.state),
              a.updatedAt,
              a.tickSeq ?? null,
            ]),
            5,
          ),
        );
      }
      for (const write of batch.companion ?? []) await write(tx, balances.accounts);
      if (batch.ticks) {
        const { seq, at, ticks, ids } = batch.ticks;
        await tx.write('INSERT INTO engine_ticks (seq, at, ticks, ids) VALUES ($1, $2, $3, $4)', [seq, at, JSON.stringify(ticks), JSON.stringify(ids)]);
      }
      if (batch.ticksNeededFrom !== undefined) await tx.write('DELETE FROM engine_ticks WHERE seq < $1', [batch.ticksNeededFrom]);
      const byKind = new Map<string, KindRecords>();
      for (const { kind, automationId, records } of batch.records) {
        let entries = byKind.get(kind);
        if (!entries) byKind.set(kind, (entries = []));
        entries.push({ automationId, records });
      }
      for (const [kind, entries] of byKind) {
        const writer = this.writers.get(kind);
        if (!writer) throw new Error(`No record writer for ${kind}`);
        const write = typeof writer === 'function' ? writer : writer.write;
        if (write) await write(tx, entries);
      }
    });
  }

  async loadRunning(accountIds?: readonly number[]): Promise<{ automations: StoredAutomation[]; liveOrders: EngineOrder[] }> {
    const only = accountIds === undefined ? null : [...accountIds];
    const automations = await this.db.query<AutomationRow>(
      `${STORED_AUTOMATIONS} WHERE a.running AND ($1::bigint[] IS NULL OR a.account_id = ANY($1)) ORDER BY a.id`,
      [only],
    );
    // Through the accounts' automations: the journal has no index by account, and a takeover's
    // first accounts (a few dozen) were found by reading every live order (45 ms against 3 ms with
    // a thousand grid bots' 180,000 orders, ten times that on a busy server).
    const orders = await this.db.query<OrderRow>(
      `SELECT ${ORDER_COLUMNS} FROM engine_orders o
       WHERE live AND o.automation_id IN (SELECT a.id FROM automations a WHERE a.running AND ($1::bigint[] IS NULL OR a.account_id = ANY($1)))
       ORDER BY id`,
      [only],
    );
    return { automations: automations.map(toAutomation), liveOrders: orders.map(toOrder) };
  }

  async loggedTicks(afterSeq: number): Promise<LoggedTickBatch[]> {
    const rows = await this.db.query<{ seq: string; at: Date; ticks: string; ids: string }>(
      'SELECT seq, at, ticks, ids FROM engine_ticks WHERE seq > $1 ORDER BY seq',
      [afterSeq],
    );
    return rows.map((row) => ({ seq: Number(row.seq), at: row.at, ticks: JSON.parse(row.ticks), ids: JSON.parse(row.ids) }));
  }

  async get(kind: string, id: number): Promise<StoredAutomation | undefined> {
    const [row] = await this.db.query<AutomationRow>(
      `${STORED_AUTOMATIONS} WHERE a.id = $1 AND a.kind = $2`,
      [id, kind],
    );
    return row && toAutomation(row);
  }

  async list(kind: string, filter: AutomationFilter): Promise<StoredAutomation[]> {
    const rows = await this.db.query<AutomationRow>(
      `${STORED_AUTOMATIONS}
       WHERE a.kind = $1 AND ($2::bigint IS NULL OR a.user_id = $2) AND ($3::bigint IS NULL OR a.account_id = $3)
       ORDER BY a.id`,
      [kind, filter.userId ?? null, filter.accountId ?? null],
    );
    return rows.map(toAutomation);
  }

  async remove(id: number): Promise<void> {
    await this.db.query('DELETE FROM automations WHERE id = $1', [id]);
  }

  async orders(automationId: number): Promise<EngineOrder[]> {
    const rows = await this.db.query<OrderRow>(
      `SELECT ${ORDER_COLUMNS} FROM engine_orders WHERE automation_id = $1 ORDER BY id`,
      [automationId],
    );
    return rows.map(toOrder);
  }

  async events(automationId: number, page: { limit: number; offset: number }): Promise<StoredEvent[]> {
    const rows = await this.db.query<{ message: string; created_at: Date }>(
      `SELECT m.message, e.created_at FROM automation_events e, unnest(e.messages) WITH ORDINALITY AS m (message, n)
       WHERE e.automation_id = $1 ORDER BY e.id, m.n LIMIT $2 OFFSET $3`,
      [automationId, page.limit, page.offset],
    );
    return rows.map((row) => ({ message: row.message, createdAt: row.created_at }));
  }

  async reserveIds(count: number): Promise<number[]> {
    const rows = await this.db.query<{ id: string }>(
      "SELECT nextval('engine_ids') AS id FROM generate_series(1, $1)",
      [count],
    );
    return rows.map((row) => Number(row.id));
  }
}

/**
 * The companion's balances of each account, logged with the first of the batch's event rows of
 * an automation of that account (`rows`, by the index of the row): those accounts (`accounts`)
 * get no balances row in this batch. A later write of the companion has the newer balances.
 */
function loggedBalances(batch: EngineBatch, logged: readonly LogRow[]): { rows: Array<string | undefined>; accounts: ReadonlySet<number> } {
  const rows: Array<string | undefined> = [];
  const accounts = new Set<number>();
  const latest = new Map<number, string>();
  for (const write of batch.companion ?? []) for (const [accountId, text] of write.balances?.() ?? []) latest.set(accountId, text);
  if (latest.size === 0) return { rows, accounts };
  const accountOf = new Map(batch.automations.map((change) => [change.id, change.accountId]));
  logged.forEach((row, index) => {
    const accountId = accountOf.get(row.automationId);
    if (accountId === undefined || accounts.has(accountId)) return;
    const text = latest.get(accountId);
    if (text === undefined) return;
    rows[index] = text;
    accounts.add(accountId);
  });
  return { rows, accounts };
}

interface LogRow {
  automationId: number;
  at: Date;
  messages: string[];
  changes: string | null;
  tickSeq: number | null;
  records: string | null;
}

/**
 * The events of one automation at one time, in the order logged, become one row; the changes of
 * an automation's state stored as changes go into the row of its time (`updatedAt`), and so do
 * its logged records (`loggerOf` the kind's), each a row of its own when nothing else was logged
 * at that time.
 */
export function logRows(
  batch: Pick<EngineBatch, 'events' | 'automations' | 'records'>,
  loggerOf: (kind: string) => LoggedRecords | undefined = () => undefined,
): LogRow[] {
  const rows = new Map<string, LogRow>();
  const rowOf = (automationId: number, at: Date) => {
    const key = `${automationId} ${at.getTime()}`;
    let row = rows.get(key);
    if (!row) rows.set(key, (row = { automationId, at, messages: [], changes: null, tickSeq: null, records: null }));
    return row;
  };
  for (const event of batch.events) rowOf(event.automationId, event.at).messages.push(event.message);
  const changedAt = new Map<number, Date>();
  for (const change of batch.automations) {
    changedAt.set(change.id, change.updatedAt);
    if (change.changes === undefined) continue;
    const row = rowOf(change.id, change.updatedAt);
    row.changes = changesText(change.changes);
    row.tickSeq = change.tickSeq ?? null;
  }
  for (const { kind, automationId, records } of batch.records) {
    const logger = loggerOf(kind);
    if (!logger || records.length === 0) continue;
    const row = rowOf(automationId, changedAt.get(automationId) ?? logger.at(records[records.length - 1]));
    row.records = JSON.stringify(records.map((record) => logger.log(record)));
  }
  return [...rows.values()];
}

function toAutomation(row: AutomationRow): StoredAutomation {
  return {
    id: Number(row.id),
    kind: row.kind,
    userId: Number(row.user_id),
    accountId: Number(row.account_id),
    running: row.running,
    state: applyLog(
      JSON.parse(row.state),
      row.changes === null ? null : JSON.parse(row.changes),
      // One text parsed at once: as a text array, each element's quotes came escaped.
      row.logged === null ? [] : (JSON.parse(row.logged) as PackedChanges[]),
    ),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    tickSeq: Number(row.tick_seq),
    storedSize: { snapshot: row.state.length, logged: (row.changes?.length ?? 0) + (row.logged?.length ?? 0) },
  };
}

function toOrder(row: OrderRow): EngineOrder {
  return {
    id: Number(row.id),
    automationId: Number(row.automation_id),
    key: row.order_key,
    clientOrderId: row.client_order_id,
    accountId: Number(row.account_id),
    pair: row.pair,
    role: row.role,
    side: row.side,
    orderType: row.order_type,
    timeInForce: row.time_in_force,
    price: row.price,
    amount: row.amount,
    filled: row.filled,
    filledTotal: row.filled_total,
    fee: row.fee,
    status: row.status,
    cancelRequested: row.cancel_requested,
    exchangeOrderId: row.exchange_order_id,
    feeCurrency: row.fee_currency,
    filledAt: row.filled_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
