/**
 * Replays shipped candles (each walked open → first extreme → second extreme → close) or trades,
 * for one or more pairs merged in time order. `speed` is how many times faster than real time the
 * replay runs; 0 replays as fast as the sink takes the ticks (backtests and benchmarks), still
 * letting the process do other work between batches.
 */
import { intraCandlePath, type Candle, type PathPoint } from '../domain/market/candle.ts';
import type { MarketTick } from '../domain/market/market-tick.ts';
import type { Trade } from './market-files.ts';
import type { PriceFeed, TickSink } from './price-feed.ts';

export type ReplaySource =
  | { pair: string; candles: Candle[]; candleDurationMs: number }
  | { pair: string; trades: Trade[] }
  | { pair: string; points: PathPoint[] };

export interface ReplayFeedOptions {
  sources: ReplaySource[];
  speed: number;
  /** Moves every time by one offset so that the replay's first tick happens at this time. */
  shiftTo?: Date;
  /** Dates every tick with this clock when it is delivered: the data gives prices, not times. */
  stampWith?: () => Date;
  /** Skips the data before this time (a period chosen, or where an earlier run stopped). */
  from?: Date;
  /** Told the data time of each batch once the sink has taken it. */
  onPosition?: (at: Date) => void;
  onError?: (error: unknown) => void;
  onEnd?: () => void;
}

export class ReplayFeed implements PriceFeed {
  readonly kind = 'replay';
  private stopped = true;
  private running: Promise<void> = Promise.resolve();

  constructor(private readonly options: ReplayFeedOptions) {}

  /** Every tick of the replay, grouped by time, in order. */
  *batches(): Generator<MarketTick[]> {
    const streams = this.options.sources.map((source) => ticksOf(source));
    let offset: number | undefined;
    const heads = streams.map((stream) => stream.next());
    for (;;) {
      let earliest: number | undefined;
      for (const head of heads) {
        if (!head.done && (earliest === undefined || head.value.at.getTime() < earliest)) {
          earliest = head.value.at.getTime();
        }
      }
      if (earliest === undefined) return;
      const batch: MarketTick[] = [];
      heads.forEach((head, index) => {
        while (!head.done && head.value.at.getTime() === earliest) {
          batch.push(head.value);
          head = heads[index] = streams[index]!.next();
        }
      });
      if (this.options.from !== undefined && earliest < this.options.from.getTime()) continue;
      offset ??= this.options.shiftTo === undefined ? 0 : this.options.shiftTo.getTime() - earliest;
      yield offset === 0 ? batch : batch.map((tick) => ({ ...tick, at: new Date(tick.at.getTime() + offset!) }));
    }
  }

  async start(sink: TickSink): Promise<void> {
    this.stopped = false;
    this.running = this.run(sink);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async run(sink: TickSink): Promise<void> {
    let previous: number | undefined;
    for (const batch of this.batches()) {
      if (this.stopped) return;
      const at = batch[0]!.at;
      // A sink that needs no I/O resolves at once; without a real pause the replay would hold the
      // process until its end, and the server would not even listen.
      const pause = this.options.speed > 0 && previous !== undefined ? (at.getTime() - previous) / this.options.speed : 0;
      await new Promise((resolve) => (pause > 0 ? setTimeout(resolve, pause) : setImmediate(resolve)));
      if (this.stopped) return;
      previous = at.getTime();
      const stamp = this.options.stampWith;      try {
        const now = stamp?.();
        await sink(now === undefined ? batch : batch.map((tick) => ({ ...tick, at: now })));
        this.options.onPosition?.(at);
      } catch (error) {
        this.options.onError?.(error);
      }
    }
    this.options.onEnd?.();
  }
}

function* ticksOf(source: ReplaySource): Generator<MarketTick> {
  if ('points' in source) {
    for (const point of source.points) yield { pair: source.pair, price: point.price, at: point.at };
    return;
  }
  if ('trades' in source) {
    for (const trade of source.trades) {
      yield { pair: source.pair, price: trade.price, volume: trade.amount, at: trade.at };
    }
    return;
  }
  for (const candle of source.candles) {
    for (const point of intraCandlePath(candle, source.candleDurationMs)) {
      yield { pair: source.pair, price: point.price, at: point.at };
    }
  }
}
