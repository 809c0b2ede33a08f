/**
 * The port through which the paper exchange's state is kept: what changed after each batch of
 * market events or orders, and everything needed to resume after a restart.
 */
import type { Decimal } from '../shared/decimal.ts';
import type { Sql } from '../store/database.ts';
import type { Balance, ExchangeOrder, Fill } from './exchange.ts';

export interface PaperChanges {
  /** Every balance of each account whose balances moved. */
  balances: Array<{ accountId: number; balances: Balance[] }>;
  /**
   * `journaled`: an order of the engine's journal, whose journal row is its only record (the
   * changes are then written in the engine's batch, with that row).
   */
  orders: Array<{ accountId: number; order: ExchangeOrder; journaled?: boolean }>;
  /**
   * `journaled`: a fill that filled an order of the engine's journal at once, as a maker: that
   * order's row records it (its price, amount, fee and `filled_at`), so it gets no row of its own.
   */
  fills: Array<{ accountId: number; fill: Fill; journaled?: boolean }>;
}

/** An account's balances as stored: JSON, `[[currency, free, locked], ...]` in the order given. */
export function balancesText(balances: readonly Balance[]): string {
  return JSON.stringify(balances.map((b) => [b.currency, b.free.toFixed(), b.locked.toFixed()]));
}

export interface PaperFees {
  maker: Decimal;
  taker: Decimal;
}

export interface StoredPaperAccount {
  accountId: number;
  balances: Balance[];
  openOrders: ExchangeOrder[];
  /** The ids of the open orders whose record is the engine's journal row (`PaperChanges`). */
  journaled?: string[];
  /** Undefined when the account pays the default fees. */
  fees?: PaperFees;
}

export interface StoredPaperState {
  accounts: StoredPaperAccount[];
  /** The highest order sequence ever used, closed orders included. */
  lastSequence: number;
}

/**
 * With several engines on one database: `held` changes (market fills, the engine's orders) are
 * written only for accounts this engine holds the lease of, at its epoch; `free` ones (opening an
 * account, its fees) unless another live engine holds it.
 */
export type PaperWrite = 'held' | 'free';

export interface PaperStateStore {
  /** Writes one batch of changes atomically; answers the accounts whose changes were refused. */
  save(changes: PaperChanges, write?: PaperWrite): Promise<readonly number[] | void>;
  load(): Promise<StoredPaperState>;
  /** One account as stored (for an engine that takes it, or reads it while another runs it). */
  loadAccount?(accountId: number): Promise<StoredPaperAccount | undefined>;
  /** The stored accounts among these, read together (those holding nothing are left out). */
  loadAccounts?(accountIds: readonly number[]): Promise<StoredPaperAccount[]>;
  /** Reserves a block of order ids no other venue on the database uses. */
  reserveIds?(): Promise<{ from: number; to: number }>;
  saveFees(accountId: number, fees: PaperFees): Promise<void>;
  /**
   * Writes changes inside another transaction (the engine's batch). With leases, as `save` does:
   * the accounts in `opened` unless another live engine holds them ('free'), the others only when
   * held ('held'); answers the accounts whose changes were refused. The balances of the accounts
   * in `logged` were logged with the batch's event rows (`CompanionWrite.balances`): not written.
   */
  writeIn?(tx: Sql, changes: PaperChanges, opened?: ReadonlySet<number>, logged?: ReadonlySet<number>): Promise<readonly number[]>;
  findOrder(accountId: number, clientOrderId: string): Promise<ExchangeOrder | undefined>;
}
