/** Prices move only when ticks are pushed (the ext/paper/ticks endpoint, tests, scripts). */
import type { MarketTick } from '../domain/market/market-tick.ts';
import type { PriceFeed, TickSink } from './price-feed.ts';

export class ManualFeed implements PriceFeed {
  readonly kind = 'manual';
  private sink: TickSink | undefined;
  /** Pushes are processed one batch at a time, in the order they arrive. */
  private queue: Promise<void> = Promise.resolve();

  async start(sink: TickSink): Promise<void> {
    this.sink = sink;
  }

  async stop(): Promise<void> {
    await this.queue;
    this.sink = undefined;
  }

  /** Resolves once the batch and everything it caused has been processed. */
  push(ticks: MarketTick[]): Promise<void> {
    const sink = this.sink;
    if (!sink) return Promise.reject(new Error('The manual feed is not started'));
    const processed = this.queue.then(() => sink(ticks));
    this.queue = processed.catch(() => undefined);
    return processed;
  }
}
