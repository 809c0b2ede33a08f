/** The reference's exchange account entity, with amounts from the account's valued balances. */
import type { ExchangeDescription } from '../../exchanges/exchange-connector.ts';
import { type Decimal, ZERO } from '../../shared/decimal.ts';
import type { AccountOverview } from '../../services/account-overview.ts';
import { PAPER_MARKET_CODE } from '../../services/markets.service.ts';

const money = (value: Decimal) => value.toDecimalPlaces(8).toFixed();
const percent = (change: Decimal, base: Decimal) => (base.isZero() ? '0' : change.div(base).times(100).toDecimalPlaces(2).toFixed());
const number = (value: Decimal) => Number(value.toFixed());
const usd = (amount: string) => ({ currency: 'USD', amount });

export function presentAccount(overview: AccountOverview, market: ExchangeDescription) {
  const { account } = overview;
  const paper = account.marketCode === PAPER_MARKET_CODE;
  const dayUsd = overview.usd.minus(overview.usdDayStart);
  const dayBtc = overview.btc.minus(overview.btcDayStart);
  const monthUsd = overview.usd.minus(overview.usdMonthStart);
  const monthBtc = overview.btc.minus(overview.btcMonthStart);
  const totalUsd = overview.usd.minus(overview.usdFirst);
  const totalBtc = overview.btc.minus(overview.btcFirst);
  return {
    id: account.id,
    auto_balance_period: 0,
    auto_balance_portfolio_id: null,
    auto_balance_portfolio: null,
    auto_balance_currency_change_limit: null,
    autobalance_enabled: false,
    hedge_mode_available: false,
    hedge_mode_enabled: false,
    is_locked: false,
    smart_trading_supported: true,
    smart_selling_supported: true,
    available_for_trading: {},
    stats_supported: true,
    trading_supported: true,
    market_buy_supported: true,
    market_sell_supported: true,
    conditional_buy_supported: true,
    bots_allowed: true,
    bots_ttp_allowed: true,
    bots_tsl_allowed: true,
    gordon_bots_available: false,
    multi_bots_allowed: true,
    created_at: account.createdAt.toISOString(),
    updated_at: account.updatedAt.toISOString(),
    last_auto_balance: null,
    fast_convert_available: false,
    grid_bots_allowed: true,
    api_key_invalid: account.apiKeyInvalid,
    market_icon: market.icon,
    deposit_enabled: !paper,
    include_in_summary: account.includeInSummary,
    supported_market_types: ['spot'],
    primary_display_currency_profit_percentage: usd(percent(monthUsd, overview.usdMonthStart)),
    primary_display_currency_profit: usd(money(monthUsd)),
    day_profit_primary_display_currency_percentage: usd(percent(dayUsd, overview.usdDayStart)),
    day_profit_primary_display_currency: usd(money(dayUsd)),
    primary_display_currency_amount: usd(money(overview.usd)),
    total_primary_display_currency_profit: { currency: 'USD', amount: Number(money(totalUsd)) },
    available_include_in_summary: true,
    name: account.name,
    auto_balance_method: null,
    auto_balance_error: null,
    customer_id: null,
    subaccount_name: null,
    lock_reason: null,
    btc_amount: money(overview.btc),
    usd_amount: money(overview.usd),
    day_profit_btc: money(dayBtc),
    day_profit_usd: money(dayUsd),
    day_profit_btc_percentage: percent(dayBtc, overview.btcDayStart),
    day_profit_usd_percentage: percent(dayUsd, overview.usdDayStart),
    btc_profit: money(monthBtc),
    usd_profit: money(monthUsd),
    usd_profit_percentage: percent(monthUsd, overview.usdMonthStart),
    btc_profit_percentage: percent(monthBtc, overview.btcMonthStart),
    total_btc_profit: money(totalBtc),
    total_usd_profit: money(totalUsd),
    pretty_display_type: paper ? 'PaperTrading' : market.name,
    exchange_name: market.name,
    market_code: account.marketCode,
    api_keys_state: account.apiKeyInvalid ? 'expired' : 'ok',
  };
}

/** Amounts, prices and values here are JSON numbers, as the reference sends them. */
export function presentTableData(overview: AccountOverview) {
  return overview.balances
    .filter((balance) => !balance.total.isZero())
    .map((balance) => ({
      currency_code: balance.currency,
      currency_name: balance.currency,
      currency_icon: '',
      currency_slug: balance.currency.toLowerCase(),
      percentage: Number(share(balance.usdValue, overview.usd)),
      position: number(balance.total),
      position_available: number(balance.free),
      position_type: 'long',
      borrowed: 0,
      on_orders: number(balance.locked),
      on_orders_with_leverage: 0,
      on_orders_long: number(balance.locked),
      on_orders_short: 0,
      equity: number(balance.total),
      current_price: Number(money(balance.btcPrice ?? ZERO)),
      current_price_usd: Number(money(balance.usdPrice ?? ZERO)),
      day_change_percent: 0,
      day_change_percent_btc: 0,
      day_change_percent_usd: 0,
      btc_value: Number(money(balance.btcValue)),
      usd_value: Number(money(balance.usdValue)),
      available_long: number(balance.free),
      available_short: 0,
      available_with_leverage_long: number(balance.free),
      available_with_leverage_short: 0,
      account_id: overview.account.id,
      is_wallet: false,
    }));
}

/** Shares and amounts are numbers, values strings, as in the reference's example. */
export function presentPieChart(overview: AccountOverview) {
  return overview.balances
    .filter((balance) => !balance.total.isZero())
    .map((balance) => ({
      code: balance.currency,
      coinmarketcapid: null,
      name: balance.currency,
      y: Number(share(balance.usdValue, overview.usd)),
      percentage: Number(share(balance.usdValue, overview.usd)),
      amount: number(balance.total),
      btc_value: money(balance.btcValue),
      usd_value: money(balance.usdValue),
      primary_display_currency: usd(money(balance.usdValue)),
      account_id: overview.account.id,
    }));
}

function share(part: Decimal, whole: Decimal): string {
  return whole.isZero() ? '0' : part.div(whole).times(100).toDecimalPlaces(2).toFixed();
}
