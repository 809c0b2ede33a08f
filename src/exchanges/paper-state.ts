/**
 * The port through which the paper exchange's state is kept: what changed after each batch of
 * market events or orders, and everything needed to resume after a restart.
 */
import type { Decimal } from '../shared/decimal.ts';
import type { Balance, ExchangeOrder, Fill } from './exchange.ts';

export interface PaperChanges {
  balances: Array<{ accountId: number; balances: Balance[] }>;
  orders: Array<{ accountId: number; order: ExchangeOrder }>;
  fills: Array<{ accountId: number; fill: Fill }>;
}

export interface PaperFees {
  maker: Decimal;
  taker: Decimal;
}

export interface StoredPaperAccount {
  accountId: number;
  balances: Balance[];
  openOrders: ExchangeOrder[];
  /** Undefined when the account pays the default fees. */
  fees?: PaperFees;
}

export interface StoredPaperState {
  accounts: StoredPaperAccount[];
  /** The highest order sequence ever used, closed orders included. */
  lastSequence: number;
}

export interface PaperStateStore {
  /** Writes one batch of changes atomically. */
  save(changes: PaperChanges): Promise<void>;
  load(): Promise<StoredPaperState>;
  saveFees(accountId: number, fees: PaperFees): Promise<void>;
  findOrder(accountId: number, clientOrderId: string): Promise<ExchangeOrder | undefined>;
}
