/**
 * One account's ccxt client, kept in step with the exchange's shared market catalog, and the one
 * place where its calls' ccxt errors become the port's errors and count for or against the
 * account's connection.
 */
import type { Exchange as CcxtClient } from 'ccxt';
import { isUnreachable, toExchangeError } from './ccxt-errors.ts';
import { ConnectionWatch } from './connection-watch.ts';
import type { MarketCatalog } from './ccxt-market-catalog.ts';

/** A catalog together with the public client whose loaded markets it was built from. */
export interface LoadedMarkets {
  catalog: MarketCatalog;
  source: CcxtClient;
}

export interface AccountAccessSettings {
  marketCode: string;
  client: CcxtClient;
  loadMarkets: () => Promise<LoadedMarkets>;
  secrets: readonly string[];
  now: () => Date;
  /** Calls in a row the exchange must leave unanswered before the connection counts as lost. */
  connectionLostAfter: number;
}

export class AccountAccess {
  readonly marketCode: string;
  readonly client: CcxtClient;
  readonly now: () => Date;
  readonly connection: ConnectionWatch;
  private synced: LoadedMarkets | undefined;

  constructor(private readonly settings: AccountAccessSettings) {
    this.marketCode = settings.marketCode;
    this.client = settings.client;
    this.now = settings.now;
    this.connection = new ConnectionWatch(settings.connectionLostAfter, settings.now);
  }

  /** The catalog, with the account's client given the same markets, so it never loads its own. */
  async catalog(): Promise<MarketCatalog> {
    const loaded = await this.settings.loadMarkets();
    if (loaded !== this.synced) {
      this.client.setMarketsFromExchange(loaded.source);
      this.synced = loaded;
    }
    return loaded.catalog;
  }

  /** Only a success proves the exchange reachable: other errors may never have reached it. */
  async call<T>(work: (client: CcxtClient, catalog: MarketCatalog) => Promise<T>, placingOrder = false): Promise<T> {
    let result: T;
    try {
      result = await work(this.client, await this.catalog());
    } catch (error) {
      const mapped = toExchangeError(error, {
        exchangeId: this.marketCode,
        exchangeName: this.client.name ?? this.marketCode,
        placingOrder,
        secrets: this.settings.secrets,
      });
      if (isUnreachable(error)) this.connection.unanswered(mapped instanceof Error ? mapped.message : 'request failed');
      throw mapped;
    }
    this.connection.answered();
    return result;
  }
}
