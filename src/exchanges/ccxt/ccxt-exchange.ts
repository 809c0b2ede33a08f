/**
 * One account on a real exchange, through ccxt, behind the exchange port.
 *
 * Placing is idempotent per client order id: a repeat within this session returns the order
 * already known; after a restart, an exchange that refuses the duplicate id gets the existing
 * order looked up and returned. Amounts and prices are sent as ccxt formats them for the market,
 * and an order whose amount or price that formatting would change is refused here, so the
 * exchange never receives a different order than the one asked for.
 */
import { type Exchange as CcxtClient, type Order as CcxtOrder, OrderNotFound } from 'ccxt';
import { dec, type Decimal } from '../../shared/decimal.ts';
import {
  type Balance,
  type ConnectionChange,
  type Exchange,
  ExchangeError,
  type ExchangeOrder,
  type Market,
  type OrderRequest,
  type OrderUpdate,
  type Ticker,
  type Unsubscribe,
} from '../exchange.ts';
import type { AccountAccess } from './ccxt-account-access.ts';
import { fetchesByClientOrderId, fetchOrderParams } from './ccxt-catalog.ts';
import { isDuplicateClientOrderId } from './ccxt-errors.ts';
import { balancesFrom, marketBuysSpendQuote, orderParams } from './ccxt-requests.ts';
import type { MarketCatalog } from './ccxt-market-catalog.ts';
import { fetchOneTicker } from './ccxt-tickers.ts';
import { OrderUpdates, type OrderUpdateSettings } from './ccxt-order-updates.ts';
import { OrderTracker } from './order-tracker.ts';
import { TickerPolling } from './ticker-polling.ts';

/** With no order id, ccxt's fetchOrder looks the order up by the `clientOrderId` parameter. */
const LOOK_UP_BY_CLIENT_ID = undefined as unknown as string;

export interface CcxtExchangeSettings extends OrderUpdateSettings {
  tickerIntervalMs: number;
}

export class CcxtExchange implements Exchange {
  readonly marketCode: string;
  private readonly tracker = new OrderTracker();
  private readonly placing = new Map<string, Promise<ExchangeOrder>>();
  private readonly updates: OrderUpdates;
  private readonly tickers: TickerPolling;

  constructor(
    private readonly access: AccountAccess,
    settings: CcxtExchangeSettings,
  ) {
    this.marketCode = access.marketCode;
    this.updates = new OrderUpdates(access, this.tracker, settings);
    this.tickers = new TickerPolling(access, settings.tickerIntervalMs, settings.onBackgroundError);
  }

  async markets(): Promise<Market[]> {
    return this.access.call(async (_client, catalog) => [...catalog.markets]);
  }

  async ticker(pair: string): Promise<Ticker> {
    const ticker = await this.access.call((client, catalog) => fetchOneTicker(client, catalog, pair, this.access.now));
    this.tickers.watch(ticker.pair);
    return ticker;
  }

  async balances(): Promise<Balance[]> {
    return this.access.call(async (client) => balancesFrom(await client.fetchBalance()));
  }

  async placeOrder(request: OrderRequest): Promise<ExchangeOrder> {
    // The same client order id placed again while the first is on its way waits for the first.
    const key = `${request.pair}\n${request.clientOrderId}`;
    const pending = this.placing.get(key);
    if (pending) return pending;
    const placing = this.place(request).finally(() => this.placing.delete(key));
    this.placing.set(key, placing);
    return placing;
  }

  private place(request: OrderRequest): Promise<ExchangeOrder> {
    return this.access.call(async (client, catalog) => {
      const market = catalog.market(request.pair);
      const known = this.tracker.latestByClientOrderId(request.clientOrderId, market.pair);
      if (known) return known;
      const symbol = catalog.symbol(market.pair);
      const amount = formatted(client.amountToPrecision(symbol, request.amount.toFixed()), request.amount, 'amount', market.rules.lotStep);
      const price = request.type === 'limit' ? this.limitPrice(client, symbol, market, request) : await this.marketBuyPrice(client, symbol, request);
      this.tickers.watch(market.pair);
      let created: CcxtOrder;
      try {
        created = await client.createOrder(symbol, request.type, request.side, Number(amount), price, orderParams(request));
      } catch (error) {
        if (!isDuplicateClientOrderId(error)) throw error;
        const existing = await this.find(client, catalog, market, request.clientOrderId);
        if (!existing) throw error;
        created = existing;
      }
      return this.updates.report(client, catalog, created, { clientOrderId: request.clientOrderId, market, request });
    }, true);
  }

