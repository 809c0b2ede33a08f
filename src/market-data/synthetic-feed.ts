/**
 * A seeded random walk per pair, for demos and tests: the same seed gives the same prices. Steps
 * are multiplicative (up to ±`maxStepBasisPoints` per tick) and rounded to the pair's price step.
 */
import type { MarketTick } from '../domain/market/market-tick.ts';
import { dec, type Decimal, roundToStep } from '../shared/decimal.ts';
import type { PriceFeed, TickSink } from './price-feed.ts';

export interface SyntheticPair {
  pair: string;
  startPrice: Decimal;
  priceStep: Decimal;
}

export interface SyntheticFeedOptions {
  pairs: SyntheticPair[];
  seed: number;
  intervalMs: number;
  maxStepBasisPoints?: number;
  /** The time of the first tick; later ticks are `intervalMs` apart. */
  startAt: Date;
  onError?: (error: unknown) => void;
}

export class SyntheticFeed implements PriceFeed {
  readonly kind = 'synthetic';
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private running: Promise<void> = Promise.resolve();
  private readonly random: () => number;
  private readonly prices = new Map<string, Decimal>();
  private time: number;

  constructor(private readonly options: SyntheticFeedOptions) {
    this.random = mulberry32(options.seed);
    this.time = options.startAt.getTime();
    for (const pair of options.pairs) this.prices.set(pair.pair, pair.startPrice);
  }

  /** The next batch of the walk; used by the timer, and directly by tests and benchmarks. */
  nextBatch(): MarketTick[] {
    const maxStep = (this.options.maxStepBasisPoints ?? 20) / 10_000;
    const at = new Date(this.time);
    this.time += this.options.intervalMs;
    return this.options.pairs.map((pair) => {
      const move = (this.random() * 2 - 1) * maxStep;
      const previous = this.prices.get(pair.pair)!;
      const next = roundToStep(previous.times(dec(1 + move)), pair.priceStep);
      const price = next.gt(0) ? next : pair.priceStep;
      this.prices.set(pair.pair, price);
      return { pair: pair.pair, price, at };
    });
  }

  async start(sink: TickSink): Promise<void> {
    this.stopped = false;
    // The next tick is scheduled after the sink is done, so a slow sink never builds a backlog.
    const step = async () => {
      try {
        await sink(this.nextBatch());
      } catch (error) {
        this.options.onError?.(error);
      }
      if (!this.stopped) this.schedule(step);
    };
    this.schedule(step);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(step: () => Promise<void>): void {
    this.timer = setTimeout(() => {
      this.running = step();
    }, this.options.intervalMs);
  }
}

/** A small, well-known seeded generator (Mulberry32); Math.random cannot be seeded. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
