/**
 * One exchange's spot markets as the port sees them, and the translation between the port's
 * QUOTE_BASE pairs and ccxt's BASE/QUOTE symbols. This folder is the only place that translation
 * happens. Markets whose currency codes the API cannot name are left out.
 */
import type { MarketInterface as CcxtMarket } from 'ccxt';
import { pairCode, parsePair } from '../../domain/market/pair.ts';
import { ExchangeError, type Market } from '../exchange.ts';
import { tradingRulesFrom } from './ccxt-rules.ts';

export class MarketCatalog {
  readonly markets: readonly Market[];
  private readonly symbolByPair = new Map<string, string>();
  private readonly pairBySymbol = new Map<string, string>();
  private readonly marketByPair = new Map<string, Market>();

  constructor(
    readonly marketCode: string,
    ccxtMarkets: Iterable<CcxtMarket | undefined>,
    precisionMode: number,
  ) {
    const markets: Market[] = [];
    for (const source of ccxtMarkets) {
      if (!source || source.spot !== true || source.active === false) continue;
      const pair = pairFromCcxt(source.base, source.quote);
      if (pair === undefined || this.marketByPair.has(pair)) continue;
      const market: Market = { pair, base: source.base, quote: source.quote, rules: tradingRulesFrom(source, precisionMode) };
      markets.push(market);
      this.marketByPair.set(pair, market);
      this.symbolByPair.set(pair, source.symbol);
      this.pairBySymbol.set(source.symbol, pair);
    }
    this.markets = markets;
  }

  market(pair: string): Market {
    const market = this.marketByPair.get(normalisedPair(pair));
    if (!market) throw new ExchangeError('unknown_market', `Unknown pair ${pair} on ${this.marketCode}`);
    return market;
  }

  symbol(pair: string): string {
    return this.symbolByPair.get(this.market(pair).pair)!;
  }

  pair(symbol: string): string | undefined {
    return this.pairBySymbol.get(symbol);
  }
}

/** `BTC`, `USDT` -> `USDT_BTC`, or undefined when a code does not fit the API's pair format. */
export function pairFromCcxt(base: string, quote: string): string | undefined {
  const parsed = parsePair(pairCode(base, quote));
  return parsed && parsed.base === base && parsed.quote === quote ? parsed.code : undefined;
}

/** `USDT_BTC` -> `BTC/USDT`. */
export function symbolFromPair(pair: string): string | undefined {
  const parsed = parsePair(pair);
  return parsed ? `${parsed.base}/${parsed.quote}` : undefined;
}

function normalisedPair(pair: string): string {
  return parsePair(pair)?.code ?? pair;
}
