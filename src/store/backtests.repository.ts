/** Backtest jobs in SQL: the request and result as JSON text, progress and status as columns. */
import type { BacktestEnd, BacktestStore, StoredBacktest } from '../backtest/backtest-store.ts';
import type { Sql } from './database.ts';

interface Row {
  id: string | number;
  user_id: string | number;
  status: StoredBacktest['status'];
  progress: number;
  request: string;
  result?: string | null;
  error: string | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

const COLUMNS = 'id, user_id, status, progress, request, error, created_at, updated_at, finished_at';

export class SqlBacktestsRepository implements BacktestStore {
  constructor(private readonly sql: Sql) {}

  async insert(userId: number, request: StoredBacktest['request'], at: Date): Promise<StoredBacktest> {
    const [row] = await this.sql.query<Row>(
      `INSERT INTO backtests (user_id, status, request, created_at, updated_at) VALUES ($1, 'running', $2, $3, $3)
       RETURNING ${COLUMNS}`,
      [userId, JSON.stringify(request), at],
    );
    return toStored(row!);
  }

  async setProgress(id: number, progress: number, at: Date): Promise<void> {
    await this.sql.query(`UPDATE backtests SET progress = $2, updated_at = $3 WHERE id = $1 AND status = 'running'`, [id, progress, at]);
  }

  async end(id: number, end: BacktestEnd, at: Date): Promise<boolean> {
    const rows = await this.sql.query(
      `UPDATE backtests SET status = $2, progress = CASE WHEN $2 = 'finished' THEN 100 ELSE progress END, result = $3, error = $4,
         updated_at = $5, finished_at = $5
       WHERE id = $1 AND status = 'running' RETURNING id`,
      [
        id,
        end.status,
        end.status === 'finished' ? JSON.stringify(end.result) : null,
        end.status === 'failed' ? JSON.stringify(end.error) : null,
        at,
      ],
    );
    return rows.length > 0;
  }

  async get(id: number): Promise<StoredBacktest | undefined> {
    const [row] = await this.sql.query<Row>(`SELECT ${COLUMNS}, result FROM backtests WHERE id = $1`, [id]);
    return row && toStored(row);
  }

  async list(userId: number): Promise<StoredBacktest[]> {
    const rows = await this.sql.query<Row>(`SELECT ${COLUMNS} FROM backtests WHERE user_id = $1 ORDER BY id DESC`, [userId]);
    return rows.map(toStored);
  }

  async running(): Promise<StoredBacktest[]> {
    const rows = await this.sql.query<Row>(`SELECT ${COLUMNS} FROM backtests WHERE status = 'running' ORDER BY id`);
    return rows.map(toStored);
  }

  async remove(id: number): Promise<void> {
    await this.sql.query('DELETE FROM backtests WHERE id = $1', [id]);
  }
}

function toStored(row: Row): StoredBacktest {
  return {
    id: Number(row.id),
    userId: Number(row.user_id),
    status: row.status,
    progress: row.progress,
    request: JSON.parse(row.request),
    ...(row.result ? { result: JSON.parse(row.result) } : {}),
    error: row.error === null ? null : JSON.parse(row.error),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
  };
}
