/**
 * The rules a SmartTrade's settings must meet beyond their shape, reported field by field with
 * the reference's keys (`take_profit[steps][0][price][value],take_profit[steps][0][price][percent]`
 * "are mutually exclusive"). Prices and amounts are checked against the market's rules, and
 * take-profit and stop-loss prices against the expected entry price where one is known.
 */
import { type Decimal, isMultipleOf } from '../../shared/decimal.ts';
import { FieldErrorCollector } from '../../shared/errors.ts';
import type { TradingRules } from '../market/trading-rules.ts';
import type { EntryConfig, SmartTradeConfig, StopLossConfig, TakeProfitStepConfig } from './smart-trade.types.ts';

export const MAX_TAKE_PROFIT_STEPS = 8;

export interface Quote {
  bid: Decimal;
  ask: Decimal;
  last: Decimal;
}

export function validateSmartTrade(config: SmartTradeConfig, rules: TradingRules, quote: Quote | undefined): void {
  const errors = new FieldErrorCollector();
  if (config.instant && config.skipEnterStep) errors.add('skip_enter_step', 'cannot be used with instant');
  if (config.instant && config.takeProfit.enabled) errors.add('take_profit[enabled]', 'is not available for a simple trade');
  if (config.instant && config.stopLoss) errors.add('stop_loss[enabled]', 'is not available for a simple trade');
  validateEntry(config, rules, quote, errors);
  const entry = expectedEntry(config, quote);
  validateTakeProfit(config.takeProfit, config.side === 'buy', entry, rules, errors);
  if (config.stopLoss) validateStopLoss(config.stopLoss, config.side === 'buy', entry, config.takeProfit, rules, errors);
  errors.throwIfAny();
}

/** The price the position is expected to be entered at, before it is. */
export function expectedEntry(config: SmartTradeConfig, quote: Quote | undefined): Decimal | undefined {
  const { entry } = config;
  if (config.skipEnterStep) return entry.price ?? quote?.last;
  if (entry.orderType === 'limit') return entry.price;
  if (entry.orderType === 'conditional') return entry.conditional?.orderType === 'limit' ? entry.price : entry.conditional?.trigger;
  return config.side === 'buy' ? quote?.ask : quote?.bid;
}

export function validateEntry(config: SmartTradeConfig, rules: TradingRules, quote: Quote | undefined, errors: FieldErrorCollector): void {
  const { entry } = config;
  const units = entry.units;
  if (units.lte(0)) errors.add('position[units][value]', 'must be greater than 0');
  else if (!isMultipleOf(units, rules.lotStep)) errors.add('position[units][value]', `must be a multiple of ${rules.lotStep.toFixed()}`);
  else if (units.lt(rules.minLotSize)) errors.add('position[units][value]', `must be greater than or equal to ${rules.minLotSize.toFixed()}`);
  if (units.gt(rules.maxLotSize)) errors.add('units_to_buy', `must be less than or equal to ${rules.maxLotSize.toFixed()}`);
  const needsPrice = entry.orderType === 'limit' || (entry.orderType === 'conditional' && entry.conditional?.orderType === 'limit');
  if (needsPrice && entry.price === undefined) errors.add('position[price][value]', 'is missing');
  if (entry.price !== undefined) checkPrice('position[price][value]', entry.price, rules, errors);
  if (entry.orderType === 'conditional' && !config.skipEnterStep) validateConditional(entry, rules, errors);
  const price = expectedEntry(config, quote);
  if (price !== undefined && units.gt(0)) {
    const total = units.times(price);
    const minTotal = entry.orderType === 'market' ? rules.minMarketTotal : rules.minTotal;
    if (total.lt(minTotal)) errors.add('position.total', `must be greater than or equal to ${minTotal.toFixed()}`);
    if (total.gt(rules.maxTotal)) errors.add('position.total', `must be less than or equal to ${rules.maxTotal.toFixed()}`);
  }
}

function validateConditional(entry: EntryConfig, rules: TradingRules, errors: FieldErrorCollector): void {
  const conditional = entry.conditional;
  if (!conditional) {
    errors.add('position[conditional][price][value]', 'is missing');
    return;
  }
  checkPrice('position[conditional][price][value]', conditional.trigger, rules, errors);
  if (conditional.trailingPercent !== undefined) {
    if (conditional.orderType !== 'market') errors.add('position[conditional][trailing][enabled]', 'is only available with a market order');
    checkPercent('position[conditional][trailing][percent]', conditional.trailingPercent, errors);
  }
}