  async cancelOrder(pair: string, clientOrderId: string): Promise<ExchangeOrder> {
    return this.access.call(async (client, catalog) => {
      const market = catalog.market(pair);
      const known = { clientOrderId, market };
      const found = await this.find(client, catalog, market, clientOrderId);
      if (!found) throw new ExchangeError('order_not_found', `No order ${clientOrderId} on ${market.pair}`);
      const order = await this.updates.report(client, catalog, found, known);
      if (order.status !== 'open') return order;
      const symbol = catalog.symbol(market.pair);
      let final: CcxtOrder;
      try {
        const cancelled = await client.cancelOrder(order.id, symbol);
        final = cancelled.status == null ? await this.fetchById(client, symbol, order.id) : { ...found, ...defined(cancelled) };
      } catch (error) {
        // Filled or cancelled in the meantime: report how it ended.
        if (!(error instanceof OrderNotFound)) throw error;
        final = await this.fetchById(client, symbol, order.id);
      }
      return this.updates.report(client, catalog, final, known);
    });
  }

  async findOrder(pair: string, clientOrderId: string): Promise<ExchangeOrder | undefined> {
    return this.access.call(async (client, catalog) => {
      const market = catalog.market(pair);
      const found = await this.find(client, catalog, market, clientOrderId);
      return found && this.updates.report(client, catalog, found, { clientOrderId, market });
    });
  }

  async openOrders(pair?: string): Promise<ExchangeOrder[]> {
    return this.access.call(async (client, catalog) => {
      const symbol = pair === undefined ? undefined : catalog.symbol(pair);
      const orders: ExchangeOrder[] = [];
      for (const source of await client.fetchOpenOrders(symbol)) {
        const sourcePair = catalog.pair(source.symbol ?? '');
        if (sourcePair === undefined) continue;
        const known = this.tracker.latest(String(source.id));
        const clientOrderId = known?.clientOrderId ?? source.clientOrderId ?? undefined;
        const order = await this.updates.report(client, catalog, source, clientOrderId ? { clientOrderId } : {});
        this.tickers.watch(order.pair);
        if (order.status === 'open') orders.push(order);
      }
      return orders;
    });
  }

  onOrderUpdate(listener: (update: OrderUpdate) => void): Unsubscribe {
    return this.updates.subscribe(listener);
  }

  onTicker(listener: (ticker: Ticker) => void): Unsubscribe {
    return this.tickers.subscribe(listener);
  }

  onConnectionChange(listener: (change: ConnectionChange) => void): Unsubscribe {
    return this.access.connection.subscribe(listener);
  }

  /** Runs one polling round of order updates at once (also what the timer runs). */
  pollOrders(): Promise<void> {
    return this.updates.pollOnce();
  }

  async close(): Promise<void> {
    this.updates.stop();
    this.tickers.stop();
  }

  private limitPrice(client: CcxtClient, symbol: string, market: Market, request: OrderRequest): number {
    if (request.price === undefined) throw new ExchangeError('rule_violation', 'A limit order needs a price');
    return Number(formatted(client.priceToPrecision(symbol, request.price.toFixed()), request.price, 'price', market.rules.priceStep));
  }

  /** Where market buys spend quote, the ask they are priced at: they buy about the amount asked. */
  private async marketBuyPrice(client: CcxtClient, symbol: string, request: OrderRequest): Promise<number | undefined> {
    if (request.side !== 'buy' || !marketBuysSpendQuote(client)) return undefined;
    const { ask, last } = await client.fetchTicker(symbol);
    return ask ?? last ?? undefined;
  }

  /** The order with this client order id, however the exchange lets it be found. */
  private async find(client: CcxtClient, catalog: MarketCatalog, market: Market, clientOrderId: string): Promise<CcxtOrder | undefined> {
    const symbol = catalog.symbol(market.pair);
    const knownId = this.tracker.latestByClientOrderId(clientOrderId, market.pair)?.id;
    try {
      if (knownId !== undefined) return await this.fetchById(client, symbol, knownId);
      if (fetchesByClientOrderId(this.marketCode)) return await client.fetchOrder(LOOK_UP_BY_CLIENT_ID, symbol, { clientOrderId });
    } catch (error) {
      if (error instanceof OrderNotFound) return undefined;
      throw error;
    }
    if (!client.has['fetchOpenOrders']) return undefined;
    return (await client.fetchOpenOrders(symbol)).find((order) => order.clientOrderId === clientOrderId);
  }

  private fetchById(client: CcxtClient, symbol: string, id: string): Promise<CcxtOrder> {
    return client.fetchOrder(id, symbol, fetchOrderParams(this.marketCode));
  }
}

/** ccxt's formatting of a value, refused when it is not the value asked for. */
function formatted(text: string | undefined, asked: Decimal, what: 'amount' | 'price', step: Decimal): string {
  if (text !== undefined && dec(text).eq(asked)) return text;
  const grid = what === 'amount' ? 'lot step' : 'price step';
  throw new ExchangeError('rule_violation', `${what} ${asked.toFixed()} is not a multiple of the ${grid} ${step.toFixed()}`);
}

function defined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined && entry !== null)) as Partial<T>;
}
