/** One market event for a pair, as every price feed delivers it. */
import type { Decimal } from '../../shared/decimal.ts';

export interface MarketTick {
  pair: string;
  /** Last traded price. Bid and ask default to it when the feed has no order book. */
  price: Decimal;
  bid?: Decimal;
  ask?: Decimal;
  /** Traded amount at `price`; when given, fills are bounded by it (partial fills). */
  volume?: Decimal;
  at: Date;
}
