/**
 * Caps on websocket connections, so that one client cannot hold the server's sockets and memory:
 * in all, per client address (checked at the upgrade, answered 503 or 429), and per API key
 * (connections holding a subscription signed by it; one more is refused as reject_subscription).
 */

export interface StreamLimits {
  total: number;
  perAddress: number;
  perKey: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = { total: 10_000, perAddress: 2_000, perKey: 100 };

export class ConnectionLimits {
  private open = 0;
  private readonly byAddress = new Map<string, number>();
  private readonly byKey = new Map<string, Set<object>>();

  constructor(private readonly limits: StreamLimits) {}

  /** Takes a place for a new connection, or answers the HTTP status that refuses it. */
  admit(address: string): 429 | 503 | undefined {
    if (this.open >= this.limits.total) return 503;
    const fromAddress = this.byAddress.get(address) ?? 0;
    if (fromAddress >= this.limits.perAddress) return 429;
    this.open += 1;
    this.byAddress.set(address, fromAddress + 1);
    return undefined;
  }

  /** Counts the connection under each key, unless one of them is at its cap (then none). */
  claimKeys(connection: object, apiKeys: readonly string[]): boolean {
    const full = apiKeys.some((key) => {
      const holders = this.byKey.get(key);
      return holders !== undefined && !holders.has(connection) && holders.size >= this.limits.perKey;
    });
    if (full) return false;
    for (const key of apiKeys) {
      let holders = this.byKey.get(key);
      if (!holders) this.byKey.set(key, (holders = new Set()));
      holders.add(connection);
    }
    return true;
  }

  leave(connection: object, address: string): void {
    this.open -= 1;
    const fromAddress = (this.byAddress.get(address) ?? 1) - 1;
    if (fromAddress === 0) this.byAddress.delete(address);
    else this.byAddress.set(address, fromAddress);
    for (const [key, holders] of this.byKey) {
      if (holders.delete(connection) && holders.size === 0) this.byKey.delete(key);
    }
  }
}
