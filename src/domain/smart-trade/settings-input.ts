/**
 * SmartTrade settings as the reference API sends them (nested groups, decimals as strings) read
 * into the state machine's configuration. Fields a group needs once it is enabled are reported
 * missing under the reference's bracketed names; the rules between fields are in validation.ts.
 */
import { type Decimal, dec } from '../../shared/decimal.ts';
import type { FieldErrorCollector } from '../../shared/errors.ts';
import type { ConditionalEntry, OrderKind, PriceLevel, PriceType, StopLossConfig, TakeProfitStepConfig } from './smart-trade.types.ts';

export interface PriceInput {
  type?: PriceType;
  value?: string;
  percent?: string;
}

export interface TrailingInput {
  enabled?: boolean;
  percent?: string;
}

export interface PositionInput {
  type?: 'buy' | 'sell';
  order_type?: 'market' | 'limit' | 'conditional';
  units?: { value?: string };
  price?: { value?: string };
  conditional?: { order_type?: OrderKind; price?: PriceInput; trailing?: TrailingInput };
}

export interface TakeProfitInput {
  enabled?: boolean;
  steps?: Array<{ id?: number; order_type?: OrderKind; volume?: string; price?: PriceInput; trailing?: TrailingInput }>;
}

export interface StopLossInput {
  enabled?: boolean;
  breakeven?: boolean;
  order_type?: OrderKind;
  price?: { value?: string };
  conditional?: { price?: PriceInput; trailing?: TrailingInput };
  timeout?: { enabled?: boolean; value?: number };
}

const decimal = (value: string | undefined): Decimal | undefined => (value === undefined ? undefined : dec(value));

function level(price: PriceInput | undefined): PriceLevel {
  return {
    ...(price?.value === undefined ? {} : { value: dec(price.value) }),
    ...(price?.percent === undefined ? {} : { percent: dec(price.percent) }),
  };
}

export function readConditional(
  input: PositionInput['conditional'],
  side: 'buy' | 'sell',
  errors: FieldErrorCollector,
): ConditionalEntry | undefined {
  const trigger = decimal(input?.price?.value);
  if (trigger === undefined) errors.add('position[conditional][price][value]', 'is missing');
  if (input?.order_type === undefined) errors.add('position[conditional][order_type]', 'is missing');
  if (input?.trailing?.enabled && input.trailing.percent === undefined) errors.add('position[conditional][trailing][percent]', 'is missing');
  if (trigger === undefined || input?.order_type === undefined) return undefined;
  const percent = input.trailing?.enabled ? decimal(input.trailing.percent) : undefined;
  return {
    // The reference's default trigger: the ask for a long, the bid for a short.
    priceType: input.price?.type ?? (side === 'buy' ? 'ask' : 'bid'),
    trigger,
    orderType: input.order_type,
    ...(percent === undefined ? {} : { trailingPercent: percent }),
  };
}

export function readTakeProfit(
  input: TakeProfitInput | undefined,
  errors: FieldErrorCollector,
): { enabled: boolean; steps: Array<TakeProfitStepConfig & { id?: number }> } {
  if (!input?.enabled) return { enabled: false, steps: [] };
  const steps: Array<TakeProfitStepConfig & { id?: number }> = [];
  (input.steps ?? []).forEach((step, index) => {
    const field = `take_profit[steps][${index}]`;
    if (step.order_type === undefined) errors.add(`${field}[order_type]`, 'is missing');
    if (step.volume === undefined) errors.add(`${field}[volume]`, 'is missing');
    if (step.trailing?.enabled && step.trailing.percent === undefined) errors.add(`${field}[trailing][percent]`, 'is missing');
    if (step.order_type === undefined || step.volume === undefined) return;
    const trailing = step.trailing?.enabled ? decimal(step.trailing.percent) : undefined;
    steps.push({
      ...(step.id === undefined ? {} : { id: step.id }),
      orderType: step.order_type,
      volume: dec(step.volume),
      priceType: step.price?.type ?? 'last',
      price: level(step.price),
      ...(trailing === undefined ? {} : { trailingPercent: trailing }),
    });
  });
  return { enabled: true, steps };
}

/** Undefined when the stop loss is disabled. */
export function readStopLoss(input: StopLossInput | undefined, errors: FieldErrorCollector): StopLossConfig | undefined {
  if (!input?.enabled) return undefined;
  if (input.order_type === undefined) errors.add('stop_loss[order_type]', 'is missing');
  if (input.timeout?.enabled && input.timeout.value === undefined) errors.add('stop_loss[timeout][value]', 'is missing');
  if (input.order_type === undefined) return undefined;
  const limitPrice = decimal(input.price?.value);
  const trailingPercent = input.conditional?.trailing?.enabled ? decimal(input.conditional.trailing.percent) : undefined;
  return {
    orderType: input.order_type,
    ...(limitPrice === undefined ? {} : { limitPrice }),
    priceType: input.conditional?.price?.type ?? 'last',
    trigger: level(input.conditional?.price),
    trailing: input.conditional?.trailing?.enabled === true,
    ...(trailingPercent === undefined ? {} : { trailingPercent }),
    breakeven: input.breakeven === true,
    ...(input.timeout?.enabled && input.timeout.value !== undefined ? { timeoutSeconds: input.timeout.value } : {}),
  };
}
