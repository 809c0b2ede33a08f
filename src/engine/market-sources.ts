/**
 * The exchanges the engine trades on, per account, and the market data it hears from them. Paper
 * accounts share one source (the paper venue), so a paper tick reaches the engine once however
 * many paper accounts there are; each real account is its own source.
 */
import type { TradingRules } from '../domain/market/trading-rules.ts';
import type { ConnectionChange, Exchange, OrderUpdate, Ticker } from '../exchanges/exchange.ts';
import type { Decimal } from '../shared/decimal.ts';

export interface SourceTicker {
  last: Decimal;
  bid: Decimal;
  ask: Decimal;
}

interface Source {
  rules: Map<string, TradingRules>;
  tickers: Map<string, SourceTicker>;
}

export interface MarketEvents {
  onTicker(source: string, ticker: Ticker): void;
  onOrderUpdate(accountId: number, update: OrderUpdate): void;
  onConnectionChange(accountId: number, change: ConnectionChange): void;
}

export class MarketSources {
  private readonly accounts = new Map<number, { exchange: Exchange; source: string }>();
  private readonly sources = new Map<string, Source>();
  private readonly attaching = new Map<number, Promise<void>>();

  constructor(
    private readonly exchangeFor: (accountId: number) => Promise<Exchange>,
    private readonly events: MarketEvents,
  ) {}

  /** Connects an account once: its order updates and its source's tickers flow to the engine. */
  attach(accountId: number): Promise<void> {
    if (this.accounts.has(accountId)) return Promise.resolve();
    let pending = this.attaching.get(accountId);
    if (!pending) {
      pending = this.connect(accountId).finally(() => this.attaching.delete(accountId));
      this.attaching.set(accountId, pending);
    }
    return pending;
  }

  attached(accountId: number): boolean {
    return this.accounts.has(accountId);
  }

  exchange(accountId: number): Exchange {
    const account = this.accounts.get(accountId);
    if (!account) throw new Error(`Account ${accountId} is not attached to the engine`);
    return account.exchange;
  }

  sourceOf(accountId: number): string {
    return this.accounts.get(accountId)?.source ?? `account:${accountId}`;
  }

  rules(source: string, pair: string): TradingRules {
    const rules = this.sources.get(source)?.rules.get(pair);
    if (!rules) throw new Error(`No market ${pair} on ${source}`);
    return rules;
  }

  ticker(source: string, pair: string): SourceTicker | undefined {
    return this.sources.get(source)?.tickers.get(pair);
  }

  noteTicker(source: string, ticker: Ticker): void {
    // Kept as it came (tickers are never changed once made): no copy per tick.
    this.sources.get(source)?.tickers.set(ticker.pair, ticker);
  }

  /** Asks the exchange for prices of pairs the source has not reported yet. */
  async prime(accountId: number, pairs: readonly string[]): Promise<void> {
    await this.attach(accountId);
    const { exchange, source } = this.accounts.get(accountId)!;
    for (const pair of pairs) {
      if (this.ticker(source, pair)) continue;
      try {
        this.noteTicker(source, await exchange.ticker(pair));
      } catch {
        // No price yet: the automation decides what to do without one.
      }
    }
  }

  private async connect(accountId: number): Promise<void> {
    const exchange = await this.exchangeFor(accountId);
    const source = exchange.marketCode === 'paper_trading' ? 'paper' : `account:${accountId}`;
    const markets = this.sources.has(source) ? undefined : await exchange.markets();
    // Accounts of one source may attach together (a takeover attaches hundreds): the first registers it.
    if (markets && !this.sources.has(source)) {
      this.sources.set(source, {
        rules: new Map(markets.map((market) => [market.pair, market.rules])),
        tickers: new Map(),
      });
      exchange.onTicker((ticker) => this.events.onTicker(source, ticker));
    }
    exchange.onOrderUpdate((update) => this.events.onOrderUpdate(accountId, update));
    exchange.onConnectionChange?.((change) => this.events.onConnectionChange(accountId, change));
    this.accounts.set(accountId, { exchange, source });
  }
}
