/**
 * A bot's settings as the reference's create/update body names them, checked for what the
 * request schema cannot say (take-profit steps adding up to 100, trailing on a single take profit,
 * breakeven needing two steps, known start conditions, price range order, ...), with each problem
 * reported on the field it concerns. `paramsOf` gives the body back, so that an update can send
 * only what changes.
 */
import { parsePair } from '../market/pair.ts';
import { dec, type Decimal } from '../../shared/decimal.ts';
import type { FieldErrorCollector } from '../../shared/errors.ts';
import { type BotConfig, type DealSettings, type StartCondition, type StartStrategy } from './dca-settings.ts';
import { INDICATOR_STRATEGIES, indicatorCondition } from './start-conditions.ts';

type Maybe<T> = T | null | undefined;

export interface BotParams {
  name?: string;
  pairs?: string[];
  max_active_deals?: number;
  strategy?: 'long' | 'short';
  profit_currency?: 'quote_currency' | 'base_currency';
  base_order_volume?: string;
  base_order_volume_type?: 'quote_currency' | 'base_currency' | 'percent';
  safety_order_volume?: string;
  safety_order_volume_type?: 'quote_currency' | 'base_currency' | 'percent';
  start_order_type?: 'limit' | 'market';
  strategy_list?: Array<{ strategy: string; options?: Record<string, unknown> }>;
  take_profit_type?: 'base' | 'total';
  take_profit?: Maybe<string>;
  take_profit_steps?: Array<{ amount_percentage: string; profit_percentage: string }>;
  trailing_enabled?: boolean;
  trailing_deviation?: Maybe<string>;
  stop_loss_percentage?: Maybe<string>;
  stop_loss_type?: 'stop_loss' | 'stop_loss_and_disable_bot';
  stop_loss_timeout_enabled?: boolean;
  stop_loss_timeout_in_seconds?: Maybe<number>;
  tsl_enabled?: boolean;
  sl_to_breakeven_enabled?: boolean;
  safety_order_step_percentage?: string;
  martingale_volume_coefficient?: string;
  martingale_step_coefficient?: string;
  max_safety_orders?: number;
  active_safety_orders_count?: number;
  custom_safety_steps?: Array<{ deviation: string; size: string }>;
  min_price?: Maybe<string>;
  max_price?: Maybe<string>;
  cooldown?: Maybe<number>;
  disable_after_deals_count?: Maybe<number>;
  allowed_deals_on_same_pair?: Maybe<number>;
  close_deals_timeout?: Maybe<number>;
  min_profit_percentage?: Maybe<string>;
  min_profit_type?: Maybe<'base_order_volume' | 'total_bought_volume'>;
  close_strategy_list?: Array<{ strategy: string; options?: Record<string, unknown> }>;
  [extra: string]: unknown;
}

/** Reference fields kept as sent and shown back, with no effect on trading here. */
export const EXTRA_FIELDS = [
  'leverage_type',
  'leverage_custom_value',
  'safety_strategy_list',
  'reinvesting_percentage',
  'risk_reduction_percentage',
  'min_volume_btc_24h',
  'deal_start_delay_seconds',
  'min_price_percentage',
  'max_price_percentage',
  'btc_price_limit',
  'sl_to_breakeven_data',
] as const;

const DEFAULT_FEE_RATE = '0.001';
const positive = (value: Maybe<number>) => (value === null || value === undefined || value <= 0 ? null : value);

export function botConfigFrom(params: BotParams, invalid: FieldErrorCollector): BotConfig | undefined {
  const pairs = (params.pairs ?? []).map((pair) => parsePair(pair)?.code ?? '');
  if (pairs.length === 0) invalid.add('pairs', 'is empty');
  if (pairs.some((pair) => pair === '')) invalid.add('pairs', 'is invalid');
  const deal = dealSettingsFrom(params, invalid);
  const strategyList = startConditions(params.strategy_list ?? [], invalid);
  // The prices a bot hears carry no traded volume, so a 24-hour volume floor could never be checked.
  if (params.min_volume_btc_24h !== undefined && params.min_volume_btc_24h !== null && !dec(String(params.min_volume_btc_24h)).isZero()) {
    invalid.add('min_volume_btc_24h', 'is not supported: the prices this server follows carry no traded volume');
  }
  const minPrice = params.min_price ?? null;
  const maxPrice = params.max_price ?? null;
  if (minPrice !== null && maxPrice !== null && dec(minPrice).gt(dec(maxPrice))) invalid.add('min_price', 'must be less than or equal to max_price');
  const extra: Record<string, unknown> = {};
  for (const field of EXTRA_FIELDS) if (params[field] !== undefined) extra[field] = params[field];
  if (!invalid.isEmpty || !deal) return undefined;
  return {
    name: params.name ?? '',
    pairs: [...new Set(pairs)],
    maxActiveDeals: params.max_active_deals ?? 1,
    allowedDealsOnSamePair: positive(params.allowed_deals_on_same_pair),
    cooldown: params.cooldown ?? 0,
    disableAfterDealsCount: positive(params.disable_after_deals_count),
    minPrice: minPrice === null || dec(minPrice).isZero() ? null : minPrice,
    maxPrice: maxPrice === null || dec(maxPrice).isZero() ? null : maxPrice,
    strategyList,
    deal,
    extra,
  };
}

