/**
 * Grid bots' profit records: stored by the engine inside the batch that booked them (logged, see
 * below), read by GET /ver1/grid_bots/:id/profits. Amounts stay exact: decimal text in, text out.
 */
import type { GridProfitRecord } from '../domain/grid-bot/grid-output.ts';
import type { GridProfitRow, GridProfitsStore } from '../services/grid-bots.service.ts';
import { type Decimal, dec } from '../shared/decimal.ts';
import type { LoggedRecords } from '../engine/engine-store.ts';
import type { Sql } from './database.ts';

interface ProfitRow {
  grid_line_id: string;
  line_price: string;
  line_side: 'buy' | 'sell' | null;
  line_order_placed: boolean;
  profit: string;
  usd_profit: string | null;
  created_at: Date;
}

/**
 * How the engine stores the `grid_bot` kind's records: logged with the batch's event row of the
 * bot (migration 0084), read through the view `grid_profits`.
 */
export const gridProfitsLogged: LoggedRecords = {
  log: (record) => {
    const { lineId, linePrice, side, orderPlaced, profit, usdProfit, at } = record as GridProfitRecord;
    return [lineId, linePrice.toFixed(), side, orderPlaced, profit.toFixed(), usdProfit?.toFixed() ?? null, at.toISOString()];
  },
  at: (record) => (record as GridProfitRecord).at,
};

export class SqlGridBotsRepository implements GridProfitsStore {
  constructor(private readonly sql: Sql) {}

  /** Newest first; `from` and `to` bound created_at, both inclusive. */
  async profits(botId: number, range: { from?: Date; to?: Date }): Promise<GridProfitRow[]> {
    const rows = await this.sql.query<ProfitRow>(
      `SELECT grid_line_id::text, line_price::text, line_side, line_order_placed, profit::text, usd_profit::text,
         created_at
       FROM grid_profits
       WHERE automation_id = $1 AND ($2::timestamptz IS NULL OR created_at >= $2) AND ($3::timestamptz IS NULL OR created_at <= $3)
       ORDER BY source DESC, id DESC, n DESC`,
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
