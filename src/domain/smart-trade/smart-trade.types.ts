/**
 * The SmartTrade state machine's data: the configuration the user gave (position, take profit,
 * stop loss) and the progress the trade made on the exchange (orders with their fills, step
 * statuses, trailing extremes). Every figure the API shows is derived from `orders`.
 */
import type { Side } from '../automation.ts';
import type { Decimal } from '../../shared/decimal.ts';

export type PriceType = 'bid' | 'ask' | 'last';
export type OrderKind = 'market' | 'limit';
export type TriggerCondition = 'less_or_equal' | 'greater_or_equal';

export type SmartTradeType = 'smart_trade' | 'smart_cover' | 'smart_sell' | 'smart_buy' | 'simple_buy' | 'simple_sell';

export type TradeStatus =
  | 'created'
  | 'waiting_position'
  | 'waiting_targets'
  | 'pending_reduce_funds'
  | 'panic_sell_pending'
  | 'cancellation_pending'
  | 'cancelled'
  | 'finished'
  | 'stop_loss_finished'
  | 'panic_sold'
  | 'failed';

export type PositionStatus = 'to_process' | 'order_placed' | 'trailing_activated' | 'finished' | 'smart_sell' | 'cancelled' | 'failed';
export type StepStatus = 'idle' | 'order_placed' | 'trailing_activated' | 'finished' | 'cancelled' | 'failed';
export type StopLossStatus = 'idle' | 'timeout' | 'order_placed' | 'finished' | 'cancelled' | 'failed';
export type FundsStatus = 'order_placed' | 'finished' | 'cancelled' | 'failed';

/** A price given either as a value or as a percent from the average entry price. */
export interface PriceLevel {
  value?: Decimal;
  percent?: Decimal;
}

export interface ConditionalEntry {
  priceType: PriceType;
  trigger: Decimal;
  orderType: OrderKind;
  /** Trailing entry: after the trigger, enter on a reversal of this percent from the extreme. */
  trailingPercent?: Decimal;
}

export interface EntryConfig {
  orderType: 'market' | 'limit' | 'conditional';
  units: Decimal;
  /** Limit price (limit, conditional limit), or the price paid for own coins (skip_enter_step). */
  price?: Decimal;
  conditional?: ConditionalEntry;
}

export interface TakeProfitStepConfig {
  orderType: OrderKind;
  /** Percent of the position this step closes. */
  volume: Decimal;
  priceType: PriceType;
  price: PriceLevel;
  /** Only on the last step: activate at the target, exit at market on this pullback. */
  trailingPercent?: Decimal;
}

export interface StopLossConfig {
  orderType: OrderKind;
  /** The limit price of a limit stop-loss order. */
  limitPrice?: Decimal;
  priceType: PriceType;
  trigger: PriceLevel;
  trailing: boolean;
  /** Trailing distance; without it the initial distance from the entry is kept. */
  trailingPercent?: Decimal;
  breakeven: boolean;
  timeoutSeconds?: number;
}

export interface SmartTradeConfig {
  pair: string;
  base: string;
  quote: string;
  /** position.type: buy opens a long, sell a short. */
  side: Side;
  instant: boolean;
  skipEnterStep: boolean;
  entry: EntryConfig;
  takeProfit: { enabled: boolean; steps: TakeProfitStepConfig[] };
  stopLoss?: StopLossConfig;
}

export type OrderPurpose = 'position' | 'add_funds' | 'take_profit' | 'stop_loss' | 'reduce_funds' | 'market_close';

/** One order the trade asked for, with its fills summed up. */
export interface TrackedOrder {
  key: string;
  subTradeId: number;
  purpose: OrderPurpose;
  side: Side;
  orderType: OrderKind;
  amount: Decimal;
  price?: Decimal;
  filled: Decimal;
  /** Quote value of the fills before fees. */
  filledQuote: Decimal;
  feeBase: Decimal;
  feeQuote: Decimal;
  /** Quote value of every fee, whatever its currency was (base fees at their fill price). */
  feeValue: Decimal;
  status: 'open' | 'filled' | 'cancelled' | 'rejected';
  cancelRequested: boolean;
  error?: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface PositionState {
  id: number;
  status: PositionStatus;
  condition?: TriggerCondition;
  /** Trailing entry: the lowest (long) or highest (short) price since the trigger. */
  extreme?: Decimal;
  extremeAt?: Date;
  /** Coins already held (skip_enter_step): amount and the price paid for them. */
  own?: { amount: Decimal; price: Decimal };
  error?: string;
}

export interface TakeProfitStep extends TakeProfitStepConfig {
  id: number;
  status: StepStatus;
  /** Trailing take profit: the best price since activation. */
  extreme?: Decimal;
  extremeAt?: Date;
  error?: string;
  closedAt?: Date;
}

export interface StopLossState {
  id: number;
  status: StopLossStatus;
  /** The best price since entry (trailing stop). */
  extreme?: Decimal;
  extremeAt?: Date;
  /** Moved to the entry price after the first take-profit step filled. */
  atBreakeven: boolean;
  error?: string;
  closedAt?: Date;
}

export interface FundsStep {
  id: number;
  kind: 'add_funds' | 'reduce_funds';
  orderType: OrderKind;
  units: Decimal;
  price?: Decimal;
  status: FundsStatus;
  error?: string;
  createdAt: Date;
  closedAt?: Date;
}

export interface MarketCloseState {
  id: number;
  status: 'order_placed' | 'finished' | 'failed';
  createdAt: Date;
  closedAt?: Date;
}

/** The market rules a trade needs between steps (watches have no step context). */
export interface MarketSteps {
  priceStep: Decimal;
  lotStep: Decimal;
  minLotSize: Decimal;
  minTotal: Decimal;
}

export interface SmartTradeState {
  config: SmartTradeConfig;
  market: MarketSteps;
  status: TradeStatus;
  error?: string;
  note: string;
  position: PositionState;
  steps: TakeProfitStep[];
  stopLoss?: StopLossState;
  funds: FundsStep[];
  marketClose?: MarketCloseState;
  orders: TrackedOrder[];
  /** Base the user kept out of the take-profit steps by cancelling one. */
  kept: Decimal;
  /** Sequence of order keys; each placement takes the next number, so keys never repeat. */
  seq: number;
  /** Sub-trade ids (position, steps, stop loss, funds) within this trade. */
  lastId: number;
  closedAt?: Date;
}

export interface EditInput {
  position?: { units?: Decimal; price?: Decimal; conditional?: ConditionalEntry };
  takeProfit?: { enabled: boolean; steps: Array<TakeProfitStepConfig & { id?: number }> };
  /** Null disables the stop loss. */
  stopLoss?: StopLossConfig | null;
}

export interface FundsInput {
  orderType: OrderKind;
  units: Decimal;
  price?: Decimal;
}

export type SmartTradeAction =
  | { type: 'start' }
  | { type: 'edit'; edit: EditInput }
  | { type: 'set_note'; note: string }
  | { type: 'cancel' }
  | { type: 'close_by_market' }
  | { type: 'add_funds'; funds: FundsInput }
  | { type: 'reduce_funds'; funds: FundsInput }
  | { type: 'force_start' }
  | { type: 'force_process' }
  | { type: 'close_sub_trade'; subTradeId: number }
  | { type: 'cancel_sub_trade'; subTradeId: number };
