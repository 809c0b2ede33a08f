/**
 * Public market data: which markets can be connected, their pairs, and each pair's prices and
 * trading rules. The paper market answers from the paper venue; real exchanges through the
 * exchange connector.
 */
import type { ExchangeConnector, ExchangeDescription } from '../exchanges/exchange-connector.ts';
import { ExchangeError, type Market, type Ticker } from '../exchanges/exchange.ts';
import { ApiError, errors } from '../shared/errors.ts';
import { type PriceLookup, valuationPairs } from './valuation.ts';

export const PAPER_MARKET_CODE = 'paper_trading';

export interface ValuationPrices {
  /** The pairs that value the currencies asked about; a currency with none cannot be priced. */
  pairs: string[];
  lookup: PriceLookup;
}

/** What the markets service needs of the paper exchange. */
export interface PaperMarketData {
  markets(): Market[];
  ticker(pair: string): Ticker | undefined;
}

/** A sheet of paper, inline, so the icon needs neither a route nor the network. */
const PAPER_ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#3b4a5a"/>' +
  '<path d="M9 6h10l5 5v15H9z" fill="#fff"/><path d="M19 6v5h5" fill="#cbd5e0"/></svg>';

export const PAPER_DESCRIPTION: ExchangeDescription = {
  marketCode: PAPER_MARKET_CODE,
  name: 'Paper trading account',
  marketUrl: '',
  helpLink: '',
  icon: `data:image/svg+xml,${encodeURIComponent(PAPER_ICON_SVG)}`,
  formFields: { required: [], optional: [] },
  streamsOrders: true,
};

export class MarketsService {
  constructor(
    private readonly paper: PaperMarketData,
    private readonly connector: ExchangeConnector,
  ) {}

  async describe(): Promise<ExchangeDescription[]> {
    return [PAPER_DESCRIPTION, ...(await this.connector.describe())];
  }

  /** The market, or undefined when no market has that code. Paper needs no real exchange loaded. */
  async find(marketCode: string): Promise<ExchangeDescription | undefined> {
    if (marketCode === PAPER_MARKET_CODE) return PAPER_DESCRIPTION;
    return (await this.describe()).find((market) => market.marketCode === marketCode);
  }

  async description(marketCode: string): Promise<ExchangeDescription> {
    const found = await this.find(marketCode);
    if (!found) throw errors.recordInvalid({ market_code: ['does not have a valid value'] });
    return found;
  }

  async markets(marketCode: string): Promise<Market[]> {
    await this.description(marketCode);
    if (marketCode === PAPER_MARKET_CODE) return this.paper.markets();
    return this.fromExchange(() => this.connector.markets(marketCode));
  }

  async market(marketCode: string, pair: string): Promise<Market> {
    const market = (await this.markets(marketCode)).find((m) => m.pair === pair);
    if (!market) throw errors.recordInvalid({ pair: ['does not have a valid value'] });
    return market;
  }

  async ticker(marketCode: string, pair: string): Promise<Ticker> {
    if (marketCode === PAPER_MARKET_CODE) {
      const ticker = this.paper.ticker(pair);
      if (!ticker) throw priceUnavailable(marketCode, pair);
      return ticker;
    }
    const [ticker] = await this.fromExchange(() => this.connector.tickers(marketCode, [pair]));
    if (!ticker) throw priceUnavailable(marketCode, pair);
    return ticker;
  }

  /**
   * Prices that value holdings of `currencies`, with the pairs they come from (only pairs the
   * market lists): paper prices from the venue, real ones fetched now. Fails (as an ApiError) when
   * the exchange cannot answer.
   */
  async valuationPrices(marketCode: string, currencies: readonly string[]): Promise<ValuationPrices> {
    const available = new Set((await this.markets(marketCode)).map((market) => market.pair));
    const pairs = valuationPairs(currencies, available);
    if (marketCode === PAPER_MARKET_CODE) return { pairs, lookup: (pair) => this.paper.ticker(pair) };
    const tickers = pairs.length === 0 ? [] : await this.fromExchange(() => this.connector.tickers(marketCode, pairs));
    const byPair = new Map(tickers.map((ticker) => [ticker.pair, ticker]));
    return { pairs, lookup: (pair) => byPair.get(pair) };
  }

  private async fromExchange<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw exchangeApiError(error);
    }
  }
}

function priceUnavailable(marketCode: string, pair: string): ApiError {
  return new ApiError(422, 'price_unavailable', `No price yet for ${pair} on ${marketCode}`);
}

/** How exchange failures reach API clients. */
export function exchangeApiError(error: unknown): ApiError {
  if (!(error instanceof ExchangeError)) throw error;
  switch (error.kind) {
    case 'invalid_credentials':
      return new ApiError(422, 'invalid_api_key', 'API keys are no longer valid or incorrect.');
    case 'insufficient_funds':
      return new ApiError(422, 'insufficient_funds', error.message);
    case 'rule_violation':
      return new ApiError(422, 'order_rejected', error.message);
    case 'unknown_market':
      return errors.recordInvalid({ pair: ['does not have a valid value'] });
    case 'order_not_found':
      return errors.notFound();
    case 'unavailable':
      return new ApiError(503, 'exchange_unavailable', error.message);
  }
}
