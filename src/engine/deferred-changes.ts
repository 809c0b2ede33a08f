/**
 * Changes stored later. A SmartTrade trailing its stop changes on almost every tick while nothing
 * else happens to it, and storing each of those changes was most of what 10,000 open trades
 * wrote. A batch whose steps on ticks only moved such states (kinds with `replaysTicks`: nothing
 * ordered, logged or recorded) stores one row instead: its ticks and the automations they moved.
 * Those automations are stored once their first unstored change is `delayMs` old (half that for
 * some, to spread them), when a step of theirs does anything else, or when the engine stops. Until
 * then a restart steps them again on the logged ticks from the state they stored
 * (`Engine.replayLoggedTicks`), which gives the same states: their steps read nothing but the
 * state, the tick and the clock.
 *
 * Each stored state carries the last logged batch it has seen (`tickSeq`), so a replay steps an
 * automation only on the batches that came after its stored state.
 */
import type { Ticker } from '../exchanges/exchange.ts';
import type { LiveAutomation } from './automation-kind.ts';
import type { LoggedTick, LoggedTickBatch } from './engine-store.ts';

/** Every this many batches, the logged batches nobody needs any more are removed. */
const PRUNE_EVERY = 64;

export class DeferredChanges {
  /** The last logged batch; every state stored from now on has seen it. */
  position = 0;
  /** This batch's ticks, made into log rows only when a quiet step needs them logged. */
  private ticks: Array<[source: string, ticker: Ticker]> = [];
  /** Automations this batch stepped on ticks alone with nothing but a state change. */
  private readonly quiet = new Set<number>();
  /** Automations this batch stepped otherwise: stored with the batch. */
  private readonly loud = new Set<number>();
  /** Unstored changes, oldest first: since when, and the first logged batch they need. */
  private readonly waiting = new Map<number, { live: LiveAutomation; since: number; seq: number }>();
  /** Automations whose logged ticks may be lost: their next change is stored, not left waiting. */
  private readonly unlogged = new Set<number>();
  private batches = 0;
  private prunedBelow = 0;
  private storeAll = false;

  constructor(
    private readonly delayMs: number,
    private readonly perBatch: number,
  ) {}

  /** A new batch: the ticks and steps noted before it are not its own. */
  beginBatch(): void {
    this.ticks = [];
    this.quiet.clear();
    this.loud.clear();
  }

  noteTick(source: string, ticker: Ticker): void {
    this.ticks.push([source, ticker]);
  }

  noteStep(id: number, quiet: boolean): void {
    if (!quiet) {
      this.loud.add(id);
      this.quiet.delete(id);
    } else if (!this.loud.has(id)) this.quiet.add(id);
  }

  /** Whether changes may be due and should be stored even if no batch comes. */
  hasDue(now: number): boolean {
    for (const entry of this.waiting.values()) return entry.since + this.delayMs / 2 <= now;
    return false;
  }

  /**
   * Between half the delay and the whole, by automation: trades that began to trail together
   * (a market move wakes thousands at once) are stored over a spread of batches, not in one.
   */
  private delayOf(id: number): number {
    return this.delayMs * (0.5 + ((id * 7919) % 997) / 1994);
  }

  /** The next batch stores every change still waiting (a stop, or the end of a replay). */
  storeEverything(): void {
    this.storeAll = true;
  }

  /**
   * Takes this batch's quiet changes out of `dirty` (logging its ticks for them) and puts in the
   * waiting changes now due; answers what the batch writes of the log, and the `tickSeq` of the
   * states it stores.
   */
  take(
    dirty: Map<number, LiveAutomation>,
    at: Date,
    now: number,
    nextId: () => number,
  ): { ticks?: LoggedTickBatch; ticksNeededFrom?: number; tickSeq: number } {
    const log: { ticks?: LoggedTickBatch; ticksNeededFrom?: number } = {};
    const quiet = [...this.quiet].filter((id) => dirty.has(id) && !this.unlogged.has(id));
    this.unlogged.clear();
    if (quiet.length > 0 && !this.storeAll) {
      this.position = nextId();
      log.ticks = { seq: this.position, at, ticks: this.ticks.map(logged), ids: quiet };
      for (const id of quiet) {
        if (!this.waiting.has(id)) this.waiting.set(id, { live: dirty.get(id)!, since: now, seq: this.position });
        dirty.delete(id);
      }
    }
    for (const id of dirty.keys()) this.waiting.delete(id);
    let taken = 0;
    for (const [id, entry] of this.waiting) {
      if (!this.storeAll) {
        // Oldest first: past one that cannot be due yet, none is.
        if (entry.since + this.delayMs / 2 > now || taken >= this.perBatch) break;
        if (entry.since + this.delayOf(id) > now) continue;
      }
      dirty.set(id, entry.live);
      this.waiting.delete(id);
      taken += 1;
    }
    this.beginBatch();
    this.batches += 1;
    const neededFrom = this.neededFrom();
    if ((this.storeAll || this.batches % PRUNE_EVERY === 0) && neededFrom > this.prunedBelow) {
      log.ticksNeededFrom = neededFrom;
      this.prunedBelow = neededFrom;
    }
    this.storeAll = false;
    return { ...log, tickSeq: this.position };
  }

  /**
   * A logged batch that will not be stored (the batch before it failed): the changes of the
   * automations it logged stop waiting, since a replay would not find those ticks, and are
   * returned to be stored with the next batch, whole, as if stepped on more than ticks.
   */
  unlog(logged: LoggedTickBatch): LiveAutomation[] {
    const lives: LiveAutomation[] = [];
    for (const id of logged.ids) {
      const entry = this.waiting.get(id);
      if (!entry) continue;
      lives.push(entry.live);
      this.waiting.delete(id);
      this.unlogged.add(id);
    }
    return lives;
  }

  /** An automation removed or stored on its own: nothing of it waits any more. */
  forget(id: number): void {
    this.waiting.delete(id);
  }

  /** The first logged batch a waiting change needs (the oldest waiting is first in the map). */
  private neededFrom(): number {
    for (const entry of this.waiting.values()) return entry.seq;
    return this.position + 1;
  }
}

function logged([source, { pair, last, bid, ask, at }]: [string, Ticker]): LoggedTick {
  return [source, pair, last.toFixed(), bid.toFixed(), ask.toFixed(), at.toISOString()];
}
