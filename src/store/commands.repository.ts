/**
 * Stored commands (migration 0061). A command is claimed only by the engine holding the account's
 * lease, at the epoch it holds, in one statement: a claim can never be made twice, nor by an engine
 * that lost the account. An answer is stored once, by the claimer, unless the waiting server gave
 * up on it first.
 */
import type { CommandAnswer, ForwardedRequest } from '../services/engine-commands.ts';
import type { Database } from './database.ts';
import { leaseLive } from './leases.repository.ts';

export const COMMANDS_CHANNEL = 'tradeloop_commands';
export const ANSWERS_CHANNEL = 'tradeloop_command_answers';

export interface WaitingCommand {
  id: number;
  accountId: number;
  request: ForwardedRequest;
  /** The lease of the account now: its holder, and whether it is live. */
  holder: string | null;
  live: boolean;
}

export interface CommandState {
  answer: CommandAnswer | undefined;
  claimed: boolean;
  /** Claimed, unanswered, and the claimer no longer holds the account at the claimed epoch. */
  orphaned: boolean;
}

export class SqlCommandStore {
  constructor(private readonly db: Database) {}

  /** Engines that can run accounts (not role api) seen within the lease. */
  async liveEngines(leaseMs: number): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM engines WHERE role <> 'api' AND last_seen_at > now() - make_interval(secs => $1::double precision / 1000)`,
      [leaseMs],
    );
    return Number(row?.n ?? 0);
  }

  async insert(accountId: number, request: ForwardedRequest): Promise<number> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.query<{ id: number }>('INSERT INTO engine_commands (account_id, request) VALUES ($1, $2) RETURNING id', [
        accountId,
        JSON.stringify(request),
      ]);
      await tx.query(`SELECT pg_notify('${COMMANDS_CHANNEL}', $1)`, [String(accountId)]);
      return Number(row!.id);
    });
  }

  async state(id: number): Promise<CommandState | undefined> {
    const [row] = await this.db.query<{ status: number | null; answer: CommandAnswer | null; claimed_by: string | null; orphaned: boolean }>(
      `SELECT c.status, c.answer, c.claimed_by,
         (c.claimed_by IS NOT NULL AND c.answered_at IS NULL AND (l.account_id IS NULL OR l.engine_id IS DISTINCT FROM c.claimed_by
           OR l.epoch <> c.claimed_epoch OR NOT ${leaseLive('l')})) AS orphaned
       FROM engine_commands c LEFT JOIN account_leases l ON l.account_id = c.account_id WHERE c.id = $1`,
      [id],
    );
    if (!row) return undefined;
    return { answer: row.status === null ? undefined : (row.answer ?? undefined), claimed: row.claimed_by !== null, orphaned: row.orphaned };
  }

  /** Gives up on a command nobody claimed yet; false when it was claimed meanwhile. */
  async withdraw(id: number): Promise<boolean> {
    const rows = await this.db.query('DELETE FROM engine_commands WHERE id = $1 AND claimed_by IS NULL RETURNING id', [id]);
    return rows.length > 0;
  }

  /** Closes a command whose claimer lost the account unanswered: its late answer is not stored. */
  async abandon(id: number, answer: CommandAnswer): Promise<boolean> {
    const rows = await this.db.query(
      'UPDATE engine_commands SET status = $2, answer = $3, answered_at = now() WHERE id = $1 AND answered_at IS NULL RETURNING id',
      [id, answer.status, JSON.stringify(answer)],
    );
    return rows.length > 0;
  }

  async waiting(): Promise<WaitingCommand[]> {
    const rows = await this.db.query<{ id: number; account_id: number; request: ForwardedRequest; engine_id: string | null; live: boolean | null }>(
      `SELECT c.id, c.account_id, c.request, l.engine_id, ${leaseLive('l')} AS live
       FROM engine_commands c LEFT JOIN account_leases l ON l.account_id = c.account_id
       WHERE c.claimed_by IS NULL ORDER BY c.id LIMIT 200`,
    );
    return rows.map((row) => ({ id: Number(row.id), accountId: Number(row.account_id), request: row.request, holder: row.engine_id, live: row.live === true }));
  }

  /** Claims the command for the engine holding the account's lease at `epoch`; false otherwise. */
  async claim(id: number, engineId: string, epoch: number): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE engine_commands c SET claimed_by = $2, claimed_epoch = $3, claimed_at = now()
       FROM account_leases l
       WHERE c.id = $1 AND c.claimed_by IS NULL AND l.account_id = c.account_id AND l.engine_id = $2 AND l.epoch = $3
         AND ${leaseLive('l')}
       RETURNING c.id`,
      [id, engineId, epoch],
    );
    return rows.length > 0;
  }

  /** The account was another engine's after all, and nothing ran: the command waits for its owner. */
  async release(id: number, engineId: string): Promise<void> {
    await this.db.query(
      'UPDATE engine_commands SET claimed_by = NULL, claimed_epoch = NULL, claimed_at = NULL WHERE id = $1 AND claimed_by = $2 AND answered_at IS NULL',
      [id, engineId],
    );
  }

  async answer(id: number, engineId: string, answer: CommandAnswer): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query(
        'UPDATE engine_commands SET status = $3, answer = $4, answered_at = now() WHERE id = $1 AND claimed_by = $2 AND answered_at IS NULL',
        [id, engineId, answer.status, JSON.stringify(answer)],
      );
      await tx.query(`SELECT pg_notify('${ANSWERS_CHANNEL}', $1)`, [String(id)]);
    });
  }

  /** Answered commands are kept a while for inspection, then removed. */
  async prune(olderThanMs: number): Promise<void> {
    await this.db.query(
      'DELETE FROM engine_commands WHERE answered_at < now() - make_interval(secs => $1::double precision / 1000)',
      [olderThanMs],
    );
  }
}
