/**
 * Engine registry and account leases in PostgreSQL. An account's lease is live while its engine's
 * is (`engines.lease_until`, renewed by the heartbeat: one row per engine, not one per account).
 * Expiry is on the database's clock, so engines whose machine clocks differ agree on it. The batch guard takes a share lock on the lease rows a
 * batch touches: a takeover (an UPDATE of the row) waits for a batch already past its check, and a
 * batch that starts after a takeover sees the new epoch and is refused.
 */
import type { BatchGuard, EngineBatch } from '../engine/engine-store.ts';
import { type EngineIdentity, type HeldLease, LeaseLostError, type LeaseStore } from '../engine/lease-store.ts';
import type { EngineRegistry, EngineView } from '../services/engines.service.ts';
import type { Database, Sql } from './database.ts';
import type { PaperFence } from './paper.repository.ts';

/**
 * The tick-log position an account leaves its engine at (`l`: its lease row): the engine's own
 * while it ran the account (migration 0077), else the account's.
 */
const CARRIED_POSITION = `CASE WHEN l.follows_engine THEN coalesce((SELECT e.tick_seq FROM engines e WHERE e.id = l.engine_id), l.tick_seq) ELSE l.tick_seq END`;

/** Whether the lease row `alias` is held by an engine whose lease has not expired. */
export const leaseLive = (alias: string) => `EXISTS (SELECT 1 FROM engines e WHERE e.id = ${alias}.engine_id AND e.lease_until > now())`;

const leaseFor = (msParameter: string) => `now() + make_interval(secs => ${msParameter}::double precision / 1000)`;

/** Registry rows of engines unseen for this many leases are removed (killed processes). */
const FORGET_AFTER_LEASES = 3;

/**
 * The lease rows `where` selects, locked in account order. Every statement that locks several
 * lease rows (a renewal, a batch's check, a take) does so in this order: a renewal that locked
 * them as stored deadlocked with a batch's check (SQLSTATE 40P01) in the 1,000-account benchmark.
 */
export const inAccountOrder = (where: string, lock: 'SHARE' | 'NO KEY UPDATE') =>
  `SELECT account_id FROM account_leases WHERE ${where} ORDER BY account_id FOR ${lock}`;

export class SqlLeaseStore implements LeaseStore, EngineRegistry {
  private registered: EngineIdentity | undefined;

  constructor(private readonly db: Database) {}

  async register(engine: EngineIdentity): Promise<void> {
    this.registered = engine;
    await this.db.query('INSERT INTO engines (id, host, pid, role) VALUES ($1, $2, $3, $4)', [
      engine.id,
      engine.host,
      engine.pid,
      engine.role,
    ]);
  }

  async heartbeat(engineId: string, leaseMs: number): Promise<HeldLease[]> {
    return this.db.transaction(async (tx) => {
      const [seen] = await tx.query(`UPDATE engines SET last_seen_at = now(), lease_until = ${leaseFor('$2')} WHERE id = $1 RETURNING id`, [engineId, leaseMs]);
      // Frozen for longer than three leases, the engine was forgotten: it is registered again.
      const engine = this.registered;
      if (!seen && engine?.id === engineId) {
        await tx.query(
          `INSERT INTO engines (id, host, pid, role, lease_until) VALUES ($1, $2, $3, $4, ${leaseFor('$5')}) ON CONFLICT (id) DO NOTHING`,
          [engine.id, engine.host, engine.pid, engine.role, leaseMs],
        );
      }
      // The accounts a forgotten engine ran keep the position it reached.
      await tx.query(
        `UPDATE account_leases l SET tick_seq = ${CARRIED_POSITION}, follows_engine = false
         FROM (${inAccountOrder('follows_engine AND engine_id IN (SELECT id FROM engines WHERE last_seen_at < now() - make_interval(secs => $1::double precision / 1000))', 'NO KEY UPDATE')}) gone
         WHERE l.account_id = gone.account_id`,
        [leaseMs * FORGET_AFTER_LEASES],
      );
      await tx.query(
        `DELETE FROM engines WHERE last_seen_at < now() - make_interval(secs => $1::double precision / 1000)`,
        [leaseMs * FORGET_AFTER_LEASES],
      );
      // A lease that expired but was not taken is still this engine's: nobody else wrote since.
      const rows = await tx.query<{ account_id: number; epoch: number }>(
        'SELECT account_id, epoch FROM account_leases WHERE engine_id = $1 ORDER BY account_id',
        [engineId],
      );
      return rows.map((row) => ({ accountId: Number(row.account_id), epoch: Number(row.epoch) }));
    });
  }