export function dealSettingsFrom(params: BotParams, invalid: FieldErrorCollector): DealSettings | undefined {
  const steps = (params.take_profit_steps ?? []).map((step) => ({
    amountPercentage: step.amount_percentage,
    profitPercentage: step.profit_percentage,
  }));
  if (steps.length > 0) {
    const total = steps.reduce<Decimal>((sum, step) => sum.plus(dec(step.amountPercentage)), dec(0));
    if (!total.eq(100)) invalid.add('take_profit_steps', 'amount_percentage values must add up to 100');
    if (steps.some((step) => dec(step.profitPercentage).lte(0))) invalid.add('take_profit_steps', 'profit_percentage must be greater than 0');
  } else if (params.take_profit === null || params.take_profit === undefined || dec(params.take_profit).lte(0)) {
    invalid.add('take_profit', params.take_profit === undefined ? 'is missing' : 'must be greater than 0');
  }
  const trailing = params.trailing_enabled ?? false;
  if (trailing && steps.length > 1) invalid.add('trailing_enabled', 'is not available with several take_profit_steps');
  if (trailing && (params.trailing_deviation === null || params.trailing_deviation === undefined || dec(params.trailing_deviation).lte(0))) {
    invalid.add('trailing_deviation', 'must be greater than 0 when trailing is enabled');
  }
  if (params.sl_to_breakeven_enabled && steps.length < 2) invalid.add('sl_to_breakeven_enabled', 'needs at least two take_profit_steps');
  // A percent safety order is that share of the base order; a percent base order would be a share
  // of the free balance, which a bot does not see when it starts a deal.
  if (params.base_order_volume_type === 'percent') invalid.add('base_order_volume_type', 'percent is not supported');
  for (const field of ['martingale_volume_coefficient', 'martingale_step_coefficient'] as const) {
    const value = params[field];
    if (value !== undefined && (dec(value).lt('0.1') || dec(value).gt(10))) invalid.add(field, 'must be from 0.1 to 10');
  }
  for (const [index, step] of (params.custom_safety_steps ?? []).entries()) {
    if (dec(step.deviation).lt(-100) || dec(step.deviation).gt(10000)) invalid.add(`custom_safety_steps[${index}][deviation]`, 'must be from -100 to 10000');
    if (dec(step.size).lte(0)) invalid.add(`custom_safety_steps[${index}][size]`, 'must be greater than 0');
  }
  const closeTimeout = params.close_deals_timeout;
  if (closeTimeout !== null && closeTimeout !== undefined && closeTimeout > 0 && closeTimeout < 60) {
    invalid.add('close_deals_timeout', 'must be greater than or equal to 60');
  }
  if ((params.active_safety_orders_count ?? 1) < 1 && (params.max_safety_orders ?? 0) > 0) {
    invalid.add('active_safety_orders_count', 'must be greater than or equal to 1');
  }
  const closeStrategyList = indicatorConditions(params.close_strategy_list ?? [], 'close_strategy_list', invalid);
  // The reference applies a minimum profit to deals closed by a close strategy; without one it would do nothing.
  if (params.min_profit_percentage !== undefined && params.min_profit_percentage !== null && !dec(params.min_profit_percentage).isZero() && closeStrategyList.length === 0) {
    invalid.add('min_profit_percentage', 'only applies with a close_strategy_list');
  }
  const timeoutEnabled = params.stop_loss_timeout_enabled ?? false;
  if (timeoutEnabled && !positive(params.stop_loss_timeout_in_seconds)) invalid.add('stop_loss_timeout_in_seconds', 'must be greater than 0');
  if (!invalid.isEmpty) return undefined;
  return {
    strategy: params.strategy ?? 'long',
    profitCurrency: params.profit_currency ?? 'quote_currency',
    baseOrderVolume: params.base_order_volume ?? '0',
    baseOrderVolumeType: params.base_order_volume_type ?? 'quote_currency',
    safetyOrderVolume: params.safety_order_volume ?? '0',
    safetyOrderVolumeType: params.safety_order_volume_type ?? 'quote_currency',
    startOrderType: params.start_order_type ?? 'limit',
    takeProfitType: params.take_profit_type ?? 'total',
    takeProfit: steps.length > 0 ? '0' : (params.take_profit ?? '0'),
    takeProfitSteps: steps,
    trailingEnabled: trailing,
    trailingDeviation: params.trailing_deviation ?? '0.2',
    stopLossPercentage: params.stop_loss_percentage ?? '0',
    stopLossType: params.stop_loss_type ?? 'stop_loss',
    stopLossTimeoutEnabled: timeoutEnabled,
    stopLossTimeoutSeconds: params.stop_loss_timeout_in_seconds ?? 0,
    tslEnabled: params.tsl_enabled ?? false,
    slToBreakevenEnabled: params.sl_to_breakeven_enabled ?? false,
    safetyOrderStepPercentage: params.safety_order_step_percentage ?? '1',
    martingaleVolumeCoefficient: params.martingale_volume_coefficient ?? '1',
    martingaleStepCoefficient: params.martingale_step_coefficient ?? '1',
    maxSafetyOrders: params.max_safety_orders ?? 0,
    activeSafetyOrdersCount: params.active_safety_orders_count ?? 1,
    customSafetySteps: (params.custom_safety_steps ?? []).map((step) => ({ deviation: step.deviation, size: step.size })),
    closeDealsTimeout: positive(params.close_deals_timeout),
    minProfitPercentage: params.min_profit_percentage ?? '0',
    closeStrategyList,
    minProfitType: params.min_profit_type ?? 'total_bought_volume',
    feeRate: DEFAULT_FEE_RATE,
  };
}

