/**
 * Polled prices for one account: the pairs it has asked a price for or placed orders on, fetched
 * together at a fixed pace while someone listens.
 */
import type { Ticker, Unsubscribe } from '../exchange.ts';
import type { AccountAccess } from './ccxt-account-access.ts';
import { fetchTickersFor } from './ccxt-tickers.ts';
import { RepeatingTask } from './repeating-task.ts';

export class TickerPolling {
  private readonly pairs = new Set<string>();
  private readonly listeners = new Set<(ticker: Ticker) => void>();
  private readonly polling: RepeatingTask;

  constructor(
    private readonly access: AccountAccess,
    intervalMs: number,
    onBackgroundError: (error: unknown) => void,
  ) {
    this.polling = new RepeatingTask(() => this.pollOnce().catch(onBackgroundError), () => intervalMs);
  }

  watch(pair: string): void {
    this.pairs.add(pair);
  }

  subscribe(listener: (ticker: Ticker) => void): Unsubscribe {
    this.listeners.add(listener);
    this.polling.start();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.polling.stop();
    };
  }

  stop(): void {
    this.polling.stop();
  }

  async pollOnce(): Promise<void> {
    if (this.pairs.size === 0) return;
    const tickers = await this.access.call((client, catalog) =>
      fetchTickersFor(client, catalog, [...this.pairs], this.access.now),
    );
    for (const ticker of tickers) for (const listener of this.listeners) listener(ticker);
  }
}
