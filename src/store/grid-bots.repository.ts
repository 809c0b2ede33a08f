/**
 * Grid bots' profit rows: written by the engine inside the batch that booked them (the record
 * writer below), read by GET /ver1/grid_bots/:id/profits. Amounts stay exact: numeric in, text out.
 */
import type { GridProfitRecord } from '../domain/grid-bot/grid-output.ts';
import type { GridProfitRow, GridProfitsStore } from '../services/grid-bots.service.ts';
import { type Decimal, dec } from '../shared/decimal.ts';
import type { KindRecords } from '../engine/engine-store.ts';
import type { Sql } from './database.ts';
import { columns } from './unnest.ts';

interface ProfitRow {
  grid_line_id: string;
  line_price: string;
  line_side: 'buy' | 'sell' | null;
  line_order_placed: boolean;
  profit: string;
  usd_profit: string | null;
  created_at: Date;
}

/** The engine's record writer for the `grid_bot` kind: one statement per batch. */
export async function writeGridProfits(sql: Sql, batch: KindRecords): Promise<void> {
  const rows = batch.flatMap(({ automationId, records }) => (records as GridProfitRecord[]).map((record) => [
    automationId,
    record.lineId,
    record.linePrice.toFixed(),
    record.side,
    record.orderPlaced,
    record.profit.toFixed(),
    record.usdProfit?.toFixed() ?? null,
    record.at,
  ]));
  if (rows.length === 0) return;
  await sql.write(
    `INSERT INTO grid_bot_profits (automation_id, grid_line_id, line_price, line_side, line_order_placed, profit,
       usd_profit, created_at)
     SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::numeric[], $4::text[], $5::boolean[], $6::numeric[],
       $7::numeric[], $8::timestamptz[])`,
    columns(rows, 8),
  );
}

export class SqlGridBotsRepository implements GridProfitsStore {
  constructor(private readonly sql: Sql) {}

  /** Newest first; `from` and `to` bound created_at, both inclusive. */
  async profits(botId: number, range: { from?: Date; to?: Date }): Promise<GridProfitRow[]> {
    const rows = await this.sql.query<ProfitRow>(
      `SELECT grid_line_id::text, line_price::text, line_side, line_order_placed, profit::text, usd_profit::text,
         created_at
       FROM grid_bot_profits
       WHERE automation_id = $1 AND ($2::timestamptz IS NULL OR created_at >= $2) AND ($3::timestamptz IS NULL OR created_at <= $3)
       ORDER BY id DESC`,
      [botId, range.from ?? null, range.to ?? null],
    );
    return rows.map((row) => ({
      lineId: Number(row.grid_line_id),
      linePrice: row.line_price,
      side: row.line_side,
      orderPlaced: row.line_order_placed,
      profit: row.profit,
      usdProfit: row.usd_profit,
      createdAt: row.created_at,
    }));
  }

  /** A paper account's taker fee when it has its own (POST /ext/paper/fees); undefined otherwise. */
  async paperTakerFee(accountId: number): Promise<Decimal | undefined> {
    const [row] = await this.sql.query<{ taker: string }>('SELECT taker::text FROM paper_fees WHERE account_id = $1', [accountId]);
    return row && dec(row.taker);
  }
}
