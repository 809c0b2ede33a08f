/**
 * Sell all to BTC or to USD (api-reference §12): every free balance other than the target goes to
 * it at market through the account's exchange port: sold on a TARGET_COIN pair, or spent buying
 * the target on a COIN_TARGET pair (USDT buying BTC). Only free balances move: what open orders
 * hold stays. A coin with no such pair, no price on it, or too little of it for the market's
 * minimums stays as it is. A market buy spends at most 99 % of the free coin, leaving room for
 * the fee and the move of the price between quote and fill.
 */
import { randomBytes } from 'node:crypto';
import type { Balance, Exchange, Market, OrderRequest } from '../exchanges/exchange.ts';
import { ExchangeError } from '../exchanges/exchange.ts';
import { ruleViolations } from '../domain/market/trading-rules.ts';
import { dec, floorToStep } from '../shared/decimal.ts';
import { USD_STABLECOINS } from './valuation.ts';

export type SellAllTarget = 'btc' | 'usd';

export interface SellAllOutcome {
  currency: string;
  /** The order placed, or why none was. */
  result: { placed: OrderRequest } | { skipped: 'no_pair' | 'no_price' | 'below_minimum' } | { refused: string };
}

const BUY_SHARE = dec('0.99');

export async function sellAll(exchange: Exchange, target: SellAllTarget): Promise<SellAllOutcome[]> {
  const targets = target === 'btc' ? ['BTC'] : USD_STABLECOINS;
  const markets = new Map((await exchange.markets()).map((market) => [market.pair, market]));
  const batch = randomBytes(4).toString('hex');
  const outcomes: SellAllOutcome[] = [];
  for (const balance of await exchange.balances()) {
    if (targets.includes(balance.currency) || balance.free.lte(0)) continue;
    outcomes.push({ currency: balance.currency, result: await convert(exchange, balance, targets, markets, `sa${batch}${balance.currency}`) });
  }
  return outcomes;
}

async function convert(exchange: Exchange, balance: Balance, targets: string[], markets: Map<string, Market>, clientOrderId: string): Promise<SellAllOutcome['result']> {
  const sellOn = targets.map((t) => markets.get(`${t}_${balance.currency}`)).find((m) => m !== undefined);
  const buyOn = targets.map((t) => markets.get(`${balance.currency}_${t}`)).find((m) => m !== undefined);
  const market = sellOn ?? buyOn;
  if (!market) return { skipped: 'no_pair' };
  const ticker = await exchange.ticker(market.pair).catch((error: unknown) => {
    if (error instanceof ExchangeError) return undefined;
    throw error;
  });
  const side = sellOn ? 'sell' : 'buy';
  const price = side === 'sell' ? ticker?.bid : ticker?.ask;
  if (!price?.gt(0)) return { skipped: 'no_price' };
  const amount = floorToStep(side === 'sell' ? balance.free : balance.free.times(BUY_SHARE).div(price), market.rules.lotStep);
  if (ruleViolations(market.rules, { side, type: 'market', amount, price }).some((v) => v === 'lot_size' || v === 'min_total')) {
    return { skipped: 'below_minimum' };
  }
  const request: OrderRequest = { clientOrderId: clientOrderId.slice(0, 36), pair: market.pair, side, type: 'market', amount };
  try {
    await exchange.placeOrder(request);
    return { placed: request };
  } catch (error) {
    if (error instanceof ExchangeError) return { refused: error.message };
    throw error;
  }
}
