/**
 * The port through which engines that share one database agree on which of them steps each
 * exchange account: a lease per account, renewed by heartbeat, with an epoch as fencing token.
 */

export interface EngineIdentity {
  id: string;
  host: string;
  pid: number;
  role: string;
}

export interface HeldLease {
  accountId: number;
  epoch: number;
}

export interface LeaseStore {
  /** Records a starting engine in the registry. */
  register(engine: EngineIdentity): Promise<void>;
  /** Marks the engine seen and renews every lease it still holds; answers those. */
  heartbeat(engineId: string, leaseMs: number): Promise<HeldLease[]>;
  /**
   * Takes each account no engine holds or whose holder's lease expired, in one statement; answers
   * the new epochs of those taken.
   */
  take(engineId: string, accountIds: readonly number[], leaseMs: number): Promise<Map<number, number>>;
  /** Accounts with running automations whose lease is free, expired or missing. */
  unowned(): Promise<number[]>;
  /** Milliseconds until the first lease of another engine expires, if one does within `withinMs`. */
  nextForeignExpiry(engineId: string, withinMs: number): Promise<number | undefined>;
  /** How many accounts each engine seen within the lease holds now. */
  loads(leaseMs: number): Promise<Map<string, number>>;
  /** Hands back every lease the engine holds and leaves the registry. */
  handBack(engineId: string): Promise<void>;
}

/** A batch touched an account whose lease this engine no longer holds at the epoch it knows. */
export class LeaseLostError extends Error {
  override readonly name = 'LeaseLostError';

  constructor(readonly accountIds: readonly number[]) {
    super(`The lease of account ${accountIds.join(', ')} is held by another engine now`);
  }
}

/** Another engine owns the account: the API passes the action to it as a stored command (app-commands.ts). */
export class AccountOwnedElsewhereError extends Error {
  override readonly name = 'AccountOwnedElsewhereError';

  constructor(readonly accountId: number) {
    super(`Account ${accountId} is run by another engine`);
  }
}
