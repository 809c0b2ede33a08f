/**
 * Follows the shared paper tick log (PostgreSQL, manual feed): applies every posted tick, in order,
 * from this engine's position, recording after each tick how far it and its accounts got. A taken
 * account is loaded between two ticks, from the tick its previous holder recorded, so that no tick
 * acts twice or not at all on it across a takeover:
 * - left ahead of this engine's position, it is loaded once the engine gets there;
 * - left behind (its holder stopped while this engine went further), the ticks between are first
 *   replayed for it alone (`catchUp`, a private venue and engine), then it is loaded.
 * An account never run before (no recorded position) is loaded at once.
 */
import type { MarketTick } from '../domain/market/market-tick.ts';
import { RerunningPass } from '../shared/rerunning-pass.ts';

export interface LoggedTick {
  seq: number;
  tick: MarketTick;
}

export interface TickLogPort {
  last(): Promise<number>;
  lowestUnheld(): Promise<number | undefined>;
  /** Where each account's last holder left it (accounts never run are absent). */
  accountPositions(accountIds: readonly number[]): Promise<Map<number, number>>;
  follow(position: number, limit: number, apply: (ticks: LoggedTick[]) => Promise<void>): Promise<number>;
  between(from: number, to: number): Promise<LoggedTick[]>;
  setPosition(engineId: string, position: number, accountIds: readonly number[]): Promise<void>;
  prune(keepMs: number): Promise<void>;
}

export interface TickFollowerPorts {
  log: TickLogPort;
  engineId: string;
  /**
   * Applies one tick to the paper venue and waits until the engine has stepped what it caused
   * (not until that is stored: the next tick is applied meanwhile); answers the fills. The
   * engine's batches store `seq` as its position with what the tick changed.
   */
  apply(tick: MarketTick, seq: number): Promise<{ fills: number }>;
  /** Resolves once the engine's batches holding what the applied ticks caused are stored. */
  stored(): Promise<void>;
  /** The last position an engine batch stored (-1: none). */
  recordedInBatch(): number;
  /**
   * Whether the engine's batches store the position with what the ticks changed: not while
   * accounts that started here wait to be recorded, nor until a batch taken meanwhile is.
   */
  batchesRecord(): boolean;
  /** Loads taken accounts' paper state and automations. */
  load(accountIds: readonly number[]): Promise<void>;
  /** Whether this engine still holds the account's lease. */
  holds(accountId: number): boolean;
  /**
   * The accounts that started running here since they were last recorded: recording marks them
   * as standing at this engine's position from then on (the others already do).
   */
  startedHere(): readonly number[];
  /** These accounts were recorded as standing at this engine's position. */
  recordedHere(accountIds: readonly number[]): void;
  /** Applies `ticks` to these accounts alone, from their stored state. */
  catchUp(accountIds: readonly number[], ticks: LoggedTick[]): Promise<void>;
  logger: { info(o: object, m: string): void; warn(o: object, m: string): void };
  /** Subscribes to new-tick notifications; answers the unsubscribe. */
  listen(wake: () => void): Promise<() => Promise<void>>;
}

const CHUNK = 50;
const POLL_MS = 1_000;
const KEEP_MS = 600_000;

export class TickFollower {
  private position = 0;
  /** The position last stored (-1: none yet). */
  private recorded = -1;
  private readonly waiting = new Map<number, number>();
  private readonly fills = new Map<number, number>();
  private readonly reachedListeners = new Set<() => void>();
  private timer: NodeJS.Timeout | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private readonly passes: RerunningPass;
  private lastPrune = 0;

  constructor(private readonly ports: TickFollowerPorts) {
    this.passes = new RerunningPass(
      () => this.pass(),
      (error) => ports.logger.warn({ err: error }, 'following the tick log failed; tried again shortly'),
    );
  }

  private get stopped(): boolean {
    return this.passes.stopped;
  }

  get at(): number {
    return this.position;
  }

  /**
   * Chooses where to start before any account is taken: where the lowest account left without a
   * holder stopped, else the end of the log (what came before moved prices nobody runs now).
   */
  async init(): Promise<void> {
    this.position = (await this.ports.log.lowestUnheld()) ?? (await this.ports.log.last());
  }

  async start(): Promise<void> {
    await this.record();
    this.unlisten = await this.ports.listen(() => this.poke());
    this.timer = setInterval(() => this.poke(), POLL_MS);
    this.timer.unref();
    this.poke();
  }

