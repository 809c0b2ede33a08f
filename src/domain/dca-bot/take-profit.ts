/**
 * Take-profit prices and step sizes. The reference builds its fee into the price: a long deal's
 * target is avg·(1+tp)/(1−fee), rounded up to the price step (its deal example places +2/+3/+4 %
 * on an average of 3098.4954 at 3163.63 / 3194.65 / 3225.67 with a 0.1 % fee). A short deal's
 * target mirrors it: avg·(1−tp)·(1−fee), rounded down. With take_profit_type `base` the target
 * profit is tp % of the base order's volume spread over the whole position, which is the same
 * formula with tp scaled by base-order volume / total volume.
 *
 * `avg` is what each coin the deal holds cost, fees of the entries included (docs/mechanics.md):
 * where the buys' fee is taken from the coin, the deal holds less than it bought, and an average
 * over the gross amount would leave it short of tp by about the fee. Where fees are paid in quote
 * or another coin, it is the reference's bought_volume / bought_amount, plus the quote fees.
 */
import { ceilToStep, dec, type Decimal, floorToStep, ZERO } from '../../shared/decimal.ts';
import type { DealSettings, DealStrategy } from './dca-settings.ts';
import type { TakeProfitStepState } from './deal.ts';

export interface PositionFigures {
  /** Base the entries left the deal holding (or owing) and what that cost, net of fees. */
  entryAmount: Decimal;
  entryVolume: Decimal;
  /** Quote volume of the base order's fills. */
  baseOrderVolume: Decimal;
}

export function targetPrice(
  strategy: DealStrategy,
  average: Decimal,
  profitPercent: Decimal,
  feeRate: Decimal,
  priceStep: Decimal,
): Decimal {
  const tp = profitPercent.div(100);
  if (strategy === 'long') return ceilToStep(average.times(tp.plus(1)).div(dec(1).minus(feeRate)), priceStep);
  return floorToStep(average.times(dec(1).minus(tp)).times(dec(1).minus(feeRate)), priceStep);
}

/** The take-profit price for a step of `profitPercent` given the deal's fills so far. */
export function takeProfitPrice(
  settings: DealSettings,
  position: PositionFigures,
  profitPercent: Decimal,
  priceStep: Decimal,
): Decimal {
  const average = position.entryVolume.div(position.entryAmount);
  const effective =
    settings.takeProfitType === 'base' && position.entryVolume.gt(0)
      ? profitPercent.times(position.baseOrderVolume).div(position.entryVolume)
      : profitPercent;
  return targetPrice(settings.strategy, average, effective, dec(settings.feeRate), priceStep);
}

/** A deal's take-profit steps as they start: none placed yet. */
export function idleTakeProfitSteps(settings: DealSettings): TakeProfitStepState[] {
  return takeProfitSteps(settings).map((step) => ({
    amountPercentage: step.amountPercentage.toFixed(),
    profitPercentage: step.profitPercentage.toFixed(),
    status: 'idle',
    price: null,
    initialAmount: null,
    executedAt: null,
  }));
}

/** The step percentages as the deal uses them: the steps, or one step of 100 % at take_profit. */
export function takeProfitSteps(settings: DealSettings): Array<{ amountPercentage: Decimal; profitPercentage: Decimal }> {
  if (settings.takeProfitSteps.length === 0) {
    return [{ amountPercentage: dec(100), profitPercentage: dec(settings.takeProfit) }];
  }
  return settings.takeProfitSteps.map((step) => ({
    amountPercentage: dec(step.amountPercentage),
    profitPercentage: dec(step.profitPercentage),
  }));
}

/**
 * Splits `amount` by `percentages` (which add up to 100): each share is floored to the lot step
 * and the last takes what is left, so the shares always add up to `amount`.
 */
export function splitAmount(amount: Decimal, percentages: readonly Decimal[], lotStep: Decimal): Decimal[] {
  const total = percentages.reduce((sum, percent) => sum.plus(percent), ZERO);
  let left = amount;
  return percentages.map((percent, index) => {
    if (index === percentages.length - 1) return left;
    const share = total.isZero() ? ZERO : floorToStep(amount.times(percent).div(total), lotStep);
    left = left.minus(share);
    return share;
  });
}
