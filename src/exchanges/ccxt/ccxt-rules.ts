/**
 * Trading rules from a ccxt market: steps from `precision` (read according to the exchange's
 * `precisionMode`), bounds from `limits`, then what Binance-style `info.filters` add (market order
 * caps, whether the minimum total applies to market orders, the price band). Values the exchange
 * does not state become permissive: zero for minimums, NO_UPPER_LIMIT for maximums.
 */
import type { MarketInterface as CcxtMarket } from 'ccxt';
import type { TradingRules } from '../../domain/market/trading-rules.ts';
import { dec, type Decimal, ZERO } from '../../shared/decimal.ts';
import { decimalOr, decimalOrUndefined } from './ccxt-decimal.ts';

export const NO_UPPER_LIMIT = dec('1000000000000000');

/** ccxt's precision modes (ccxt.DECIMAL_PLACES, ccxt.SIGNIFICANT_DIGITS, ccxt.TICK_SIZE). */
export const PRECISION_MODE = { decimalPlaces: 2, significantDigits: 3, tickSize: 4 } as const;

/**
 * The step a precision value stands for. With significant digits the step depends on the price
 * itself, so there is no fixed step: zero means "no grid", and orders still go out formatted by
 * ccxt.
 */
export function stepFromPrecision(precision: unknown, precisionMode: number): Decimal {
  const value = decimalOrUndefined(precision);
  if (value === undefined) return ZERO;
  if (precisionMode === PRECISION_MODE.tickSize) return value.gt(ZERO) ? value : ZERO;
  // Zero decimal places is a step of 1; negative ones round to tens, hundreds, ...
  if (precisionMode === PRECISION_MODE.decimalPlaces && value.isInteger()) return dec(10).pow(value.neg());
  return ZERO;
}

type Band = Pick<TradingRules, 'bidMultiplierUp' | 'bidMultiplierDown' | 'askMultiplierUp' | 'askMultiplierDown'>;

const PERMISSIVE_BAND: Band = {
  bidMultiplierUp: NO_UPPER_LIMIT,
  bidMultiplierDown: ZERO,
  askMultiplierUp: NO_UPPER_LIMIT,
  askMultiplierDown: ZERO,
};

const positive = (value: unknown): Decimal | undefined => {
  const parsed = decimalOrUndefined(value);
  return parsed !== undefined && parsed.gt(ZERO) ? parsed : undefined;
};

export function tradingRulesFrom(market: CcxtMarket, precisionMode: number): TradingRules {
  const priceStep = stepFromPrecision(market.precision.price, precisionMode);
  const lotStep = stepFromPrecision(market.precision.amount, precisionMode);
  const limits = market.limits;
  const maxLotSize = positive(limits.amount?.max) ?? NO_UPPER_LIMIT;
  const minTotal = decimalOr(limits.cost?.min, ZERO);
  const marketCap = positive(limits.market?.max) ?? maxLotSize;
  const rules: TradingRules = {
    minPrice: positive(limits.price?.min) ?? priceStep,
    maxPrice: positive(limits.price?.max) ?? NO_UPPER_LIMIT,
    priceStep,
    minLotSize: positive(limits.amount?.min) ?? lotStep,
    maxLotSize,
    lotStep,
    minTotal,
    minMarketTotal: minTotal,
    maxTotal: positive(limits.cost?.max) ?? NO_UPPER_LIMIT,
    maxMarketBuyAmount: marketCap,
    maxMarketSellAmount: marketCap,
    ...PERMISSIVE_BAND,
  };
  return { ...rules, ...binanceFilterRules(market.info) };
}

type Filter = Record<string, unknown> & { filterType?: unknown };

/** What Binance's symbol filters state beyond ccxt's unified limits, read from the raw strings. */
export function binanceFilterRules(info: unknown): Partial<TradingRules> {
  const filters = (info as { filters?: unknown } | undefined)?.filters;
  if (!Array.isArray(filters)) return {};
  const byType = new Map<unknown, Filter>((filters as Filter[]).map((filter) => [filter.filterType, filter]));
  const overrides: Partial<TradingRules> = {};
  const marketLot = positive(byType.get('MARKET_LOT_SIZE')?.['maxQty']);
  if (marketLot) {
    overrides.maxMarketBuyAmount = marketLot;
    overrides.maxMarketSellAmount = marketLot;
  }
  const notional = byType.get('NOTIONAL');
  const minNotional = byType.get('MIN_NOTIONAL');
  if (notional && notional['applyMinToMarket'] === false) overrides.minMarketTotal = ZERO;
  else if (!notional && minNotional && minNotional['applyToMarket'] === false) overrides.minMarketTotal = ZERO;
  const bySide = byType.get('PERCENT_PRICE_BY_SIDE');
  const symmetric = byType.get('PERCENT_PRICE');
  if (bySide) {
    Object.assign(overrides, bandFrom(bySide, 'bidMultiplierUp', 'bidMultiplierDown', 'askMultiplierUp', 'askMultiplierDown'));
  } else if (symmetric) {
    Object.assign(overrides, bandFrom(symmetric, 'multiplierUp', 'multiplierDown', 'multiplierUp', 'multiplierDown'));
  }
  return overrides;
}

function bandFrom(filter: Filter, bidUp: string, bidDown: string, askUp: string, askDown: string): Partial<Band> {
  const band: Partial<Band> = {};
  const set = (key: keyof Band, value: unknown) => {
    const parsed = positive(value);
    if (parsed) band[key] = parsed;
  };
  set('bidMultiplierUp', filter[bidUp]);
  set('bidMultiplierDown', filter[bidDown]);
  set('askMultiplierUp', filter[askUp]);
  set('askMultiplierDown', filter[askDown]);
  return band;
}