export function validateTakeProfit(
  takeProfit: { enabled: boolean; steps: readonly TakeProfitStepConfig[] },
  long: boolean,
  entry: Decimal | undefined,
  rules: TradingRules,
  errors: FieldErrorCollector,
): void {
  if (!takeProfit.enabled) return;
  const { steps } = takeProfit;
  if (steps.length === 0) errors.add('take_profit[steps]', 'is missing');
  if (steps.length > MAX_TAKE_PROFIT_STEPS) errors.add('take_profit[steps]', `must have at most ${MAX_TAKE_PROFIT_STEPS} items`);
  let total = steps[0]?.volume.times(0);
  steps.forEach((step, index) => {
    const field = `take_profit[steps][${index}]`;
    total = total?.plus(step.volume);
    if (step.volume.lte(0)) errors.add(`${field}[volume]`, 'must be greater than 0');
    checkLevel(`${field}[price]`, step.price, errors);
    if (step.price.value !== undefined) {
      checkPrice(`${field}[price][value]`, step.price.value, rules, errors);
      if (entry !== undefined && (long ? step.price.value.lte(entry) : step.price.value.gte(entry))) {
        errors.add(`${field}[price][value]`, `must be ${long ? 'greater' : 'less'} than the entry price ${entry.toFixed()}`);
      }
    }
    if (step.trailingPercent !== undefined) {
      if (index !== steps.length - 1) errors.add(`${field}[trailing][enabled]`, 'is only available on the last step');
      checkPercent(`${field}[trailing][percent]`, step.trailingPercent, errors);
    }
  });
  if (total !== undefined && !total.eq(100)) errors.add('take_profit[steps]', 'volumes must add up to 100');
}

export function validateStopLoss(
  stopLoss: StopLossConfig,
  long: boolean,
  entry: Decimal | undefined,
  takeProfit: { enabled: boolean; steps: readonly unknown[] },
  rules: TradingRules,
  errors: FieldErrorCollector,
): void {
  checkLevel('stop_loss[conditional][price]', stopLoss.trigger, errors);
  const value = stopLoss.trigger.value;
  if (value !== undefined) {
    checkPrice('stop_loss[conditional][price][value]', value, rules, errors);
    if (entry !== undefined && (long ? value.gte(entry) : value.lte(entry))) {
      errors.add('stop_loss[conditional][price][value]', `must be ${long ? 'less' : 'greater'} than the entry price ${entry.toFixed()}`);
    }
  }
  if (stopLoss.trigger.percent !== undefined && long && stopLoss.trigger.percent.gte(100)) {
    errors.add('stop_loss[conditional][price][percent]', 'must be less than 100');
  }
  if (stopLoss.orderType === 'limit') {
    if (stopLoss.limitPrice === undefined) errors.add('stop_loss[price][value]', 'is missing');
    else checkPrice('stop_loss[price][value]', stopLoss.limitPrice, rules, errors);
  }
  if (stopLoss.breakeven && (!takeProfit.enabled || takeProfit.steps.length < 2)) {
    errors.add('stop_loss[breakeven]', 'needs at least two take profit steps');
  }
  if (stopLoss.trailingPercent !== undefined) checkPercent('stop_loss[conditional][trailing][percent]', stopLoss.trailingPercent, errors);
  if (stopLoss.timeoutSeconds !== undefined && stopLoss.timeoutSeconds < 1) errors.add('stop_loss[timeout][value]', 'must be greater than 0');
}

function checkLevel(field: string, level: { value?: Decimal; percent?: Decimal }, errors: FieldErrorCollector): void {
  if (level.value !== undefined && level.percent !== undefined) {
    errors.add(`${field}[value],${field}[percent]`, 'are mutually exclusive');
  } else if (level.value === undefined && level.percent === undefined) {
    errors.add(`${field}[value]`, 'is missing');
  } else if (level.percent !== undefined && level.percent.lte(0)) {
    errors.add(`${field}[percent]`, 'must be greater than 0');
  }
}

function checkPrice(field: string, price: Decimal, rules: TradingRules, errors: FieldErrorCollector): void {
  if (price.lte(0)) errors.add(field, 'must be greater than 0');
  else if (!isMultipleOf(price, rules.priceStep)) errors.add(field, `must be a multiple of ${rules.priceStep.toFixed()}`);
  else if (price.lt(rules.minPrice) || price.gt(rules.maxPrice)) {
    errors.add(field, `must be between ${rules.minPrice.toFixed()} and ${rules.maxPrice.toFixed()}`);
  }
}

function checkPercent(field: string, percent: Decimal, errors: FieldErrorCollector): void {
  if (percent.lt('0.01')) errors.add(field, 'must be greater than or equal to 0.01');
  if (percent.gt(100)) errors.add(field, 'must be less than or equal to 100');
}
