/**
 * The paper tick log (migration 0062). Ticks are appended under a shared advisory lock, and an
 * engine handing its accounts back takes it exclusively while it applies the log to its end: no
 * tick is added meanwhile, so no engine can have gone past the position the hand-back records.
 */
import type { MarketTick } from '../domain/market/market-tick.ts';
import { dec } from '../shared/decimal.ts';
import type { Database, Sql } from './database.ts';
import { inAccountOrder } from './leases.repository.ts';
import { columns } from './unnest.ts';

export const TICKS_CHANNEL = 'tradeloop_ticks';
/** The advisory lock key of the tick log ("tlticks"). */
const GATE = 7_410_892_011;

export interface LoggedTick {
  seq: number;
  tick: MarketTick;
}

interface TickRow {
  seq: number;
  pair: string;
  price: string;
  bid: string | null;
  ask: string | null;
  volume: string | null;
  at: Date;
}

export class SqlTickLog {
  constructor(private readonly db: Database) {}

  /** Appends ticks in the order given; answers the last one's position. */
  async append(ticks: readonly MarketTick[]): Promise<number> {
    return this.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock_shared($1)', [GATE]);
      const rows = ticks.map((t) => [t.pair, t.price.toFixed(), t.bid?.toFixed() ?? null, t.ask?.toFixed() ?? null, t.volume?.toFixed() ?? null, t.at.toISOString()] as const);
      const inserted = await tx.query<{ seq: number }>(
        `INSERT INTO paper_ticks (pair, price, bid, ask, volume, at)
         SELECT pair, price, bid, ask, volume, at
         FROM unnest($1::text[], $2::numeric[], $3::numeric[], $4::numeric[], $5::numeric[], $6::timestamptz[])
           WITH ORDINALITY AS t(pair, price, bid, ask, volume, at, n) ORDER BY n
         RETURNING seq`,
        columns(rows, 6),
      );
      const last = Math.max(...inserted.map((row) => Number(row.seq)));
      await tx.query(`SELECT pg_notify('${TICKS_CHANNEL}', $1)`, [String(last)]);
      return last;
    });
  }

  async last(): Promise<number> {
    const [row] = await this.db.query<{ seq: number | null }>('SELECT max(seq) AS seq FROM paper_ticks');
    return Number(row?.seq ?? 0);
  }

  /** The lowest position an account was handed back or left at by an engine no longer holding it. */
  async lowestUnheld(): Promise<number | undefined> {
    const [row] = await this.db.query<{ seq: number | null }>(
      'SELECT min(tick_seq) AS seq FROM account_positions WHERE tick_seq IS NOT NULL AND NOT live',
    );
    return row?.seq === null || row?.seq === undefined ? undefined : Number(row.seq);
  }

  async accountPositions(accountIds: readonly number[]): Promise<Map<number, number>> {
    if (accountIds.length === 0) return new Map();
    const rows = await this.db.query<{ account_id: number; tick_seq: number }>(
      'SELECT account_id, tick_seq FROM account_leases WHERE account_id = ANY($1::bigint[]) AND tick_seq IS NOT NULL',
      [[...accountIds]],
    );
    return new Map(rows.map((row) => [Number(row.account_id), Number(row.tick_seq)]));
  }

  /**
   * Applies the ticks after `position` (at most `limit`); answers the last one's position. Not in
   * a transaction: one whose connection is lost is run again, and the ticks must not be.
   */
  async follow(position: number, limit: number, apply: (ticks: LoggedTick[]) => Promise<void>): Promise<number> {
    const ticks = await read(this.db, position, limit);
    if (ticks.length === 0) return position;
    await apply(ticks);
    return ticks.at(-1)!.seq;
  }

  /** The ticks after `from`, up to `to`. */
  between(from: number, to: number): Promise<LoggedTick[]> {
    return read(this.db, from, Math.max(0, to - from)).then((ticks) => ticks.filter((t) => t.seq <= to));
  }

  /**
   * Hands back at a tick no engine passed: under the exclusive gate (no tick is appended), applies
   * the log to its end, records that position on the accounts and lets `handBack` release them;
   * engines behind it load the accounts once they get there. A transaction run again after a
   * lost connection goes on from the last tick applied, never applying one twice.
   */
  async handBackAligned(
    engineId: string,
    position: number,
    accountIds: () => readonly number[],
    apply: (ticks: LoggedTick[]) => Promise<void>,
    handBack: (tx: Sql) => Promise<void>,
  ): Promise<void> {
    let reached = position;
    await this.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [GATE]);
      for (;;) {
        const ticks = await read(tx, reached, 500);
        if (ticks.length === 0) break;
        await apply(ticks);
        reached = ticks.at(-1)!.seq;
      }
      await this.record(tx, engineId, reached, accountIds());
      await handBack(tx);
    });
  }

  /** The lowest position of the engines seen within the lease that run accounts. */
  async slowestLive(leaseMs: number): Promise<number> {
    const [row] = await this.db.query<{ seq: number | null }>(
      `SELECT min(coalesce(tick_seq, 0)) AS seq FROM engines WHERE role <> 'api' AND last_seen_at > now() - make_interval(secs => $1::double precision / 1000)`,
      [leaseMs],
    );
    return row?.seq === null || row?.seq === undefined ? Number.POSITIVE_INFINITY : Number(row.seq);
  }

  async setPosition(engineId: string, position: number, accountIds: readonly number[]): Promise<void> {
    if (accountIds.length === 0) await this.record(this.db, engineId, position, accountIds);
    else await this.db.transaction((tx) => this.record(tx, engineId, position, accountIds));
  }

  /** Ticks every engine and every account passed, posted more than `keepMs` ago, are removed. */
  async prune(keepMs: number): Promise<void> {
    await this.db.query(
      `DELETE FROM paper_ticks WHERE posted_at < now() - make_interval(secs => $1::double precision / 1000)
         AND seq < coalesce((SELECT least((SELECT min(tick_seq) FROM engines), (SELECT min(tick_seq) FROM account_positions))), 0)`,
      [keepMs],
    );
  }

  /**
   * These accounts, which started running here, stand at the engine's position from now on; one
   * taken but not yet reached keeps its last holder's. The engine's row first, then its leases, as the heartbeat
   * takes them: in another order the two deadlocked.
   */
  private async record(sql: Sql, engineId: string, position: number, accountIds: readonly number[]): Promise<void> {
    await sql.query('UPDATE engines SET tick_seq = $2 WHERE id = $1', [engineId, position]);
    if (accountIds.length === 0) return;
    await sql.query(
      `UPDATE account_leases l SET tick_seq = $2, follows_engine = true
       FROM (${inAccountOrder('engine_id = $1 AND account_id = ANY($3::bigint[]) AND NOT follows_engine', 'NO KEY UPDATE')}) started
       WHERE l.account_id = started.account_id`,
      [engineId, position, [...accountIds]],
    );
  }
}

/**
 * The engine's position, written in the caller's transaction (an engine batch's). Never moved
 * backwards: a batch may carry a position the tick follower has recorded past since.
 */
export const positionWrite = (engineId: string, position: number) => (tx: Sql) =>
  tx.write('UPDATE engines SET tick_seq = $2 WHERE id = $1 AND (tick_seq IS NULL OR tick_seq < $2)', [engineId, position]);

async function read(sql: Sql, after: number, limit: number): Promise<LoggedTick[]> {
  const rows = await sql.query<TickRow>(
    'SELECT seq, pair, price::text, bid::text, ask::text, volume::text, at FROM paper_ticks WHERE seq > $1 ORDER BY seq LIMIT $2',
    [after, limit],
  );
  return rows.map((row) => ({
    seq: Number(row.seq),
    tick: {
      pair: row.pair,
      price: dec(row.price),
      at: row.at,
      ...(row.bid === null ? {} : { bid: dec(row.bid) }),
      ...(row.ask === null ? {} : { ask: dec(row.ask) }),
      ...(row.volume === null ? {} : { volume: dec(row.volume) }),
    },
  }));
}
