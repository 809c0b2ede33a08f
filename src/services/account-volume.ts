/**
 * What an account traded, from the orders this server placed on it (its bots, SmartTrades and
 * trades), valued in USD and BTC at current prices: a quote currency without a price counts as
 * nothing, as in the account's value.
 */
import { parsePair } from '../domain/market/pair.ts';
import { dec, type Decimal, ZERO } from '../shared/decimal.ts';
import type { MarketsService } from './markets.service.ts';
import type { Account, TradedVolumes } from './repositories.ts';
import { sum, usdPrice } from './valuation.ts';

export async function tradedVolume(
  volumes: TradedVolumes,
  markets: MarketsService,
  account: Account,
  from: Date | null,
  until: Date | null,
): Promise<{ usd: Decimal; btc: Decimal }> {
  const rows = await volumes.perPair(account.id, from, until);
  const quotes = rows.map((row) => parsePair(row.pair)?.quote ?? '');
  const { lookup } = await markets.valuationPrices(account.marketCode, quotes);
  const usd = sum(rows.map((row, i) => dec(row.total).times(usdPrice(quotes[i]!, lookup) ?? ZERO)));
  const btcUsd = usdPrice('BTC', lookup);
  return { usd, btc: btcUsd ? usd.div(btcUsd) : ZERO };
}
