/**
 * The leases this engine holds, and the rule that keeps two engines from acting for one account:
 * - the database decides who holds a lease (its clock dates the expiry; the epoch fences writes);
 * - this engine stops sending orders for an account once its lease ran out by its own monotonic
 *   clock, counted from before the renewal was asked for and less a margin, so it stops before
 *   the database would let anyone else take the account;
 * - a renewal that no longer finds a lease means another engine took it: the account is dropped.
 * While the database is unreachable renewals fail, sending stops at expiry, and the first renewal
 * that gets through either restores the leases (nobody took them) or reports them lost.
 */
import type { HeldLease, LeaseStore } from './lease-store.ts';

export interface LeaseLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface AccountLeasesPorts {
  store: LeaseStore;
  engineId: string;
  leaseMs: number;
  logger: LeaseLogger;
  /** Called when a lease turned out to be another engine's: the account's work must be dropped. */
  onLost(accountId: number): void;
  /** A monotonic clock in milliseconds. */
  monotonic?: () => number;
}

interface Held {
  epoch: number;
  /** Monotonic time after which this engine sends nothing for the account until renewed. */
  actUntil: number;
}

/** The share of the lease kept in reserve for an order already on its way when the lease ends. */
const STOP_MARGIN = 0.2;

export class AccountLeases {
  private readonly held = new Map<number, Held>();
  private readonly monotonic: () => number;
  private renewing: Promise<void> | undefined;

  constructor(private readonly ports: AccountLeasesPorts) {
    this.monotonic = ports.monotonic ?? (() => performance.now());
  }

  get leaseMs(): number {
    return this.ports.leaseMs;
  }

  owns(accountId: number): boolean {
    return this.held.has(accountId);
  }

  /** Whether this engine may send orders for the account now, by its own clock. */
  mayAct(accountId: number): boolean {
    const held = this.held.get(accountId);
    return held !== undefined && this.monotonic() < held.actUntil;
  }

  accountIds(): number[] {
    return [...this.held.keys()].sort((a, b) => a - b);
  }

  /** The epochs the batch guard checks. */
  epochs(): ReadonlyMap<number, number> {
    return new Map([...this.held].map(([accountId, held]) => [accountId, held.epoch]));
  }

  /** Takes the account if it is free or its lease expired; answers whether this engine holds it. */
  async take(accountId: number): Promise<boolean> {
    return (await this.takeAll([accountId])).length === 1;
  }

  /**
   * Takes, in one statement, each account that is free or whose lease expired (a takeover brings
   * hundreds); answers those of them this engine holds now.
   */
  async takeAll(accountIds: readonly number[]): Promise<number[]> {
    const wanted = accountIds.filter((accountId) => !this.held.has(accountId));
    if (wanted.length > 0) {
      const askedAt = this.monotonic();
      const epochs = await this.ports.store.take(this.ports.engineId, wanted, this.ports.leaseMs);
      for (const [accountId, epoch] of epochs) {
        this.held.set(accountId, { epoch, actUntil: this.deadline(askedAt) });
        this.ports.logger.info({ accountId, epoch, engineId: this.ports.engineId }, 'engine took an account');
      }
    }
    return accountIds.filter((accountId) => this.held.has(accountId));
  }

  /** Renews every lease (the caller's heartbeat); a lease the database no longer has for this engine is lost. */
  renew(): Promise<void> {
    this.renewing ??= this.renewOnce().finally(() => (this.renewing = undefined));
    return this.renewing;
  }

  /** The batch guard found the account leased to another engine. */
  lost(accountId: number): void {
    if (!this.held.delete(accountId)) return;
    this.ports.logger.warn({ accountId, engineId: this.ports.engineId }, 'engine lost an account to another engine');
    this.ports.onLost(accountId);
  }

  /** Hands every lease back at once (a clean stop), so other engines take the accounts now. */
  async handBack(release: () => Promise<void> = () => this.ports.store.handBack(this.ports.engineId)): Promise<void> {
    const accountIds = this.accountIds();
    // Held until released: the release may first apply the last ticks, whose writes are fenced.
    await release();
    this.held.clear();
    if (accountIds.length > 0) this.ports.logger.info({ accountIds, engineId: this.ports.engineId }, 'engine handed back its accounts');
  }

  private async renewOnce(): Promise<void> {
    const askedAt = this.monotonic();
    const before = new Map(this.held);
    let leases: HeldLease[];
    try {
      leases = await this.ports.store.heartbeat(this.ports.engineId, this.ports.leaseMs);
    } catch (error) {
      this.ports.logger.warn({ err: error, engineId: this.ports.engineId }, 'lease renewal failed; orders stop when the leases run out');
      return;
    }
    const renewed = new Map(leases.map((lease) => [lease.accountId, lease.epoch]));
    for (const [accountId, held] of before) {
      const current = this.held.get(accountId);
      // Changed meanwhile (lost, or taken again): the renewal says nothing about it.
      if (current !== held) continue;
      if (renewed.get(accountId) === held.epoch) current.actUntil = this.deadline(askedAt);
      else this.lost(accountId);
    }
  }

  private deadline(askedAt: number): number {
    return askedAt + this.ports.leaseMs * (1 - STOP_MARGIN);
  }
}
