/**
 * The paper exchange's store port in memory, for backtests. It keeps what the SQL store keeps
 * (balances, every order, every fill, fees) with the same upsert rules, and hands the fills back
 * in the order they happened for a backtest's report.
 */
import type { Balance, ExchangeOrder, Fill } from '../../exchanges/exchange.ts';
import { orderSequence } from '../../exchanges/paper/paper-venue.ts';
import type { PaperChanges, PaperFees, PaperStateStore, StoredPaperState } from '../../exchanges/paper-state.ts';
import type { Sql } from '../database.ts';

interface StoredOrder {
  accountId: number;
  order: ExchangeOrder;
}

export class MemoryPaperStore implements PaperStateStore {
  private readonly balances = new Map<number, Map<string, Balance>>();
  private readonly orders = new Map<string, StoredOrder>();
  private readonly fees = new Map<number, PaperFees>();
  private readonly fillLog: Array<{ accountId: number; fill: Fill }> = [];

  async save(changes: PaperChanges): Promise<void> {
    for (const { accountId, balances } of changes.balances) {
      let held = this.balances.get(accountId);
      if (!held) this.balances.set(accountId, (held = new Map()));
      for (const balance of balances) {
        const known = held.get(balance.currency);
        if (!known) held.set(balance.currency, { ...balance });
        else {
          known.free = balance.free;
          known.locked = balance.locked;
        }
      }
    }
    for (const { accountId, order } of changes.orders) {
      const known = this.orders.get(order.id);
      if (!known) {
        this.orders.set(order.id, { accountId, order: { ...order } });
        continue;
      }
      // Stored orders are only handed out as copies, so the row is brought up to date in place.
      known.order.filled = order.filled;
      known.order.filledTotal = order.filledTotal;
      known.order.fee = order.fee;
      known.order.status = order.status;
      known.order.updatedAt = order.updatedAt;
    }
    for (const { accountId, fill } of changes.fills) this.fillLog.push({ accountId, fill: { ...fill } });
  }

  /**
   * The paper exchange's changes taken by the engine's batch, which the in-memory engine store
   * keeps with it: kept as `save` keeps them, journaled orders and fills included (a backtest's
   * report reads the fills here).
   */
  async writeIn(_tx: Sql, changes: PaperChanges): Promise<readonly number[]> {
    await this.save(changes);
    return [];
  }

  async saveFees(accountId: number, fees: PaperFees): Promise<void> {
    this.fees.set(accountId, { ...fees });
  }

  async findOrder(accountId: number, clientOrderId: string): Promise<ExchangeOrder | undefined> {
    for (const stored of this.orders.values()) {
      if (stored.accountId === accountId && stored.order.clientOrderId === clientOrderId) return { ...stored.order };
    }
    return undefined;
  }

  async load(): Promise<StoredPaperState> {
    const accounts = [...this.balances.keys()].sort((a, b) => a - b).map((accountId) => {
      const fees = this.fees.get(accountId);
      return {
        accountId,
        balances: [...this.balances.get(accountId)!.values()]
          .sort((a, b) => (a.currency < b.currency ? -1 : 1))
          .map((balance) => ({ ...balance })),
        openOrders: [...this.orders.values()]
          .filter((stored) => stored.accountId === accountId && stored.order.status === 'open')
          .map((stored) => ({ ...stored.order }))
          .sort((a, b) => orderSequence(a.id) - orderSequence(b.id)),
        ...(fees ? { fees: { ...fees } } : {}),
      };
    });
    let lastSequence = 0;
    for (const id of this.orders.keys()) lastSequence = Math.max(lastSequence, orderSequence(id));
    return { accounts, lastSequence };
  }

  /** How many fills were stored, of every account. */
  get fillCount(): number {
    return this.fillLog.length;
  }

  /** Every fill of the account, in the order the venue made them. */
  fills(accountId: number): Fill[] {
    return this.fillLog.filter((entry) => entry.accountId === accountId).map((entry) => entry.fill);
  }
}
