/**
 * Sends journaled orders and cancellations to the exchanges and reports the outcome back to the
 * engine as events, and reconciles the journal with the exchanges after a restart.
 */
import type { EngineInput } from '../domain/automation.ts';
import { ExchangeError, type OrderUpdate } from '../exchanges/exchange.ts';
import type { EngineOrder } from './automation-kind.ts';
import { requestOf, type Send } from './batch-writer.ts';
import type { MarketSources } from './market-sources.ts';
import type { OrderJournal } from './order-journal.ts';

export type ExecutorEvent =
  | { type: 'order'; accountId: number; update: OrderUpdate }
  | { type: 'journal'; entry: EngineOrder; input: EngineInput };

interface ExecutorPorts {
  batchOrders?: <T>(work: () => Promise<T>) => Promise<T>;
  logger: { warn(object: object, message: string): void };
  /**
   * Whether orders may go out for the account now (its lease, by this engine's clock); orders
   * held back wait with the unconfirmed ones, and go out once the lease is renewed.
   */
  mayAct?: (accountId: number) => boolean;
}

export class OrderExecutor {
  /** Orders whose sending failed for want of a connection or a price; retried on market activity. */
  private readonly unconfirmed = new Set<EngineOrder>();

  constructor(
    private readonly sources: MarketSources,
    private readonly journal: OrderJournal,
    private readonly ports: ExecutorPorts,
    private readonly report: (event: ExecutorEvent) => void,
  ) {}

  async execute(sends: readonly Send[], now: Date): Promise<void> {
    if (sends.length === 0) return;
    const work = async () => {
      for (const send of sends) await this.send(send, now);
    };
    await (this.ports.batchOrders ? this.ports.batchOrders(work) : work());
  }

  /** Another engine took the account: it checks the account's orders itself. */
  forgetAccount(accountId: number): void {
    for (const entry of this.unconfirmed) if (entry.accountId === accountId) this.unconfirmed.delete(entry);
  }

  hasUnconfirmed(): boolean {
    return this.unconfirmed.size > 0;
  }

  /** Tries the unconfirmed orders again: they may have gone out after all, or can go out now. */
  async retryUnconfirmed(now: Date): Promise<void> {
    if (this.unconfirmed.size === 0) return;
    const entries = [...this.unconfirmed];
    this.unconfirmed.clear();
    await this.reconcile(entries, now);
  }

  /**
   * Looks up each journaled order on its exchange: reports fills and ends the automation missed,
   * sends what was journaled but never reached the exchange, and repeats unfinished cancellations.
   */
  async reconcile(entries: readonly EngineOrder[], now: Date): Promise<void> {
    const resend: Send[] = [];
    for (const entry of entries) {
      if (!this.mayAct(entry.accountId)) {
        this.unconfirmed.add(entry);
        continue;
      }
      let exchange;
      try {
        await this.sources.attach(entry.accountId);
        exchange = this.sources.exchange(entry.accountId);
      } catch (error) {
        this.ports.logger.warn({ err: error, accountId: entry.accountId }, 'account unavailable; its orders are checked later');
        this.unconfirmed.add(entry);
        continue;
      }
      const order = await exchange.findOrder(entry.pair, entry.clientOrderId).catch(() => null);
      if (order === null) {
        this.unconfirmed.add(entry);
        continue;
      }
      if (order === undefined) {
        if (entry.status === 'pending') resend.push({ type: 'place', entry, request: requestOf(entry) });
        else this.report({ type: 'journal', entry, input: this.journal.lost(entry, now) });
        continue;
      }
      this.report({ type: 'order', accountId: entry.accountId, update: { order } });
      if (order.status === 'open' && entry.cancelRequested) resend.push({ type: 'cancel', entry });
    }
    await this.execute(resend, now);
  }

  private mayAct(accountId: number): boolean {
    return this.ports.mayAct?.(accountId) ?? true;
  }

  private async send(send: Send, now: Date): Promise<void> {
    const { entry } = send;
    if (!this.mayAct(entry.accountId)) {
      this.ports.logger.warn({ accountId: entry.accountId, clientOrderId: entry.clientOrderId }, `order ${send.type} held back: the account's lease ran out`);
      this.unconfirmed.add(entry);
      return;
    }
    const exchange = this.sources.exchange(entry.accountId);
    try {
      const order =
        send.type === 'place' ? await exchange.placeOrder(send.request) : await exchange.cancelOrder(entry.pair, entry.clientOrderId);
      this.report({ type: 'order', accountId: entry.accountId, update: { order } });
    } catch (error) {
      if (!(error instanceof ExchangeError) || error.kind === 'unavailable') {
        // The order may or may not have reached the exchange: it stays journaled and the next
        // reconciliation finds out.
        this.ports.logger.warn({ err: error, clientOrderId: entry.clientOrderId }, `order ${send.type} not confirmed`);
        this.unconfirmed.add(entry);
        return;
      }
      if (send.type === 'place') {
        this.report({ type: 'journal', entry, input: this.journal.reject(entry, error.kind, error.message, now) });
      } else if (error.kind === 'order_not_found') {
        await this.reconcile([entry], now);
      } else {
        this.ports.logger.warn({ err: error, clientOrderId: entry.clientOrderId }, 'cancellation refused');
      }
    }
  }
}
