import type { Database } from './database.ts';

/** Where the paper market's replay stopped, per period (market-data's ReplayPositionStore). */
export class SqlReplayPositions {
  constructor(private readonly db: Database) {}

  async load(period: string): Promise<Date | undefined> {
    const [row] = await this.db.query<{ position: Date }>('SELECT position FROM paper_replay_positions WHERE period = $1', [period]);
    return row?.position;
  }

  async save(period: string, position: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO paper_replay_positions (period, position) VALUES ($1, $2)
       ON CONFLICT (period) DO UPDATE SET position = excluded.position, updated_at = now()`,
      [period, position],
    );
  }
}
