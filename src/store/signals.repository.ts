/** TradingView signal tokens and the signals received, waiting and run (migration 0030). */
import type { NewSignal, SignalStatus, SignalStore, StoredSignal } from '../signals/signals.service.ts';
import type { Sql } from './database.ts';

interface SignalRow {
  id: string;
  bot_id: string | number;
  body: string;
  received_at: Date;
  run_at: Date;
  status: SignalStatus;
  outcome: string | null;
}

const SIGNAL_COLUMNS = 'id, bot_id, body, received_at, run_at, status, outcome';

const toSignal = (row: SignalRow): StoredSignal => ({
  id: row.id,
  botId: Number(row.bot_id),
  body: JSON.parse(row.body),
  receivedAt: row.received_at,
  runAt: row.run_at,
  status: row.status,
  outcome: row.outcome,
});

export class SqlSignalsRepository implements SignalStore {
  constructor(private readonly sql: Sql) {}

  async tokens(botIds: readonly number[]): Promise<Map<number, string>> {
    if (botIds.length === 0) return new Map();
    const rows = await this.sql.query<{ bot_id: string | number; email_token: string }>(
      'SELECT bot_id, email_token::text FROM dca_bot_signal_tokens WHERE bot_id = ANY($1::bigint[])',
      [botIds],
    );
    return new Map(rows.map((row) => [Number(row.bot_id), row.email_token]));
  }

  async addTokens(tokens: ReadonlyMap<number, string>): Promise<void> {
    if (tokens.size === 0) return;
    await this.sql.query(
      `INSERT INTO dca_bot_signal_tokens (bot_id, email_token)
       SELECT * FROM unnest($1::bigint[], $2::uuid[]) ON CONFLICT (bot_id) DO NOTHING`,
      [[...tokens.keys()], [...tokens.values()]],
    );
  }

  async insert(signal: NewSignal): Promise<StoredSignal | undefined> {
    const [row] = await this.sql.query<SignalRow>(
      `INSERT INTO trade_signals (id, bot_id, sender, body, received_at, run_at, status)
       VALUES ($1, $2, $3, $4, $5, $6, 'pending') ON CONFLICT (id) DO NOTHING RETURNING ${SIGNAL_COLUMNS}`,
      [signal.id, signal.botId, signal.sender, JSON.stringify(signal.body), signal.receivedAt, signal.runAt],
    );
    return row && toSignal(row);
  }

  async get(id: string): Promise<StoredSignal | undefined> {
    const [row] = await this.sql.query<SignalRow>(`SELECT ${SIGNAL_COLUMNS} FROM trade_signals WHERE id = $1`, [id]);
    return row && toSignal(row);
  }

  async claimDue(now: Date, until: Date, claimant: string): Promise<StoredSignal | undefined> {
    const [row] = await this.sql.query<SignalRow>(
      `UPDATE trade_signals SET status = 'running', claimed_until = $2, claimed_by = $3
       WHERE id = (SELECT id FROM trade_signals
                   WHERE run_at <= $1 AND (status = 'pending' OR (status = 'running' AND coalesce(claimed_until <= $1, true)))
                   ORDER BY run_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING ${SIGNAL_COLUMNS}`,
      [now, until, claimant],
    );
    return row && toSignal(row);
  }

  async finish(id: string, claimant: string, status: 'done' | 'failed', outcome: string, at: Date): Promise<boolean> {
    const rows = await this.sql.query(
      `UPDATE trade_signals SET status = $3, outcome = $4, finished_at = $5, claimed_until = NULL
       WHERE id = $1 AND status = 'running' AND claimed_by = $2 RETURNING id`,
      [id, claimant, status, outcome, at],
    );
    return rows.length > 0;
  }

  async postpone(id: string, claimant: string, runAt: Date): Promise<boolean> {
    const rows = await this.sql.query(
      `UPDATE trade_signals SET status = 'pending', run_at = $3, claimed_until = NULL, claimed_by = NULL
       WHERE id = $1 AND status = 'running' AND claimed_by = $2 RETURNING id`,
      [id, claimant, runAt],
    );
    return rows.length > 0;
  }

  async releaseClaims(): Promise<void> {
    await this.sql.query(`UPDATE trade_signals SET claimed_until = NULL WHERE status = 'running'`);
  }

  async logBotEvent(botId: number, message: string, at: Date): Promise<void> {
    await this.sql.query('INSERT INTO automation_events (automation_id, messages, created_at) VALUES ($1, ARRAY[$2::text], $3)', [botId, message, at]);
  }
}