  async take(engineId: string, accountIds: readonly number[], leaseMs: number): Promise<Map<number, number>> {
    if (accountIds.length === 0) return new Map();
    // The engine's lease is renewed with the take: a lease taken lasts as long as the engine
    // counts on (`AccountLeases`), whatever its last heartbeat. An engine not registered takes none.
    // In account order, so that engines taking overlapping sets lock rows in the same order.
    const rows = await this.db.query<{ account_id: number; epoch: number }>(
      `WITH taker AS (
         UPDATE engines SET lease_until = greatest(lease_until, ${leaseFor('$3')}) WHERE id = $1 RETURNING id
       )
       INSERT INTO account_leases AS l (account_id, engine_id, epoch)
       SELECT id, $1, 1 FROM unnest($2::bigint[]) AS id WHERE EXISTS (SELECT 1 FROM taker) ORDER BY id
       ON CONFLICT (account_id) DO UPDATE SET engine_id = EXCLUDED.engine_id, epoch = l.epoch + 1,
         tick_seq = ${CARRIED_POSITION}, follows_engine = false
       WHERE l.engine_id IS NULL OR l.engine_id = EXCLUDED.engine_id OR NOT ${leaseLive('l')}
       RETURNING account_id, epoch`,
      [engineId, [...accountIds], leaseMs],
    );
    return new Map(rows.map((row) => [Number(row.account_id), Number(row.epoch)]));
  }

  async unowned(): Promise<number[]> {
    const rows = await this.db.query<{ account_id: number }>(
      `SELECT DISTINCT a.account_id FROM automations a LEFT JOIN account_leases l ON l.account_id = a.account_id
       WHERE a.running AND (l.account_id IS NULL OR NOT ${leaseLive('l')})
       ORDER BY a.account_id`,
    );
    return rows.map((row) => Number(row.account_id));
  }

  async nextForeignExpiry(engineId: string, withinMs: number): Promise<number | undefined> {
    const [row] = await this.db.query<{ ms: number | null }>(
      `SELECT ceil(extract(epoch FROM min(e.lease_until) - now()) * 1000)::int AS ms FROM engines e
       WHERE e.id <> $1 AND e.lease_until > now() AND e.lease_until <= now() + make_interval(secs => $2::double precision / 1000)
         AND EXISTS (SELECT 1 FROM account_leases l WHERE l.engine_id = e.id)`,
      [engineId, withinMs],
    );
    return row?.ms === null || row?.ms === undefined ? undefined : Number(row.ms);
  }

  async loads(leaseMs: number): Promise<Map<string, number>> {
    const rows = await this.db.query<{ id: string; accounts: number }>(
      `SELECT e.id, count(l.account_id)::int AS accounts FROM engines e
       LEFT JOIN account_leases l ON l.engine_id = e.id AND e.lease_until > now()
       WHERE e.role <> 'api' AND e.last_seen_at > now() - make_interval(secs => $1::double precision / 1000)
       GROUP BY e.id`,
      [leaseMs],
    );
    return new Map(rows.map((row) => [row.id, Number(row.accounts)]));
  }

  async list(): Promise<EngineView[]> {
    const rows = await this.db.query<{
      id: string; host: string; pid: number; role: string; started_at: Date; last_seen_at: Date; account_ids: number[];
    }>(
      `SELECT e.id, e.host, e.pid, e.role, e.started_at, e.last_seen_at,
         coalesce(array_agg(l.account_id ORDER BY l.account_id) FILTER (WHERE l.account_id IS NOT NULL), '{}') AS account_ids
       FROM engines e LEFT JOIN account_leases l ON l.engine_id = e.id AND e.lease_until > now()
       GROUP BY e.id ORDER BY e.started_at, e.id`,
    );
    return rows.map((row) => ({
      id: row.id,
      host: row.host,
      pid: Number(row.pid),
      role: row.role,
      startedAt: row.started_at,
      lastSeenAt: row.last_seen_at,
      accountIds: row.account_ids.map(Number),
    }));
  }

  async handBack(engineId: string): Promise<void> {
    await this.db.transaction((tx) => handBackIn(tx, engineId));
  }
}

