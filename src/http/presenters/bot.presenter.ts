/**
 * The reference's DCA bot entity. Types follow its example: decimals as strings, counts of
 * orders and deals as numbers, cooldown and finished-deal figures as strings.
 */
import type { DcaBotState } from '../../domain/dca-bot/dca-bot-state.ts';
import type { Automation, StoredEvent } from '../../engine/automation-kind.ts';
import { TA_PRESET_TYPES } from '../../domain/dca-bot/start-conditions.ts';
import { dec, type Decimal } from '../../shared/decimal.ts';

export interface BotPresentation {
  bot: Automation<DcaBotState>;
  accountName: string;
  /** The bot's TradingView signal token (docs/signals.md), shown to its owner only. */
  emailToken: string;
  activeDealsUsdProfit: Decimal;
  /** Present on show, enable and disable. */
  activeDeals?: unknown[];
  events?: StoredEvent[];
}

const text = (value: string | null) => (value === null ? null : dec(value).toFixed());
const extra = (state: DcaBotState, field: string, fallback: unknown = null) => state.config.extra[field] ?? fallback;
/** A decimal string with at least one fractional digit (`"20.0"`), as the reference's examples write percentages. */
const percentText = (value: unknown) => {
  if (value === null || value === undefined) return null;
  const fixed = dec(String(value)).toFixed();
  return fixed.includes('.') ? fixed : `${fixed}.0`;
};

export function presentBot({ bot, accountName, emailToken, activeDealsUsdProfit, activeDeals, events }: BotPresentation) {
  const { state } = bot;
  const { config } = state;
  const { deal } = config;
  const multi = config.pairs.length > 1;
  const entity: Record<string, unknown> = {
    id: bot.id,
    account_id: bot.accountId,
    is_enabled: state.enabled,
    max_safety_orders: deal.maxSafetyOrders,
    active_safety_orders_count: deal.activeSafetyOrdersCount,
    pairs: config.pairs,
    strategy_list: config.strategyList.map((condition) => ({ strategy: condition.strategy, options: condition.options })),
    close_strategy_list: (deal.closeStrategyList ?? []).map((condition) => ({ strategy: condition.strategy, options: condition.options })),
    safety_strategy_list: extra(state, 'safety_strategy_list', []),
    max_active_deals: config.maxActiveDeals,
    active_deals_count: state.deals.length,
    'deletable?': state.deals.length === 0,
    created_at: bot.createdAt.toISOString(),
    updated_at: bot.updatedAt.toISOString(),
    trailing_enabled: deal.trailingEnabled,
    tsl_enabled: deal.tslEnabled,
    deal_start_delay_seconds: extra(state, 'deal_start_delay_seconds'),
    stop_loss_timeout_enabled: deal.stopLossTimeoutEnabled,
    stop_loss_timeout_in_seconds: deal.stopLossTimeoutSeconds,
    disable_after_deals_count: config.disableAfterDealsCount,
    deals_counter: config.disableAfterDealsCount === null ? null : state.dealsCounter,
    allowed_deals_on_same_pair: multi ? config.allowedDealsOnSamePair : null,
    easy_form_supported: false,
    close_deals_timeout: deal.closeDealsTimeout,
    url_secret: state.urlSecret,
    email_token: emailToken,
    take_profit_steps: deal.takeProfitSteps.map((step, index) => ({
      id: index,
      amount_percentage: dec(step.amountPercentage).toFixed(),
      profit_percentage: dec(step.profitPercentage).toFixed(),
    })),
    name: config.name,
    take_profit: text(deal.takeProfit),
    min_profit_percentage: text(deal.minProfitPercentage),
    base_order_volume: text(deal.baseOrderVolume),
    safety_order_volume: text(deal.safetyOrderVolume),
    safety_order_step_percentage: text(deal.safetyOrderStepPercentage),
    safety_order_calculation_mode: 'combined',
    take_profit_type: deal.takeProfitType,
    min_profit_type: deal.minProfitType ?? extra(state, 'min_profit_type'),
    type: multi ? 'Bot::MultiBot' : 'Bot::SingleBot',
    martingale_volume_coefficient: text(deal.martingaleVolumeCoefficient),
    martingale_step_coefficient: text(deal.martingaleStepCoefficient),
    stop_loss_percentage: text(deal.stopLossPercentage),
    cooldown: String(config.cooldown),
    btc_price_limit: String(extra(state, 'btc_price_limit', '0')),
    strategy: deal.strategy,
    min_volume_btc_24h: String(extra(state, 'min_volume_btc_24h', '0')),
    profit_currency: deal.profitCurrency,
    min_price: text(config.minPrice),
    max_price: text(config.maxPrice),
    stop_loss_type: deal.stopLossType,
    safety_order_volume_type: deal.safetyOrderVolumeType,
    base_order_volume_type: deal.baseOrderVolumeType,
    account_name: accountName,
    trailing_deviation: text(deal.trailingDeviation),
    finished_deals_profit_usd: dec(state.finishedDealsProfitUsd).toDecimalPlaces(8).toFixed(),
    finished_deals_count: String(state.finishedDealsCount),
    leverage_type: extra(state, 'leverage_type', 'not_specified'),
    leverage_custom_value: extra(state, 'leverage_custom_value'),
    start_order_type: deal.startOrderType,
    active_deals_usd_profit: activeDealsUsdProfit.toDecimalPlaces(8).toFixed(),
    reinvesting_percentage: percentText(extra(state, 'reinvesting_percentage')),
    risk_reduction_percentage: percentText(extra(state, 'risk_reduction_percentage')),
    reinvested_volume_usd: null,
    min_price_percentage: extra(state, 'min_price_percentage'),
    max_price_percentage: extra(state, 'max_price_percentage'),
    custom_safety_steps: deal.customSafetySteps.map((step) => ({ deviation: step.deviation, size: Number(step.size) })),
  };
  if (activeDeals !== undefined) entity.active_deals = activeDeals;
  if (events !== undefined) entity.bot_events = events.map((event) => ({ message: event.message, created_at: event.createdAt.toISOString() }));
  return entity;
}

