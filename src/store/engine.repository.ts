/**
 * The engine's automations, event logs and order journal in SQL. A batch costs one statement per
 * table however many automations it touches: rows go in as arrays and are expanded with unnest.
 */
import type { EngineOrder, StoredEvent } from '../engine/automation-kind.ts';
import type {
  AutomationFilter,
  EngineBatch,
  EngineStore,
  KindRecords,
  NewAutomation,
  RecordWriter,
  StoredAutomation,
} from '../engine/engine-store.ts';
import type { Database } from './database.ts';
import { columns } from './unnest.ts';

interface AutomationRow {
  id: string;
  kind: string;
  user_id: string;
  account_id: string;
  running: boolean;
  state: string;
  created_at: Date;
  updated_at: Date;
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
  created_at: Date;
  updated_at: Date;
}

const AUTOMATION_COLUMNS = 'id, kind, user_id, account_id, running, state, created_at, updated_at';
const ORDER_COLUMNS = `id, automation_id, order_key, client_order_id, account_id, pair, role, side, order_type,
  time_in_force, price::text, amount::text, filled::text, filled_total::text, fee::text, status, cancel_requested, created_at, updated_at`;

export class SqlEngineRepository implements EngineStore {
  private readonly writers = new Map<string, RecordWriter>();

  constructor(private readonly db: Database) {}

  registerRecordWriter(kind: string, write: RecordWriter): void {
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
    const empty = batch.automations.length + batch.events.length + batch.orders.length + batch.records.length === 0;
    if (empty) return;
    await this.db.transaction(async (tx) => {
      if (batch.automations.length > 0) {
        await tx.query(
          `UPDATE automations a SET running = c.running, state = c.state, updated_at = c.updated_at
           FROM unnest($1::bigint[], $2::boolean[], $3::text[], $4::timestamptz[]) AS c (id, running, state, updated_at)
           WHERE a.id = c.id`,
          columns(
            batch.automations.map((a) => [a.id, a.running, JSON.stringify(a.state), a.updatedAt]),
            4,
          ),
        );
      }
      if (batch.orders.length > 0) {
        await tx.query(
          `INSERT INTO engine_orders (id, automation_id, order_key, client_order_id, account_id, pair, role, side,
             order_type, time_in_force, price, amount, filled, filled_total, fee, status, cancel_requested, created_at,
             updated_at)
           SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::text[],
             $8::text[], $9::text[], $10::text[], $11::numeric[], $12::numeric[], $13::numeric[], $14::numeric[],
             $15::numeric[], $16::text[], $17::boolean[], $18::timestamptz[], $19::timestamptz[])
           ON CONFLICT (id) DO UPDATE SET filled = EXCLUDED.filled, filled_total = EXCLUDED.filled_total,
             fee = EXCLUDED.fee, status = EXCLUDED.status, cancel_requested = EXCLUDED.cancel_requested,
             updated_at = EXCLUDED.updated_at`,
          columns(
            batch.orders.map((o) => [
              o.id, o.automationId, o.key, o.clientOrderId, o.accountId, o.pair, o.role, o.side, o.orderType,
              o.timeInForce, o.price, o.amount, o.filled, o.filledTotal, o.fee, o.status, o.cancelRequested, o.createdAt, o.updatedAt,
            ]),
            19,
          ),
        );
      }
      if (batch.events.length > 0) {
        await tx.query(
          `INSERT INTO automation_events (automation_id, message, created_at)
           SELECT * FROM unnest($1::bigint[], $2::text[], $3::timestamptz[])`,
          columns(batch.events.map((e) => [e.automationId, e.message, e.at]), 3),
        );
      }
      const byKind = new Map<string, KindRecords>();
      for (const { kind, automationId, records } of batch.records) {
        let entries = byKind.get(kind);
        if (!entries) byKind.set(kind, (entries = []));
        entries.push({ automationId, records });
      }
      for (const [kind, entries] of byKind) {
        const write = this.writers.get(kind);
        if (!write) throw new Error(`No record writer for ${kind}`);
        await write(tx, entries);
      }
    });
  }

  async loadRunning(): Promise<{ automations: StoredAutomation[]; liveOrders: EngineOrder[] }> {
    const automations = await this.db.query<AutomationRow>(
      `SELECT ${AUTOMATION_COLUMNS} FROM automations WHERE running ORDER BY id`,
    );
    const orders = await this.db.query<OrderRow>(
      `SELECT ${ORDER_COLUMNS} FROM engine_orders o
       WHERE status IN ('pending', 'open') AND EXISTS (SELECT 1 FROM automations a WHERE a.id = o.automation_id AND a.running)
       ORDER BY id`,
    );
    return { automations: automations.map(toAutomation), liveOrders: orders.map(toOrder) };
  }

  async get(kind: string, id: number): Promise<StoredAutomation | undefined> {
    const [row] = await this.db.query<AutomationRow>(
      `SELECT ${AUTOMATION_COLUMNS} FROM automations WHERE id = $1 AND kind = $2`,
      [id, kind],
    );
    return row && toAutomation(row);
  }

  async list(kind: string, filter: AutomationFilter): Promise<StoredAutomation[]> {
    const rows = await this.db.query<AutomationRow>(
      `SELECT ${AUTOMATION_COLUMNS} FROM automations
       WHERE kind = $1 AND ($2::bigint IS NULL OR user_id = $2) AND ($3::bigint IS NULL OR account_id = $3)
       ORDER BY id`,
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
      `SELECT message, created_at FROM automation_events WHERE automation_id = $1 ORDER BY id LIMIT $2 OFFSET $3`,
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


function toAutomation(row: AutomationRow): StoredAutomation {
  return {
    id: Number(row.id),
    kind: row.kind,
    userId: Number(row.user_id),
    accountId: Number(row.account_id),
    running: row.running,
    state: JSON.parse(row.state),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
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
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
