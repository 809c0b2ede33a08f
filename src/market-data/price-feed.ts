/**
 * Price feeds deliver market ticks in batches to one sink. A feed waits for the sink's promise
 * before it sends the next batch, so every fill and every reaction to a batch is processed before
 * the market moves on: replays are deterministic and a slow engine slows the feed, not the truth.
 */
import type { MarketTick } from '../domain/market/market-tick.ts';

export type TickSink = (ticks: MarketTick[]) => Promise<void>;

export type FeedKind = 'live' | 'replay' | 'synthetic' | 'manual';

export interface PriceFeed {
  readonly kind: FeedKind;
  start(sink: TickSink): Promise<void>;
  stop(): Promise<void>;
}
