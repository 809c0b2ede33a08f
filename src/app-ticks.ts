/**
 * The manual paper feed of servers sharing PostgreSQL: a tick posted to any server is appended to
 * the tick log and applied by every engine (tick-follower.ts); the post answers once every live
 * engine applied it, with the fills of the accounts this server's engine runs.
 */
import type { Logger } from 'pino';
import type { MarketTick } from './domain/market/market-tick.ts';
import type { BatchPosition } from './engine/engine-store.ts';
import { TickFollower } from './engine/tick-follower.ts';
import type { Database, Sql } from './store/database.ts';
import { positionWrite, SqlTickLog, TICKS_CHANNEL } from './store/tick-log.repository.ts';

/** How often a post looks whether the other engines applied its ticks. */
const WAIT_POLL_MS = 20;

export interface SharedTicks {
  /** Absent in a process that runs no engine. */
  follower: TickFollower | undefined;
  /** This engine's position, stored by its batches with what each tick changed. */
  position: BatchPosition;
  /** Which accounts this engine just took may be loaded now; the follower loads the others later. */
  ready(accountIds: readonly number[]): Promise<number[]>;
  /** Whether a held account runs here already (not waiting for the tick log to reach it). */
  loaded(accountId: number): boolean;
  /** The account was lost or handed back: it is loaded afresh when taken again. */
  forget(accountId: number): void;
  /** Appends ticks and waits until every live engine applied them; answers this engine's fills. */
  post(ticks: MarketTick[]): Promise<number>;
  /** Hands the accounts back at a tick no engine has passed (see SqlTickLog.handBackAligned). */
  handBack(release: (tx: Sql) => Promise<void>): Promise<void>;
}

export interface SharedTickPorts {
  db: Database;
  engineId: string;
  leaseMs: number;
  runsEngine: boolean;
  logger: Logger;
  /** As TickFollowerPorts.apply; calls `applied` as soon as the venue has applied the tick. */
  apply(tick: MarketTick, applied: () => void): Promise<{ fills: number }>;
  /** As TickFollowerPorts.stored. */
  stored(): Promise<void>;
  load(accountIds: readonly number[]): Promise<void>;
  holds(accountId: number): boolean;
  catchUp(accountIds: readonly number[], ticks: MarketTick[]): Promise<void>;
}

export function sharedTicks(ports: SharedTickPorts): SharedTicks {
  const log = new SqlTickLog(ports.db);
  const loaded = new Set<number>();
  /** Loaded accounts not yet recorded as standing at this engine's position. */
  const started = new Set<number>();
  const nowLoaded = (accountId: number) => {
    loaded.add(accountId);
    started.add(accountId);
  };
  /** The last tick the venue applied, the last handed to a batch, the last a stored batch wrote. */
  let applied = 0;
  let taken = 0;
  let stored = -1;
  /** The tick a batch was taken at without the position, until a position past it is recorded. */
  let takenWithout: number | undefined;
  /** Each position taken, by its write, until stored: the next batch takes one while a batch is stored. */
  const writes = new WeakMap<object, number>();
  const position: BatchPosition = {
    take: () => {
      if (applied <= taken) return undefined;
      // Accounts that started here are recorded with the position by the follower alone.
      if (started.size > 0) {
        takenWithout = applied;
        return undefined;
      }
      taken = applied;
      const write = positionWrite(ports.engineId, taken);
      writes.set(write, taken);
      return write;
    },
    stored: (write) => {
      stored = Math.max(stored, writes.get(write) ?? stored);
      if (takenWithout !== undefined && stored >= takenWithout) takenWithout = undefined;
    },
  };
  const follower = ports.runsEngine
    ? new TickFollower({
        log,
        engineId: ports.engineId,
        apply: (tick, seq) => ports.apply(tick, () => void (applied = seq)),
        stored: ports.stored,
        recordedInBatch: () => stored,
        batchesRecord: () => started.size === 0 && takenWithout === undefined,
        load: async (accountIds) => {
          for (const accountId of accountIds) nowLoaded(accountId);
          await ports.load(accountIds);
        },
        holds: ports.holds,
        startedHere: () => [...started],
        recordedHere: (accountIds) => {
          for (const accountId of accountIds) started.delete(accountId);
          takenWithout = undefined;
        },
        catchUp: (accountIds, ticks) => ports.catchUp(accountIds, ticks.map((logged) => logged.tick)),
        logger: ports.logger,
        listen: (wake) => ports.db.listen!(TICKS_CHANNEL, { onNotify: wake, onResumed: wake }),
      })
    : undefined;
  return {
    follower,
    position,
    ready: async (accountIds) => {
      const ready = follower ? await follower.ready(accountIds.filter((accountId) => !loaded.has(accountId))) : [];
      for (const accountId of ready) nowLoaded(accountId);
      return accountIds.filter((accountId) => loaded.has(accountId));
    },
    loaded: (accountId) => loaded.has(accountId),
    forget: (accountId) => {
      loaded.delete(accountId);
      started.delete(accountId);
    },
    post: async (ticks) => {
      const last = await log.append(ticks);
      follower?.poke();
      await follower?.reached(last);
      const deadline = performance.now() + 2 * ports.leaseMs;
      // An engine that stopped answering is waited for until its lease would have run out.
      while ((await log.slowestLive(ports.leaseMs)) < last && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
      }
      return follower ? follower.fillsBetween(last - ticks.length + 1, last) : 0;
    },
    handBack: async (release) => {
      if (!follower) return ports.db.transaction(release);
      const position = await follower.stop();
      await log.handBackAligned(ports.engineId, position, () => [...loaded], (ticks) => follower.applyLogged(ticks), release);
    },
  };
}
