/**
 * Turns successive reports of the same orders into order updates. Exchanges report cumulative
 * figures (filled so far, quote so far, fee so far); each growth of the filled amount becomes one
 * fill whose price is the average of that increment and whose fee is the fee's increment. Reports
 * older than what was already seen (a poll racing a stream) are ignored.
 */
import { ZERO } from '../../shared/decimal.ts';
import type { ExchangeOrder, OrderUpdate } from '../exchange.ts';

/** Finished orders remembered so that late reports of them stay silent. */
const FINISHED_KEPT = 1000;

export class OrderTracker {
  private readonly latestById = new Map<string, ExchangeOrder>();
  private finished = 0;

  latest(orderId: string): ExchangeOrder | undefined {
    return this.latestById.get(orderId);
  }

  latestByClientOrderId(clientOrderId: string, pair: string): ExchangeOrder | undefined {
    for (const order of this.latestById.values()) {
      if (order.clientOrderId === clientOrderId && order.pair === pair) return order;
    }
    return undefined;
  }

  open(): ExchangeOrder[] {
    return [...this.latestById.values()].filter((order) => order.status === 'open');
  }

  forget(orderId: string): void {
    const order = this.latestById.get(orderId);
    if (!order) return;
    this.latestById.delete(orderId);
    if (order.status !== 'open') this.finished -= 1;
  }

  /**
   * The update a new report of an order amounts to, if any. `maker` says how the new fill was
   * made when the exchange told; otherwise a fill of a limit order seen resting before is maker.
   */
  observe(order: ExchangeOrder, maker?: boolean): OrderUpdate | undefined {
    const previous = this.latestById.get(order.id);
    if (previous && order.filled.lt(previous.filled)) return undefined;
    this.remember(order, previous);
    const amount = order.filled.minus(previous?.filled ?? ZERO);
    if (amount.gt(ZERO)) {
      const total = order.filledTotal.minus(previous?.filledTotal ?? ZERO);
      const fee = order.fee.minus(previous?.fee ?? ZERO);
      return {
        order,
        fill: {
          orderId: order.id,
          clientOrderId: order.clientOrderId,
          pair: order.pair,
          side: order.side,
          price: total.gt(ZERO) ? total.div(amount) : (order.price ?? ZERO),
          amount,
          fee: fee.gt(ZERO) ? fee : ZERO,
          feeCurrency: order.feeCurrency,
          maker: maker ?? (order.type === 'limit' && previous !== undefined),
          at: order.updatedAt,
        },
      };
    }
    const changed = previous ? order.status !== previous.status : order.status !== 'open';
    return changed ? { order } : undefined;
  }

  private remember(order: ExchangeOrder, previous: ExchangeOrder | undefined): void {
    this.latestById.set(order.id, order);
    if (order.status !== 'open' && (previous === undefined || previous.status === 'open')) this.finished += 1;
    if (this.finished > FINISHED_KEPT) this.dropOldestFinished();
  }

  private dropOldestFinished(): void {
    for (const [id, order] of this.latestById) {
      if (order.status === 'open') continue;
      this.latestById.delete(id);
      this.finished -= 1;
      return;
    }
  }
}