/** Hands back every lease of the engine and removes it from the registry, in the caller's transaction. */
export async function handBackIn(tx: Sql, engineId: string): Promise<void> {
  await tx.query(
    `UPDATE account_leases l SET tick_seq = ${CARRIED_POSITION}, follows_engine = false, engine_id = NULL
     FROM (${inAccountOrder('engine_id = $1', 'NO KEY UPDATE')}) mine WHERE l.account_id = mine.account_id`,
    [engineId],
  );
  await tx.query('DELETE FROM engines WHERE id = $1', [engineId]);
}

interface LeaseRow {
  account_id: number;
  engine_id: string | null;
  epoch: number | null;
  live: boolean | null;
}

/**
 * The lease rows a batch's check read and share-locked, by transaction: the paper fence of the same
 * transaction takes them from here, and reads only the accounts the check did not (a read, and a
 * round trip, fewer per batch).
 */
const checkedIn = new WeakMap<Sql, Map<number, LeaseRow>>();

/**
 * The fencing check of every engine batch: each account the batch writes for must be leased to
 * this engine at the epoch it holds. `idle_in_transaction_session_timeout` ends the transaction of
 * an engine frozen between its check and its commit, so it cannot hold a takeover back for long.
 */
export function leaseGuard(engineId: string, heldEpochs: () => ReadonlyMap<number, number>, leaseMs: number): BatchGuard {
  const timeout = String(Math.max(1000, Math.round(leaseMs)));
  return async (tx: Sql, batch: EngineBatch) => {
    const orderAccounts = [...new Set(batch.orders.map((order) => order.accountId))];
    const automationIds = [
      ...new Set([...batch.automations.map((a) => a.id), ...batch.events.map((e) => e.automationId), ...batch.records.map((r) => r.automationId)]),
    ];
    if (orderAccounts.length + automationIds.length === 0) return;
    // One statement: the batch's accounts, the timeout and the lease rows under a share lock (a
    // batch costs two statements fewer than asked one by one).
    const rows = await tx.query<LeaseRow>(
      `WITH wanted AS (
         SELECT unnest($1::bigint[]) AS account_id UNION SELECT account_id FROM automations WHERE id = ANY($2::bigint[])
       )
       SELECT w.account_id, l.engine_id, l.epoch, l.live, set_config('idle_in_transaction_session_timeout', $3, true) AS timeout
       FROM (SELECT account_id FROM wanted ORDER BY account_id) w LEFT JOIN LATERAL (
         SELECT engine_id, epoch, ${leaseLive('account_leases')} AS live FROM account_leases WHERE account_id = w.account_id FOR SHARE
       ) l ON true`,
      [orderAccounts, automationIds, timeout],
    );
    checkedIn.set(tx, new Map(rows.map((row) => [Number(row.account_id), row])));
    const held = heldEpochs();
    const lost = rows
      .filter((row) => row.engine_id !== engineId || Number(row.epoch) !== held.get(Number(row.account_id)))
      .map((row) => Number(row.account_id))
      .sort((a, b) => a - b);
    if (lost.length > 0) throw new LeaseLostError(lost);
  };
}

/**
 * The lease check of paper venue writes (paper.repository.ts), under the same share lock as the
 * batch guard: market fills and the engine's orders only for accounts leased to this engine at the
 * epoch it holds; opening an account or setting its fees unless another live engine holds it.
 */
export function paperFence(engineId: string, heldEpochs: () => ReadonlyMap<number, number>): PaperFence {
  return async (tx, accountIds, write) => {
    const leased = new Map(checkedIn.get(tx));
    const unread = accountIds.filter((accountId) => !leased.has(accountId));
    if (unread.length > 0) {
      const rows = await tx.query<LeaseRow>(
        `SELECT account_id, engine_id, epoch, ${leaseLive('account_leases')} AS live FROM account_leases WHERE account_id = ANY($1::bigint[]) ORDER BY account_id FOR SHARE`,
        [unread],
      );
      for (const row of rows) leased.set(Number(row.account_id), row);
    }
    const held = heldEpochs();
    // An account without a lease row: absent when read here, with no engine when the check read it.
    return accountIds.filter((accountId) => {
      const row = leased.get(accountId);
      if (write === 'held') return row === undefined || row.engine_id !== engineId || Number(row.epoch) !== held.get(accountId);
      return row !== undefined && row.engine_id !== null && row.engine_id !== engineId && row.live === true;
    });
  };
}