function startConditions(list: NonNullable<BotParams['strategy_list']>, invalid: FieldErrorCollector): StartCondition[] {
  const conditions = list.flatMap((item, index) => {
    if (item.strategy !== 'manual' && item.strategy !== 'nonstop' && item.strategy !== 'tv_custom_signal') return indicatorConditions([item], 'strategy_list', invalid, index);
    return [{ strategy: item.strategy, options: item.options ?? {} } satisfies StartCondition];
  });
  if (conditions.some((c) => c.strategy === 'nonstop') && conditions.length > 1) {
    invalid.add('strategy_list', 'nonstop cannot be combined with other conditions');
  }
  return conditions;
}

/** Indicator conditions (start-conditions.ts), each checked; `first` numbers them within `name`. */
function indicatorConditions(list: NonNullable<BotParams['strategy_list']>, name: string, invalid: FieldErrorCollector, first = 0): StartCondition[] {
  return list.flatMap((item, offset) => {
    const field = `${name}[${first + offset}]`;
    const options = item.options ?? {};
    if (item.strategy === 'mfi') {
      invalid.add(`${field}[strategy]`, 'is not supported: candles built from prices carry no traded volume');
    } else if ((INDICATOR_STRATEGIES as readonly string[]).includes(item.strategy)) {
      indicatorCondition(item.strategy, options, field, invalid);
      return [{ strategy: item.strategy as StartStrategy, options }];
    } else {
      invalid.add(`${field}[strategy]`, 'is not supported');
    }
    return [];
  });
}

/** The body that would create this configuration. */
export function paramsOf(config: BotConfig): BotParams {
  const { deal } = config;
  return {
    ...config.extra,
    name: config.name,
    pairs: config.pairs,
    max_active_deals: config.maxActiveDeals,
    strategy: deal.strategy,
    profit_currency: deal.profitCurrency,
    base_order_volume: deal.baseOrderVolume,
    base_order_volume_type: deal.baseOrderVolumeType,
    safety_order_volume: deal.safetyOrderVolume,
    safety_order_volume_type: deal.safetyOrderVolumeType,
    start_order_type: deal.startOrderType,
    strategy_list: config.strategyList.map((condition) => ({ strategy: condition.strategy, options: condition.options })),
    take_profit_type: deal.takeProfitType,
    take_profit: deal.takeProfit,
    take_profit_steps: deal.takeProfitSteps.map((s) => ({ amount_percentage: s.amountPercentage, profit_percentage: s.profitPercentage })),
    trailing_enabled: deal.trailingEnabled,
    trailing_deviation: deal.trailingDeviation,
    stop_loss_percentage: deal.stopLossPercentage,
    stop_loss_type: deal.stopLossType,
    stop_loss_timeout_enabled: deal.stopLossTimeoutEnabled,
    stop_loss_timeout_in_seconds: deal.stopLossTimeoutSeconds,
    tsl_enabled: deal.tslEnabled,
    sl_to_breakeven_enabled: deal.slToBreakevenEnabled,
    safety_order_step_percentage: deal.safetyOrderStepPercentage,
    martingale_volume_coefficient: deal.martingaleVolumeCoefficient,
    martingale_step_coefficient: deal.martingaleStepCoefficient,
    max_safety_orders: deal.maxSafetyOrders,
    active_safety_orders_count: deal.activeSafetyOrdersCount,
    custom_safety_steps: deal.customSafetySteps.map((s) => ({ deviation: s.deviation, size: s.size })),
    min_price: config.minPrice,
    max_price: config.maxPrice,
    cooldown: config.cooldown,
    disable_after_deals_count: config.disableAfterDealsCount,
    allowed_deals_on_same_pair: config.allowedDealsOnSamePair,
    close_deals_timeout: deal.closeDealsTimeout,
    min_profit_percentage: deal.minProfitPercentage,
    min_profit_type: deal.minProfitType ?? 'total_bought_volume',
    close_strategy_list: (deal.closeStrategyList ?? []).map((condition) => ({ strategy: condition.strategy, options: condition.options })),
  };
}
