/**
 * The feed for `PAPER_FEED=manual`: it produces nothing by itself. Prices move only when ticks are
 * posted to the ext/paper/ticks endpoint, which applies them directly and answers when everything
 * they caused has been processed and stored.
 */
import type { PriceFeed } from './price-feed.ts';

export class ManualFeed implements PriceFeed {
  readonly kind = 'manual';

  async start(): Promise<void> {}

  async stop(): Promise<void> {}
}
