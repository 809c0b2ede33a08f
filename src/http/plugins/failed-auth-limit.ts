/**
 * Failed authentications per client address in fixed one-minute windows. Past the limit, the
 * address is refused on every signed route until its window ends, valid keys included: otherwise
 * guessing would go on, only told apart by the answer. Addresses are forgotten when their window
 * ends; at most MAX_ADDRESSES are tracked, the oldest windows dropped first.
 */
const WINDOW_MS = 60_000;
const MAX_ADDRESSES = 10_000;

interface Window {
  startedAt: number;
  failures: number;
}

export class FailedAuthLimit {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly perMinute: number,
    private readonly nowMs: () => number,
  ) {}

  /** Seconds until the address may try again, or 0 when it may now. */
  retryAfter(address: string): number {
    const window = this.current(address);
    if (window === undefined || window.failures < this.perMinute) return 0;
    return Math.max(1, Math.ceil((window.startedAt + WINDOW_MS - this.nowMs()) / 1000));
  }

  recordFailure(address: string): void {
    if (this.perMinute === 0) return;
    const window = this.current(address) ?? { startedAt: this.nowMs(), failures: 0 };
    window.failures += 1;
    this.windows.delete(address);
    this.windows.set(address, window);
    // Maps iterate in insertion order, so the first entries are the oldest windows.
    for (const oldest of this.windows.keys()) {
      if (this.windows.size <= MAX_ADDRESSES) break;
      this.windows.delete(oldest);
    }
  }

  private current(address: string): Window | undefined {
    const window = this.windows.get(address);
    if (window !== undefined && window.startedAt + WINDOW_MS <= this.nowMs()) {
      this.windows.delete(address);
      return undefined;
    }
    return window;
  }
}
