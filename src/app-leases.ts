/**
 * Composition of the account leases of an engine that shares a PostgreSQL database with others:
 * its identity in the registry, the heartbeat, the batch guard, and the takeover of accounts no
 * live engine holds (after a crash, a hand-back, or for an account nobody ran yet). An engine takes
 * unowned accounts up to its even share among the live engines, so accounts spread evenly.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Logger } from 'pino';
import { AccountLeases } from './engine/account-leases.ts';
import type { EngineIdentity } from './engine/lease-store.ts';
import type { EngineRegistry } from './services/engines.service.ts';
import type { Database, Sql } from './store/database.ts';
import { handBackIn, leaseGuard, SqlLeaseStore } from './store/leases.repository.ts';

export interface EngineLeasing {
  identity: EngineIdentity;
  leases: AccountLeases;
  guard: ReturnType<typeof leaseGuard>;
  registry: EngineRegistry;
  /**
   * Registers the engine, then renews (and, unless its role is api, takes accounts) on every
   * heartbeat; `load` runs taken accounts (see app.ts: when the tick log allows).
   */
  start(load: (accountIds: readonly number[]) => Promise<void>): Promise<void>;
  /** Stops the heartbeat and hands every account back, through `handBack` when given (the tick log's). */
  stop(handBack?: (release: (tx: Sql) => Promise<void>) => Promise<void>): Promise<void>;
}

/** How many accounts an engine takes in one statement, between two reads of the engines' loads. */
const SHARE_REREAD = 25;

/** How long after a lease's expiry (on the database's clock) an engine looks for it. */
const EXPIRY_MARGIN_MS = 20;

/** One live engine's part of the held and still unowned accounts, rounded up. */
function evenShare(loads: ReadonlyMap<string, number>, unowned: number): number {
  const held = [...loads.values()].reduce((sum, count) => sum + count, 0);
  return Math.ceil((held + unowned) / Math.max(1, loads.size));
}

export function engineLeasing(db: Database, leaseSeconds: number, role: string, logger: Logger, onLost: (accountId: number) => void): EngineLeasing {
  const store = new SqlLeaseStore(db);
  const leaseMs = leaseSeconds * 1000;
  const identity: EngineIdentity = { id: `${os.hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`, host: os.hostname(), pid: process.pid, role };
  const leases = new AccountLeases({ store, engineId: identity.id, leaseMs, logger, onLost });
  const heartbeatMs = Math.max(100, Math.floor(leaseMs / 3));
  let timer: NodeJS.Timeout | undefined;

  // An engine takes unowned accounts up to its even share of all the running ones among the live
  // engines (read again now and then, as engines come and go). Taking one only while no engine
  // held fewer made engines started together take turns, one or two accounts per heartbeat each:
  // minutes for a thousand accounts.
  const takeUnowned = async (load: (accountIds: readonly number[]) => Promise<void>) => {
    const unowned = (await store.unowned()).filter((accountId) => !leases.owns(accountId));
    const taken: number[] = [];
    for (let index = 0; index < unowned.length; ) {
      const room = evenShare(await store.loads(leaseMs), unowned.length - index) - leases.accountIds().length;
      if (room <= 0) break;
      const chunk = unowned.slice(index, index + Math.min(room, SHARE_REREAD));
      index += chunk.length;
      taken.push(...(await leases.takeAll(chunk)));
    }
    // Loaded together once taken: loaded chunk by chunk, a takeover of 500 accounts read its first
    // 25 alone (half a second) before it took the others.
    if (taken.length > 0) await load(taken);
    await wakeAtExpiry(load);
  };
  // Live engines renew every heartbeat, so their leases expire two or more heartbeats ahead. A
  // lease expiring before the next heartbeat is one its holder stopped renewing (it crashed or
  // froze): this engine looks again the moment it expires instead of up to a heartbeat later.
  let wake: NodeJS.Timeout | undefined;
  let stopping = false;
  const wakeAtExpiry = async (load: (accountIds: readonly number[]) => Promise<void>) => {
    if (wake) return;
    const inMs = await store.nextForeignExpiry(identity.id, heartbeatMs);
    if (inMs === undefined || stopping) return;
    wake = setTimeout(() => {
      wake = undefined;
      void take(load);
    }, inMs + EXPIRY_MARGIN_MS);
    wake.unref();
  };
  // Renewing never waits for taking: taking hundreds of accounts outlasts a lease, and leases not
  // renewed meanwhile would expire under the engine (another would take them).
  let taking: Promise<void> | undefined;
  const take = (load: (accountIds: readonly number[]) => Promise<void>) => {
    taking ??= takeUnowned(load)
      .catch((error: unknown) => logger.warn({ err: error }, 'taking unowned accounts failed; tried again at the next heartbeat'))
      .finally(() => (taking = undefined));
    return taking;
  };
  const beat = (load: (accountIds: readonly number[]) => Promise<void>) => {
    void leases.renew();
    if (role !== 'api') void take(load);
  };

  return {
    identity,
    leases,
    guard: leaseGuard(identity.id, () => leases.epochs(), leaseMs),
    registry: store,
    start: async (load) => {
      await store.register(identity);
      logger.info({ engineId: identity.id, leaseSeconds }, 'engine registered');
      timer = setInterval(() => beat(load), heartbeatMs);
      timer.unref();
      // Accounts nobody holds are taken now, as evenly as at each heartbeat.
      if (role !== 'api') await take(load);
    },
    stop: async (handBack) => {
      stopping = true;
      clearInterval(timer);
      clearTimeout(wake);
      await taking;
      // A renewal still running would find the leases handed back and call them lost: renew()
      // joins the one in flight (or renews once more) before the hand-back.
      await leases.renew();
      if (handBack) await leases.handBack(() => handBack((tx) => handBackIn(tx, identity.id)));
      else await leases.handBack();
    },
  };
}
