/**
 * Whether one account's exchange is reachable, judged from the outcome of every request made for
 * it (placements, cancellations, polls of orders and prices). Requests the exchange did not
 * answer (network errors, timeouts, the exchange down or in maintenance) count against it, a
 * success for it; other errors (a rate limit, a refused order) neither. The connection is lost
 * once `lostAfter` requests in a row went unanswered, and recovered at the next success: each
 * transition is reported once.
 */
import type { ConnectionChange, Unsubscribe } from '../exchange.ts';

export class ConnectionWatch {
  private readonly listeners = new Set<(change: ConnectionChange) => void>();
  private failures = 0;
  private since: Date | undefined;
  private lastError = '';
  private lost = false;

  constructor(
    private readonly lostAfter: number,
    private readonly now: () => Date,
  ) {}

  subscribe(listener: (change: ConnectionChange) => void): Unsubscribe {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  answered(): void {
    const { since, failures, lastError } = this;
    this.failures = 0;
    this.since = undefined;
    if (!this.lost || since === undefined) return;
    this.lost = false;
    this.emit({ state: 'recovered', since, at: this.now(), error: lastError, failures });
  }

  unanswered(error: string): void {
    this.failures += 1;
    this.since ??= this.now();
    this.lastError = error;
    if (this.lost || this.failures < this.lostAfter) return;
    this.lost = true;
    this.emit({ state: 'lost', since: this.since, at: this.now(), error, failures: this.failures });
  }

  private emit(change: ConnectionChange): void {
    for (const listener of this.listeners) listener(change);
  }
}
