/**
 * A ver1 trade ("simple trading"): one order, market or limit with a time in force, optionally
 * held back by a price condition, a trailing reversal and a timeout.
 */
import type { Side, TimeInForce } from '../automation.ts';
import type { Decimal } from '../../shared/decimal.ts';

export type Comparison = 'less' | 'less_or_equal' | 'greater' | 'greater_or_equal';
export type { TimeInForce };

export interface TradeConfig {
  pair: string;
  base: string;
  quote: string;
  side: Side;
  orderType: 'market' | 'limit';
  strategy: TimeInForce;
  positionSide: 'both' | 'long' | 'short';
  reduceOnly: boolean;
  units: Decimal;
  /** Limit price. */
  price?: Decimal;
  conditional?: { comparison: Comparison; priceType: 'bid' | 'ask' | 'last'; price: Decimal };
  /** After the condition (or at once without one): wait for a reversal of this size from the extreme. */
  trailing?: { value?: Decimal; percent?: Decimal };
  /** With a condition: once met, wait this long and go on only if it still holds. */
  timeoutSeconds?: number;
}

export type TradeStatus = 'to_process' | 'trailing_activated' | 'order_placed' | 'pending_cancellation' | 'cancelled' | 'finished' | 'failed';

export interface TradeOrder {
  key: string;
  amount: Decimal;
  filled: Decimal;
  filledQuote: Decimal;
  status: 'open' | 'filled' | 'cancelled' | 'rejected';
}

export interface TradeState {
  uuid: string;
  config: TradeConfig;
  status: TradeStatus;
  error?: string;
  /** The condition held and the timeout is running. */
  waitingTimeout: boolean;
  /** Trailing: the lowest (buy) or highest (sell) price since trailing began. */
  extreme?: Decimal;
  extremeAt?: Date;
  order?: TradeOrder;
  priceStep: Decimal;
  closedAt?: Date;
}

export type TradeAction = { type: 'start' } | { type: 'cancel' };