const TIMES = {
  '1m': '1 minute', '3m': '3 minutes', '5m': '5 minutes', '15m': '15 minutes', '30m': '30 minutes', '1h': '1 hour',
  '2h': '2 hours', '4h': '4 hours', '8h': '8 hours', '1d': '1 day', '3d': '3 days', '1w': '1 week',
};
const TRIGGERS = { less: 'less', greater: 'greater', crossing_above: 'crossing_down', crossing_below: 'crossing_up' };
const indicator = (name: string, options: Record<string, unknown>) => ({
  name,
  payed: false,
  beta: false,
  strategy_type: 'indicator',
  options: { time: TIMES, ...options },
});

/** The deal start conditions the bots here understand, in the reference's strategy_list shape. */
export const STRATEGY_LIST = {
  manual: { strategy_type: 'signal', payed: false, beta: false, name: "Manually/API (Bot won't open new trades automatically)" },
  nonstop: { strategy_type: 'signal', payed: false, beta: false, name: 'Open new trade asap' },
  tv_custom_signal: { strategy_type: 'signal', payed: false, beta: false, name: 'Trading View custom signal' },
  rsi: indicator('RSI', { points: null, trigger_condition: TRIGGERS, time_period: null }),
  ult: indicator('Ultimate Oscillator', { trigger_condition: TRIGGERS, points: null, first_period: null, second_period: null, third_period: null }),
  b_bands_percent: indicator('Bollinger Bands %B', { points: null, trigger_condition: TRIGGERS, time_period: null, deviation: null }),
  ma_cross: indicator('Moving Average (MA)', { indicator_type: { ema: 'ema', sma: 'sma' }, trigger_condition: TRIGGERS, time_period_first: null, time_period_second: null }),
  cci: indicator('Commodity Channel Index', { trigger_condition: TRIGGERS, points: null, time_period: null }),
  ta_preset: indicator('TA Presets', { type: Object.fromEntries(TA_PRESET_TYPES.map((type) => [type, type])) }),
};
