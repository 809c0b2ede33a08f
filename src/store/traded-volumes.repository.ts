import type { PairVolume, TradedVolumes } from '../services/repositories.ts';
import type { Sql } from './database.ts';

/** Volumes from the order journal: every order this server placed, on any account. */
export class SqlTradedVolumes implements TradedVolumes {
  constructor(private readonly sql: Sql) {}

  async perPair(accountId: number, from: Date | null, until: Date | null): Promise<PairVolume[]> {
    return this.sql.query<PairVolume>(
      `SELECT pair, SUM(filled_total)::text AS total FROM engine_orders
       WHERE automation_id IN (SELECT id FROM automations WHERE account_id = $1) AND account_id = $1 AND filled > 0 AND ($2::timestamptz IS NULL OR updated_at >= $2) AND ($3::timestamptz IS NULL OR updated_at < $3)
       GROUP BY pair ORDER BY pair`,
      [accountId, from, until],
    );
  }
}
