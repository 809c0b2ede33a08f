/**
 * The paper market's replay of the shipped candles as a server runs it: prices come from the data,
 * times from the wall clock, and the position in the data is stored, so a restart continues where
 * the last run stopped instead of rewinding to the period's start.
 */
import type { PriceFeed, TickSink } from './price-feed.ts';
import { ReplayFeed, type ReplaySource } from './replay-feed.ts';

export interface ReplayPositionStore {
  /** The data time of the last batch delivered in this period, if it ran before. */
  load(period: string): Promise<Date | undefined>;
  save(period: string, position: Date): Promise<void>;
}

export interface ResumingReplayOptions {
  /** The data from this time on (earlier data may come along; the replay skips it). */
  sources: (from: Date) => ReplaySource[];
  speed: number;
  /** Where the replayed period starts, and what its stored position is kept under. */
  from: Date;
  positions: ReplayPositionStore;
  now: () => Date;
  /** Positions are stored at most this often (and once more at stop). */
  saveEveryMs: number;
  onStart?: (from: Date, resumed: boolean) => void;
  onError?: (error: unknown) => void;
  onEnd?: () => void;
}

export class ResumingReplay implements PriceFeed {
  readonly kind = 'replay';
  private feed: ReplayFeed | undefined;
  private saving: Promise<void> = Promise.resolve();
  private lastSavedAt = 0;
  private position: Date | undefined;
  private period = '';

  constructor(private readonly options: ResumingReplayOptions) {}

  async start(sink: TickSink): Promise<void> {
    this.period = this.options.from.toISOString();
    const stored = await this.options.positions.load(this.period);
    const start = stored === undefined ? this.options.from : new Date(stored.getTime() + 1);
    this.options.onStart?.(start, stored !== undefined);
    this.feed = new ReplayFeed({
      sources: this.options.sources(start),
      speed: this.options.speed,
      from: start,
      stampWith: this.options.now,
      onPosition: (at) => this.moved(at),
      ...(this.options.onError === undefined ? {} : { onError: this.options.onError }),
      ...(this.options.onEnd === undefined ? {} : { onEnd: this.options.onEnd }),
    });
    await this.feed.start(sink);
  }

  async stop(): Promise<void> {
    await this.feed?.stop();
    if (this.position !== undefined) this.save(this.position);
    await this.saving;
  }

  private moved(at: Date): void {
    this.position = at;
    if (this.options.now().getTime() - this.lastSavedAt >= this.options.saveEveryMs) this.save(at);
  }

  private save(at: Date): void {
    this.lastSavedAt = this.options.now().getTime();
    this.saving = this.saving
      .then(() => this.options.positions.save(this.period, at))
      .catch((error) => this.options.onError?.(error));
  }
}