  /** Stops after the chunk being applied; answers the position reached. */
  async stop(): Promise<number> {
    const passes = this.passes.stop();
    clearInterval(this.timer);
    await this.unlisten?.();
    await passes;
    return this.position;
  }

  /**
   * Which of the just-taken accounts may be loaded now: those never run. One left at a position is
   * loaded when this engine gets there (a takeover's accounts together, see loadWaiting).
   */
  async ready(accountIds: readonly number[]): Promise<number[]> {
    const taken = accountIds.filter((accountId) => !this.waiting.has(accountId));
    const positions = await this.ports.log.accountPositions(taken);
    for (const [accountId, left] of positions) this.waiting.set(accountId, left);
    if (positions.size > 0) this.poke();
    return taken.filter((accountId) => !positions.has(accountId));
  }

  /** Fills this engine's venue made on ticks `from`..`to` (those still remembered). */
  fillsBetween(from: number, to: number): number {
    let total = 0;
    for (let seq = from; seq <= to; seq += 1) total += this.fills.get(seq) ?? 0;
    return total;
  }

  /** Resolves once this engine applied the tick at `seq` (or stopped). */
  reached(seq: number): Promise<void> {
    if (this.position >= seq || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (this.position < seq && !this.stopped) return;
        this.reachedListeners.delete(check);
        resolve();
      };
      this.reachedListeners.add(check);
      this.poke();
    });
  }

  /** Applies ticks (used under the hand-back's exclusive gate too). */
  async applyLogged(ticks: LoggedTick[]): Promise<void> {
    await this.loadWaiting();
    for (const { seq, tick } of ticks) {
      const { fills } = await this.ports.apply(tick, seq);
      this.position = seq;
      if (fills > 0) this.fills.set(seq, fills);
      // The next holder of an account starts after the recorded tick, so a tick that changed
      // something is recorded with what it changed (the engine's batch stores the position), or
      // here as soon as that is stored: a crash replays at most the tick being applied. Ticks that
      // changed nothing leave the stored state as it was after the last recorded one, and
      // replaying them on it changes nothing either: they are recorded with the chunk's end only.
      if (!this.ports.batchesRecord()) await this.record();
      await this.loadWaiting();
    }
    await this.record();
    if (this.fills.size > 10_000) for (const seq of [...this.fills.keys()].slice(0, 5_000)) this.fills.delete(seq);
    for (const listener of [...this.reachedListeners]) listener();
  }

  poke(): void {
    this.passes.poke();
  }

  private async pass(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const before = this.position;
      const reached = await this.ports.log.follow(this.position, CHUNK, (ticks) => this.applyLogged(ticks));
      this.position = Math.max(this.position, reached);
      if (reached === before) break;
    }
    await this.loadWaiting();
    await this.record();
    for (const listener of [...this.reachedListeners]) listener();
    if (performance.now() - this.lastPrune > 60_000) {
      this.lastPrune = performance.now();
      await this.ports.log.prune(KEEP_MS);
    }
  }

  /** Records the position unless it is recorded already; a failed record is made at the next pass. */
  private async record(): Promise<void> {
    // Never ahead of what is stored: the ticks' changes first, then the position past them.
    await this.ports.stored();
    const position = this.position;
    const started = this.ports.startedHere();
    if (started.length === 0 && this.ports.recordedInBatch() === position) this.recorded = position;
    if (this.recorded === position) return;
    await this.ports.log.setPosition(this.ports.engineId, position, started);
    this.ports.recordedHere(started);
    this.recorded = position;
  }

  /** Loads the taken accounts this engine has reached, all in one go (a takeover brings many). */
  private async loadWaiting(): Promise<void> {
    const due: number[] = [];
    /** Accounts left behind, by the tick they were left at: each group is replayed together. */
    const behind = new Map<number, number[]>();
    for (const [accountId, at] of this.waiting) {
      if (at > this.position) continue;
      this.waiting.delete(accountId);
      if (!this.ports.holds(accountId)) continue;
      if (at < this.position) behind.set(at, [...(behind.get(at) ?? []), accountId]);
      due.push(accountId);
    }
    for (const [at, accountIds] of behind) {
      await this.ports.catchUp(accountIds, await this.ports.log.between(at, this.position));
      this.ports.logger.info({ accountIds, from: at, to: this.position }, 'engine replayed the ticks accounts missed since their last holder stopped');
    }
    if (due.length === 0) return;
    await this.ports.load(due);
    this.recorded = -1;
    await this.record();
    this.ports.logger.info({ accountIds: due, tick: this.position }, 'engine runs taken accounts from the tick their last holder stopped at');
  }
}
