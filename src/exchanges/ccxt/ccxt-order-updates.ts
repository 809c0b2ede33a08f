/**
 * Order updates for one account. Every report of an order (placement, cancellation, a poll, a
 * websocket message) goes through `report`, which maps it, completes missing fee figures from the
 * order's trades, and emits what changed. While someone listens, open orders are polled: one
 * open-orders request per pair, then one order request for each order that left the list. When
 * the exchange streams orders (ccxt.pro `watchOrders`) and streaming is on, the stream reports
 * changes at once and polling slows down to a safety net.
 */
import { type Exchange as CcxtClient, NotSupported, type Order as CcxtOrder, OrderNotFound } from 'ccxt';
import type { ExchangeOrder, OrderUpdate, Unsubscribe } from '../exchange.ts';
import type { AccountAccess } from './ccxt-account-access.ts';
import { fetchOrderParams } from './ccxt-catalog.ts';
import type { MarketCatalog } from './ccxt-market-catalog.ts';
import { feeOfTrades, type KnownOrder, madeAsMaker, toExchangeOrder } from './ccxt-orders.ts';
import type { OrderTracker } from './order-tracker.ts';
import { RepeatingTask } from './repeating-task.ts';

export interface OrderStream {
  watchOrders(): Promise<CcxtOrder[]>;
  close(): Promise<void>;
}

export interface OrderUpdateSettings {
  pollIntervalMs: number;
  /** Polling pace while the stream is healthy. */
  streamingPollIntervalMs: number;
  /** Opens the account's order stream, with markets taken from the given client. */
  openStream: ((marketsFrom: CcxtClient) => OrderStream) | undefined;
  onBackgroundError: (error: unknown) => void;
}

export class OrderUpdates {
  private readonly listeners = new Set<(update: OrderUpdate) => void>();
  private readonly polling: RepeatingTask;
  /** The current streaming run; a run ends when this no longer points at it. */
  private streaming: { stream?: OrderStream } | undefined;
  private streamHealthy = false;

  constructor(
    private readonly access: AccountAccess,
    private readonly tracker: OrderTracker,
    private readonly settings: OrderUpdateSettings,
  ) {
    this.polling = new RepeatingTask(
      () => this.pollOnce().catch(settings.onBackgroundError),
      () => (this.streamHealthy ? settings.streamingPollIntervalMs : settings.pollIntervalMs),
    );
  }

  subscribe(listener: (update: OrderUpdate) => void): Unsubscribe {
    this.listeners.add(listener);
    this.polling.start();
    if (this.settings.openStream && !this.streaming) {
      const run = {};
      this.streaming = run;
      void this.runStream(this.settings.openStream, run);
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
  }

  stop(): void {
    this.polling.stop();
    const stream = this.streaming?.stream;
    this.streaming = undefined;
    this.streamHealthy = false;
    if (stream) stream.close().catch(() => undefined);
  }

  /** Maps a report of an order, emits what changed since the last one, and returns the order. */
  async report(client: CcxtClient, catalog: MarketCatalog, source: CcxtOrder, known: KnownOrder): Promise<ExchangeOrder> {
    const market = known.market ?? catalog.market(catalog.pair(source.symbol ?? '') ?? String(source.symbol));
    const { order, feeKnown } = toExchangeOrder(source, market, { ...known, market }, this.access.now());
    const last = this.tracker.latest(order.id);
    const filledBefore = last?.filled;
    let maker: boolean | undefined;
    if (!feeKnown && last && last.filled.eq(order.filled)) {
      order.fee = last.fee;
      order.feeCurrency = last.feeCurrency;
    } else if (!feeKnown && (filledBefore === undefined || order.filled.gt(filledBefore)) && client.has['fetchOrderTrades']) {
      try {
        const trades = await client.fetchOrderTrades(order.id, catalog.symbol(market.pair));
        const fees = feeOfTrades(trades);
        if (fees.currency !== undefined) {
          order.fee = fees.fee;
          order.feeCurrency = fees.currency;
        }
        maker = madeAsMaker(trades);
      } catch (error) {
        this.settings.onBackgroundError(error);
      }
    }
    const update = this.tracker.observe(order, maker);
    if (update) this.emit(update);
    return order;
  }

  /** One polling round over the orders known to be open. */
  async pollOnce(): Promise<void> {
    const open = this.tracker.open();
    if (open.length === 0) return;
    await this.access.call(async (client, catalog) => {
      for (const [pair, orders] of groupByPair(open)) {
        const symbol = catalog.symbol(pair);
        const listed = client.has['fetchOpenOrders'] ? await client.fetchOpenOrders(symbol) : [];
        const seen = new Set<string>();
        for (const source of listed) {
          const tracked = orders.find((order) => order.id === String(source.id));
          if (!tracked) continue;
          seen.add(tracked.id);
          await this.report(client, catalog, source, { clientOrderId: tracked.clientOrderId });
        }
        for (const tracked of orders.filter((order) => !seen.has(order.id))) {
          await this.refresh(client, catalog, tracked, symbol);
        }
      }
    });
  }

  private async refresh(client: CcxtClient, catalog: MarketCatalog, tracked: ExchangeOrder, symbol: string): Promise<void> {
    try {
      const source = await client.fetchOrder(tracked.id, symbol, fetchOrderParams(this.access.marketCode));
      await this.report(client, catalog, source, { clientOrderId: tracked.clientOrderId });
    } catch (error) {
      // The exchange has forgotten the order: nothing more will be learned about it.
      if (error instanceof OrderNotFound) this.tracker.forget(tracked.id);
      else throw error;
    }
  }

  private async runStream(open: (marketsFrom: CcxtClient) => OrderStream, run: { stream?: OrderStream }): Promise<void> {
    let stream: OrderStream;
    try {
      await this.access.catalog();
      if (this.streaming !== run) return;
      stream = open(this.access.client);
    } catch (error) {
      this.settings.onBackgroundError(error);
      if (this.streaming === run) this.streaming = undefined;
      return;
    }
    run.stream = stream;
    while (this.streaming === run) {
      try {
        const sources = await stream.watchOrders();
        this.streamHealthy = true;
        await this.access.call(async (client, catalog) => {
          for (const source of sources) {
            if (catalog.pair(source.symbol ?? '') === undefined) continue;
            const known = this.tracker.latest(String(source.id));
            await this.report(client, catalog, source, known ? { clientOrderId: known.clientOrderId } : {});
          }
        });
      } catch (error) {
        this.streamHealthy = false;
        if (this.streaming !== run) return;
        this.settings.onBackgroundError(error);
        if (error instanceof NotSupported) {
          this.streaming = undefined;
          await stream.close().catch(() => undefined);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, this.settings.pollIntervalMs).unref());
      }
    }
  }

  private emit(update: OrderUpdate): void {
    for (const listener of this.listeners) listener(update);
  }
}

function groupByPair(orders: readonly ExchangeOrder[]): Map<string, ExchangeOrder[]> {
  const groups = new Map<string, ExchangeOrder[]>();
  for (const order of orders) groups.set(order.pair, [...(groups.get(order.pair) ?? []), order]);
  return groups;
}
