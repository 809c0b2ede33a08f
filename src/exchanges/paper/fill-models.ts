/** How the paper exchange prices market orders and charges fees. */
import { dec, type Decimal } from '../../shared/decimal.ts';
import type { OrderSide } from '../exchange.ts';

export interface FeeSchedule {
  /** Fraction of the received amount charged for fills of resting orders. */
  maker: Decimal;
  /** Fraction charged for fills at placement (market orders, marketable limits). */
  taker: Decimal;
}

export const DEFAULT_FEES: FeeSchedule = { maker: dec('0.001'), taker: dec('0.001') };

/** The price a market order of `amount` executes at, given the touch (ask for buys, bid for sells). */
export type SlippageModel = (side: OrderSide, touch: Decimal, amount: Decimal) => Decimal;

/** A constant adverse move in basis points: buys pay touch × (1 + bps), sells get touch × (1 − bps). */
export function fixedSlippage(basisPoints: number): SlippageModel {
  const fraction = dec(basisPoints).div(10_000);
  return (side, touch) => (side === 'buy' ? touch.times(fraction.plus(1)) : touch.times(dec(1).minus(fraction)));
}
