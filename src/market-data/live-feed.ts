/**
 * Public prices from a real exchange, polled (no keys needed). `start` makes one request first and
 * fails when the exchange cannot be reached, so the caller can fall back to another feed.
 */
import type { Ticker } from '../exchanges/exchange.ts';
import type { MarketTick } from '../domain/market/market-tick.ts';
import type { PriceFeed, TickSink } from './price-feed.ts';

export interface LiveFeedOptions {
  pairs: string[];
  fetchTickers(pairs: string[]): Promise<Ticker[]>;
  intervalMs: number;
  onError?: (error: unknown) => void;
}

export class LiveFeed implements PriceFeed {
  readonly kind = 'live';
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private running: Promise<void> = Promise.resolve();

  constructor(private readonly options: LiveFeedOptions) {}

  async start(sink: TickSink): Promise<void> {
    const first = await this.options.fetchTickers(this.options.pairs);
    this.stopped = false;
    await sink(first.map(toTick));
    this.schedule(sink);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(sink: TickSink): void {
    this.timer = setTimeout(() => {
      this.running = (async () => {
        try {
          await sink((await this.options.fetchTickers(this.options.pairs)).map(toTick));
        } catch (error) {
          this.options.onError?.(error);
        }
        if (!this.stopped) this.schedule(sink);
      })();
    }, this.options.intervalMs);
  }
}

function toTick(ticker: Ticker): MarketTick {
  return { pair: ticker.pair, price: ticker.last, bid: ticker.bid, ask: ticker.ask, at: ticker.at };
}
