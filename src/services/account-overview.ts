/**
 * An account with its balances valued at current prices, and its value history: what the account
 * endpoints present. Each overview also records today's valuation, which is what the balance
 * chart and the day and total profit figures are computed from.
 */
import type { Balance } from '../exchanges/exchange.ts';
import type { Decimal } from '../shared/decimal.ts';
import { dec, ZERO } from '../shared/decimal.ts';
import type { AccountsService } from './accounts.service.ts';
import type { MarketsService } from './markets.service.ts';
import type { Account } from './repositories.ts';
import { sum, USD_STABLECOINS, valueBalances, type ValuedBalance } from './valuation.ts';

export interface AccountOverview {
  account: Account;
  balances: ValuedBalance[];
  usd: Decimal;
  btc: Decimal;
  /** Value at the end of the previous recorded day, and at the first recorded day. */
  usdDayStart: Decimal;
  btcDayStart: Decimal;
  usdFirst: Decimal;
  btcFirst: Decimal;
}

export class AccountOverviews {
  constructor(
    private readonly accounts: AccountsService,
    private readonly markets: MarketsService,
    private readonly today: () => Date,
  ) {}

  async overview(account: Account): Promise<AccountOverview> {
    const balances = await this.accounts.balances(account);
    const valued = await this.value(account.marketCode, balances);
    const usd = sum(valued.map((b) => b.usdValue));
    const btc = sum(valued.map((b) => b.btcValue));
    const day = this.today().toISOString().slice(0, 10);
    const history = await this.accounts.balanceHistory(account.id, '1970-01-01', day);
    await this.accounts.recordBalance(account.id, day, usd.toFixed(), btc.toFixed());
    const before = history.filter((point) => point.day < day);
    const dayStart = before.at(-1);
    const first = history[0];
    return {
      account,
      balances: valued,
      usd,
      btc,
      usdDayStart: dayStart ? dec(dayStart.usd) : usd,
      btcDayStart: dayStart ? dec(dayStart.btc) : btc,
      usdFirst: first ? dec(first.usd) : usd,
      btcFirst: first ? dec(first.btc) : btc,
    };
  }

  private async value(marketCode: string, balances: Balance[]): Promise<ValuedBalance[]> {
    const pairs = balances
      .filter((b) => !USD_STABLECOINS.includes(b.currency) && b.free.plus(b.locked).gt(ZERO))
      .map((b) => `USDT_${b.currency}`);
    const prices = await this.markets.priceLookup(marketCode, [...new Set([...pairs, 'USDT_BTC'])]);
    return valueBalances(balances, prices);
  }
}
