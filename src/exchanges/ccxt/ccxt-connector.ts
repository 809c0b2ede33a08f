/**
 * Real exchanges through ccxt. Markets are loaded once per exchange (spot only) by a public
 * client and shared with every account on that exchange, so accounts never load their own.
 * Nothing touches the network until a method needs it; a `transport` replaces the network
 * entirely (tests use recorded responses). Order updates are polled, or streamed through
 * ccxt.pro where the exchange can and `streamOrders` is on (off when a transport is given, as
 * websockets cannot go through it).
 */
import type { Exchange as CcxtClient } from 'ccxt';
import type { Exchange, Market, Ticker } from '../exchange.ts';
import type { ExchangeConnector, ExchangeCredentials, ExchangeDescription } from '../exchange-connector.ts';
import { AccountAccess, type LoadedMarkets } from './ccxt-account-access.ts';
import { ccxtClass, ccxtCredentials, ccxtProClass, describeExchange, secretValues, SUPPORTED_EXCHANGES } from './ccxt-catalog.ts';
import { toExchangeError } from './ccxt-errors.ts';
import { CcxtExchange } from './ccxt-exchange.ts';
import { MarketCatalog } from './ccxt-market-catalog.ts';
import { PRECISION_MODE } from './ccxt-rules.ts';
import type { OrderStream } from './ccxt-order-updates.ts';
import { fetchTickersFor } from './ccxt-tickers.ts';
import { type Transport, useTransport } from './ccxt-transport.ts';

export interface CcxtConnectorOptions {
  /** Answers every REST request instead of the network. */
  transport?: Transport;
  /** Pause between polls of open orders and of prices. */
  pollIntervalMs?: number;
  /** Pause between polls of open orders while the order stream is healthy. */
  streamingPollIntervalMs?: number;
  /** Stream order updates where the exchange can. */
  streamOrders?: boolean;
  /** ccxt's request throttling, per exchange's published limits. */
  rateLimit?: boolean;
  /** How long loaded markets are reused before they are loaded again. */
  marketsTtlMs?: number;
  now?: () => Date;
  /** Requests in a row an exchange must leave unanswered before an account's connection counts as lost; 3 by default. */
  connectionLostAfter?: number;
  /** Failures of background polling and streaming, which have no caller to throw to. */
  onBackgroundError?: (error: unknown, marketCode: string) => void;
}

interface CachedMarkets {
  loadedAt: number;
  loading: Promise<LoadedMarkets>;
}

export class CcxtConnector implements ExchangeConnector {
  private descriptions: ExchangeDescription[] | undefined;
  private readonly publicClients = new Map<string, CcxtClient>();
  private readonly cachedMarkets = new Map<string, CachedMarkets>();
  /** ccxt keeps a failed or stale load as its answer until asked to reload. */
  private readonly loadedBefore = new Set<string>();
  private readonly now: () => Date;

  constructor(private readonly options: CcxtConnectorOptions = {}) {
    this.now = options.now ?? (() => new Date());
  }

  async describe(): Promise<ExchangeDescription[]> {
    this.descriptions ??= SUPPORTED_EXCHANGES.map(describeExchange);
    return this.descriptions.map((description) => ({ ...description }));
  }

  async markets(marketCode: string): Promise<Market[]> {
    return [...(await this.loadMarkets(marketCode)).catalog.markets];
  }

  async tickers(marketCode: string, pairs: string[]): Promise<Ticker[]> {
    const { catalog, source } = await this.loadMarkets(marketCode);
    try {
      return await fetchTickersFor(source, catalog, pairs, this.now);
    } catch (error) {
      throw toExchangeError(error, { exchangeId: marketCode, exchangeName: source.name ?? marketCode, placingOrder: false, secrets: [] });
    }
  }

  async connect(marketCode: string, credentials: ExchangeCredentials): Promise<Exchange & { close(): Promise<void> }> {
    return this.account(marketCode, credentials);
  }

  /** `connect` for code that has ccxt loaded already. */
  account(marketCode: string, credentials: ExchangeCredentials): CcxtExchange {
    const settings = ccxtCredentials(marketCode, credentials);
    const client = this.newClient(marketCode, settings);
    const access = new AccountAccess({
      marketCode,
      client,
      loadMarkets: () => this.loadMarkets(marketCode),
      secrets: secretValues(credentials),
      now: this.now,
      connectionLostAfter: this.options.connectionLostAfter ?? 3,
    });
    const pollIntervalMs = this.options.pollIntervalMs ?? 2_000;
    return new CcxtExchange(access, {
      pollIntervalMs,
      streamingPollIntervalMs: this.options.streamingPollIntervalMs ?? 60_000,
      tickerIntervalMs: pollIntervalMs,
      openStream: this.streamOpener(marketCode, settings),
      onBackgroundError: (error) => this.options.onBackgroundError?.(error, marketCode),
    });
  }

  /** The exchange's markets, loaded at most once per `marketsTtlMs` whoever asks. */
  private loadMarkets(marketCode: string): Promise<LoadedMarkets> {
    const cached = this.cachedMarkets.get(marketCode);
    const ttl = this.options.marketsTtlMs ?? 3_600_000;
    if (cached && this.now().getTime() - cached.loadedAt < ttl) return cached.loading;
    const client = this.publicClient(marketCode);
    const loading = client.loadMarkets(this.loadedBefore.has(marketCode)).then(
      (markets) => ({ catalog: new MarketCatalog(marketCode, Object.values(markets), client.precisionMode ?? PRECISION_MODE.tickSize), source: client }),
      (error: unknown) => {
        this.cachedMarkets.delete(marketCode);
        throw toExchangeError(error, { exchangeId: marketCode, exchangeName: client.name ?? marketCode, placingOrder: false, secrets: [] });
      },
    );
    this.loadedBefore.add(marketCode);
    this.cachedMarkets.set(marketCode, { loadedAt: this.now().getTime(), loading });
    return loading;
  }

  private publicClient(marketCode: string): CcxtClient {
    let client = this.publicClients.get(marketCode);
    if (!client) {
      client = this.newClient(marketCode, {});
      this.publicClients.set(marketCode, client);
    }
    return client;
  }

  private newClient(marketCode: string, credentials: Record<string, string>): CcxtClient {
    const client = new (ccxtClass(marketCode))({ ...credentials, ...this.clientSettings() });
    if (this.options.transport) useTransport(client, this.options.transport);
    return client;
  }

  private clientSettings(): Record<string, unknown> {
    return {
      enableRateLimit: this.options.rateLimit ?? true,
      options: {
        defaultType: 'spot',
        fetchMarkets: { types: ['spot'] },
        // Listing every pair's open orders is what reconciliation after a restart needs.
        warnOnFetchOpenOrdersWithoutSymbol: false,
      },
    };
  }

  private streamOpener(marketCode: string, credentials: Record<string, string>) {
    const Pro = ccxtProClass(marketCode);
    const enabled = this.options.streamOrders ?? this.options.transport === undefined;
    if (!enabled || !Pro || new Pro().has['watchOrders'] !== true) return undefined;
    return (marketsFrom: CcxtClient): OrderStream => {
      const stream = new Pro({ ...credentials, ...this.clientSettings() });
      if (this.options.transport) useTransport(stream, this.options.transport);
      stream.setMarketsFromExchange(marketsFrom);
      return { watchOrders: () => stream.watchOrders(), close: () => stream.close() };
    };
  }
}
