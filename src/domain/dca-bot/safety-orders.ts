/**
 * The safety-order ladder. Deviations are cumulative from the base-order price:
 * D_n = s·(1 + k + … + k^(n−1)) with s the step percent and k the step scale; volumes grow as
 * SO·v^(n−1) with v the volume scale. Explicit custom steps replace both. Prices go to the nearest
 * price step; amounts are rounded up to the lot step so that an order is never smaller than asked,
 * as the reference's deal example shows (15 USDT at 3067.51 is 0.0049 ETH).
 */
import type { TradingRules } from '../market/trading-rules.ts';
import { ceilToStep, dec, type Decimal, roundToStep, ZERO } from '../../shared/decimal.ts';
import type { DealSettings, VolumeType } from './dca-settings.ts';

export interface SafetyOrderStep {
  /** 1-based. */
  index: number;
  /** Percent from the base-order price, signed: negative below it. */
  deviation: Decimal;
  price: Decimal;
  /** In the settings' safety-order volume type. */
  volume: Decimal;
  amount: Decimal;
}

/** The base amount of an order of `volume` (in `type` units) at `price`. */
export function amountFor(volume: Decimal, type: VolumeType, price: Decimal, rules: TradingRules): Decimal {
  if (type === 'percent') throw new Error('a percent volume is a share of the base order: convert it with safetyOrderSize');
  const base = type === 'quote_currency' ? volume.div(price) : volume;
  return ceilToStep(base, rules.lotStep);
}

/**
 * A safety order's size as an order volume: `percent` sizes are that percent of the base order
 * and so in the base order's type.
 */
export function safetyOrderSize(settings: DealSettings, volume: Decimal): { volume: Decimal; type: VolumeType } {
  return settings.safetyOrderVolumeType === 'percent'
    ? { volume: dec(settings.baseOrderVolume).times(volume).div(100), type: settings.baseOrderVolumeType }
    : { volume, type: settings.safetyOrderVolumeType };
}

/** The cumulative deviations D_1..D_count, in percent. */
export function safetyDeviations(stepPercent: Decimal, stepScale: Decimal, count: number): Decimal[] {
  const deviations: Decimal[] = [];
  let step = stepPercent;
  let total = ZERO;
  for (let n = 1; n <= count; n += 1) {
    total = total.plus(step);
    deviations.push(total);
    step = step.times(stepScale);
  }
  return deviations;
}

/** How many safety orders the deal may place in all. */
export function safetyOrderLimit(settings: DealSettings): number {
  const custom = settings.customSafetySteps.length;
  return custom > 0 ? Math.min(custom, settings.maxSafetyOrders) : settings.maxSafetyOrders;
}

/**
 * Safety order `index` of a deal whose base order filled at `basePrice`; undefined past the
 * limit or when the step's price would not be positive.
 */
export function safetyOrderStep(
  settings: DealSettings,
  basePrice: Decimal,
  index: number,
  rules: TradingRules,
): SafetyOrderStep | undefined {
  if (index < 1 || index > safetyOrderLimit(settings)) return undefined;
  const custom = settings.customSafetySteps[index - 1];
  let deviation: Decimal;
  let volume: Decimal;
  if (settings.customSafetySteps.length > 0 && custom) {
    deviation = dec(custom.deviation);
    volume = dec(custom.size);
  } else {
    const magnitude = safetyDeviations(dec(settings.safetyOrderStepPercentage), dec(settings.martingaleStepCoefficient), index)[index - 1]!;
    deviation = settings.strategy === 'long' ? magnitude.neg() : magnitude;
    volume = dec(settings.safetyOrderVolume).times(dec(settings.martingaleVolumeCoefficient).pow(index - 1));
  }
  const price = roundToStep(basePrice.times(deviation.div(100).plus(1)), rules.priceStep);
  if (price.lte(0)) return undefined;
  const size = safetyOrderSize(settings, volume);
  return { index, deviation, price, volume, amount: amountFor(size.volume, size.type, price, rules) };
}

export function safetyLadder(settings: DealSettings, basePrice: Decimal, rules: TradingRules): SafetyOrderStep[] {
  const steps: SafetyOrderStep[] = [];
  for (let index = 1; index <= safetyOrderLimit(settings); index += 1) {
    const step = safetyOrderStep(settings, basePrice, index, rules);
    if (!step) break;
    steps.push(step);
  }
  return steps;
}
