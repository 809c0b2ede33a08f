/**
 * What SmartTrades and ver1 trades need to know about the market they trade on: the caller's
 * account, the pair's trading rules, the current price, and the quote currency's USD rate for
 * profit in USD. Lists look each of these up once per account, pair or currency.
 */
import type { Market } from '../exchanges/exchange.ts';
import { parsePair } from '../domain/market/pair.ts';
import { isMultipleOf, type Decimal, dec } from '../shared/decimal.ts';
import type { TradingRules } from '../domain/market/trading-rules.ts';
import { errors, FieldErrorCollector } from '../shared/errors.ts';
import type { AccountsService } from './accounts.service.ts';
import type { MarketsService } from './markets.service.ts';
import type { Account } from './repositories.ts';

export interface Quote {
  bid: Decimal;
  ask: Decimal;
  last: Decimal;
}

export interface TradeMarket {
  account: Account;
  market: Market;
  quote: Quote | undefined;
}

export interface MarketView {
  account: { id: number; type: string; name: string; market: string };
  quote?: Quote;
  /** USD per unit of the quote currency, when it can be priced. */
  usdPerQuote?: Decimal;
}

const USD_LIKE = new Set(['USD', 'USDT', 'USDC', 'BUSD', 'TUSD', 'FDUSD', 'DAI']);

interface Traded {
  userId: number;
  accountId: number;
  state: { config: { pair: string; quote: string } };
}

export class MarketViews {
  constructor(
    private readonly accounts: AccountsService,
    private readonly markets: MarketsService,
  ) {}

  /** The caller's account (404/403 otherwise), the pair's market on it, and its price now. */
  async tradeMarket(userId: number, accountId: number, pairText: string): Promise<TradeMarket> {
    const account = await this.accounts.get(userId, accountId);
    const pair = parsePair(pairText);
    if (!pair) throw errors.recordInvalid({ pair: ['does not have a valid value'] });
    const market = await this.markets.market(account.marketCode, pair.code);
    return { account, market, quote: await this.quoteOf(account.marketCode, pair.code) };
  }

  async many<T extends Traded, V>(items: readonly T[], build: (item: T, market: MarketView) => V): Promise<V[]> {
    const accounts = new Map<number, Promise<Account>>();
    const quotes = new Map<string, Promise<Quote | undefined>>();
    const rates = new Map<string, Promise<Decimal | undefined>>();
    const once = <K, X>(cache: Map<K, Promise<X>>, key: K, load: () => Promise<X>) => {
      let value = cache.get(key);
      if (!value) cache.set(key, (value = load()));
      return value;
    };
    return Promise.all(
      items.map(async (item) => {
        const account = await once(accounts, item.accountId, () => this.accounts.get(item.userId, item.accountId));
        const { pair, quote: currency } = item.state.config;
        const code = account.marketCode;
        const quote = await once(quotes, `${code}|${pair}`, () => this.quoteOf(code, pair));
        const usd = await once(rates, `${code}|${currency}`, () => this.usdPerUnit(code, currency));
        const view: MarketView = {
          account: { id: account.id, type: code, name: account.name, market: (await this.markets.description(code)).name },
          ...(quote === undefined ? {} : { quote }),
          ...(usd === undefined ? {} : { usdPerQuote: usd }),
        };
        return build(item, view);
      }),
    );
  }

  /** The current price, or undefined when the market has none yet or cannot be reached. */
  private async quoteOf(marketCode: string, pair: string): Promise<Quote | undefined> {
    try {
      const { bid, ask, last } = await this.markets.ticker(marketCode, pair);
      return { bid, ask, last };
    } catch {
      return undefined;
    }
  }

  private async usdPerUnit(marketCode: string, currency: string): Promise<Decimal | undefined> {
    if (USD_LIKE.has(currency)) return dec(1);
    return (await this.quoteOf(marketCode, `USDT_${currency}`))?.last;
  }
}

export interface FundsWire {
  order_type: 'market' | 'limit';
  units: { value: string };
  price?: { value?: string };
}

/** Add or reduce funds input checked against the market: 400 for the fields, 422 for the total. */
export function fundsInput(input: FundsWire, rules: TradingRules, quote: Quote | undefined, side: 'buy' | 'sell') {
  const invalid = new FieldErrorCollector();
  const units = dec(input.units.value);
  const price = input.price?.value === undefined ? undefined : dec(input.price.value);
  if (units.lte(0)) invalid.add('units[value]', 'must be greater than 0');
  else if (!isMultipleOf(units, rules.lotStep)) invalid.add('units[value]', `must be a multiple of ${rules.lotStep.toFixed()}`);
  else if (units.lt(rules.minLotSize)) invalid.add('units[value]', `must be greater than or equal to ${rules.minLotSize.toFixed()}`);
  if (input.order_type === 'limit' && price === undefined) invalid.add('price[value]', 'is missing');
  if (price !== undefined && (price.lte(0) || !isMultipleOf(price, rules.priceStep))) invalid.add('price[value]', `must be a multiple of ${rules.priceStep.toFixed()}`);
  invalid.throwIfAny();
  const estimate = input.order_type === 'limit' ? price : side === 'buy' ? quote?.ask : quote?.bid;
  const minTotal = input.order_type === 'market' ? rules.minMarketTotal : rules.minTotal;
  if (estimate !== undefined && units.times(estimate).lt(minTotal)) {
    throw errors.recordInvalid({ total: [`must be greater than or equal to ${minTotal.toFixed()}`] }, 422);
  }
  return { orderType: input.order_type, units, ...(input.order_type === 'limit' && price ? { price } : {}) };
}
