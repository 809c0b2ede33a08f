/**
 * An account with its balances valued at current prices, and its value history: what the account
 * endpoints present. Each overview also records today's valuation, which is what the balance
 * chart and the day, month and total profit figures are computed from; but not while a price it
 * needs is missing (the paper market before its first ticks), which would record a false drop.
 */
import type { Balance } from '../exchanges/exchange.ts';
import type { Decimal } from '../shared/decimal.ts';
import { dec, ZERO } from '../shared/decimal.ts';
import { ApiError } from '../shared/errors.ts';
import type { AccountsService } from './accounts.service.ts';
import type { MarketsService } from './markets.service.ts';
import type { Account, BalancePoint } from './repositories.ts';
import { sum, USD_STABLECOINS, valueBalances, type ValuedBalance } from './valuation.ts';

export interface AccountOverview {
  account: Account;
  balances: ValuedBalance[];
  usd: Decimal;
  btc: Decimal;
  /** Value at the start of today and of this month, and the first value ever recorded. */
  usdDayStart: Decimal;
  btcDayStart: Decimal;
  usdMonthStart: Decimal;
  btcMonthStart: Decimal;
  usdFirst: Decimal;
  btcFirst: Decimal;
}

export interface OverviewOptions {
  /**
   * When the exchange cannot be read (down, or the keys refused), present the last recorded
   * value with no balances instead of failing: one unreachable exchange must not hide the others.
   */
  lastKnownIfUnreadable?: boolean;
}

/** Values are kept to the satoshi, as the account shows them. */
const stored = (value: Decimal) => value.toDecimalPlaces(8).toFixed();

export class AccountOverviews {
  constructor(
    private readonly accounts: AccountsService,
    private readonly markets: MarketsService,
    private readonly today: () => Date,
  ) {}

  async overview(account: Account, options: OverviewOptions = {}): Promise<AccountOverview> {
    const day = this.today().toISOString().slice(0, 10);
    const history = await this.accounts.balanceHistory(account.id, '1970-01-01', day);
    const reading = await this.accounts.readBalances(account);
    let valued: { balances: ValuedBalance[]; complete: boolean } | undefined;
    let failure = reading.ok ? undefined : reading.error;
    if (reading.ok) {
      try {
        valued = await this.value(account.marketCode, reading.balances);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        failure = error;
      }
    }
    if (valued === undefined) {
      if (!options.lastKnownIfUnreadable) throw failure;
      const last = history.at(-1);
      return this.withHistory(reading.account, [], dec(last?.usd ?? 0), dec(last?.btc ?? 0), history, day);
    }
    const usd = sum(valued.balances.map((b) => b.usdValue));
    const btc = sum(valued.balances.map((b) => b.btcValue));
    if (valued.complete) await this.accounts.recordBalance(account.id, day, stored(usd), stored(btc));
    return this.withHistory(reading.account, valued.balances, usd, btc, history, day);
  }

  private withHistory(
    account: Account,
    balances: ValuedBalance[],
    usd: Decimal,
    btc: Decimal,
    history: BalancePoint[],
    day: string,
  ): AccountOverview {
    const before = (start: string) => history.filter((point) => point.day < start).at(-1);
    // A period starts at the last value before it, or, when nothing was recorded before it, at the
    // first value recorded in it.
    const first = history[0];
    const opening = (point: BalancePoint | undefined) => point && { usd: point.openingUsd, btc: point.openingBtc };
    const dayStart = before(day) ?? opening(history.find((point) => point.day === day));
    const monthStart = before(`${day.slice(0, 7)}-01`) ?? opening(first);
    const start = opening(first);
    const usdOf = (point: { usd: string } | undefined) => (point ? dec(point.usd) : usd);
    const btcOf = (point: { btc: string } | undefined) => (point ? dec(point.btc) : btc);
    return {
      account,
      balances,
      usd,
      btc,
      usdDayStart: usdOf(dayStart),
      btcDayStart: btcOf(dayStart),
      usdMonthStart: usdOf(monthStart),
      btcMonthStart: btcOf(monthStart),
      usdFirst: usdOf(start),
      btcFirst: btcOf(start),
    };
  }

  private async value(marketCode: string, balances: readonly Balance[]) {
    const held = balances
      .filter((b) => !USD_STABLECOINS.includes(b.currency) && b.free.plus(b.locked).gt(ZERO))
      .map((b) => b.currency);
    const prices = await this.markets.valuationPrices(marketCode, held);
    return {
      balances: valueBalances(balances, prices.lookup),
      complete: prices.pairs.every((pair) => prices.lookup(pair)?.last.gt(ZERO)),
    };
  }
}
