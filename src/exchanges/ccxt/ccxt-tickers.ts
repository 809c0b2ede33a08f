/**
 * Prices from ccxt tickers. An exchange that sends no bid or ask gets the last price in their
 * place; one that sends no price at all is reported unavailable.
 */
import type { Exchange as CcxtClient, Ticker as CcxtTicker } from 'ccxt';
import { ExchangeError, type Ticker } from '../exchange.ts';
import { decimalOrUndefined } from './ccxt-decimal.ts';
import type { MarketCatalog } from './ccxt-market-catalog.ts';

export function toTicker(pair: string, source: CcxtTicker, now: Date): Ticker | undefined {
  const last = decimalOrUndefined(source.last) ?? decimalOrUndefined(source.close);
  const bid = decimalOrUndefined(source.bid) ?? last;
  const ask = decimalOrUndefined(source.ask) ?? last;
  if (bid === undefined || ask === undefined) return undefined;
  return { pair, bid, ask, last: last ?? bid.plus(ask).div(2), at: source.timestamp == null ? now : new Date(source.timestamp) };
}

/** Tickers of `pairs`, in one request where the exchange can do that, one request per pair otherwise. */
export async function fetchTickersFor(
  client: CcxtClient,
  catalog: MarketCatalog,
  pairs: readonly string[],
  now: () => Date,
): Promise<Ticker[]> {
  const wanted = [...new Set(pairs.map((pair) => catalog.market(pair).pair))];
  if (wanted.length === 0) return [];
  const symbols = wanted.map((pair) => catalog.symbol(pair));
  const sources: CcxtTicker[] =
    client.has['fetchTickers'] === true && wanted.length > 1
      ? Object.values(await client.fetchTickers(symbols))
      : await Promise.all(symbols.map((symbol) => client.fetchTicker(symbol)));
  const tickers: Ticker[] = [];
  for (const source of sources) {
    const pair = source.symbol == null ? undefined : catalog.pair(source.symbol);
    if (pair === undefined || !wanted.includes(pair)) continue;
    const ticker = toTicker(pair, source, now());
    if (ticker) tickers.push(ticker);
  }
  return tickers;
}

export async function fetchOneTicker(client: CcxtClient, catalog: MarketCatalog, pair: string, now: () => Date): Promise<Ticker> {
  const market = catalog.market(pair);
  const ticker = toTicker(market.pair, await client.fetchTicker(catalog.symbol(pair)), now());
  if (!ticker) throw new ExchangeError('unavailable', `No price for ${market.pair} on ${catalog.marketCode}`);
  return ticker;
}
