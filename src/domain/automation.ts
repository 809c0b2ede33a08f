/**
 * The contract between the pure automations (grid bots, SmartTrades, DCA bots) and the engine that
 * runs them. An automation is a state machine: `step(state, input, context) -> StepResult`. It never
 * does I/O; it asks for orders, cancellations and timers through commands, and learns what
 * happened through inputs. The engine turns each order key into a deterministic client order id,
 * so a command replayed after a crash can never place a second order.
 */
import type { TradingRules } from './market/trading-rules.ts';
import type { Decimal } from '../shared/decimal.ts';

export type Side = 'buy' | 'sell';

export type TimeInForce = 'gtc' | 'ioc' | 'fok' | 'post_only';

/**
 * An order key names one order for the automation's whole life (lowercase letters and digits only,
 * at most 16 characters, because exchanges restrict client order ids): for example `l12c3` for
 * line 12's third cycle, or `so4` for the fourth safety order.
 */
export type OrderKey = string;

export interface PlaceOrder {
  type: 'place_order';
  key: OrderKey;
  pair: string;
  side: Side;
  orderType: 'market' | 'limit';
  /** Base amount, already on the market's lot step. */
  amount: Decimal;
  /** Limit price, already on the market's price step. */
  price?: Decimal;
  timeInForce?: TimeInForce;
  /** What the order is for, shown in order lists: `grid_line`, `balancing`, `base`, `safety`, `take_profit`, ... */
  role: string;
}

export interface CancelOrder {
  type: 'cancel_order';
  key: OrderKey;
}

/** Asks for a `timer` input with this key at `at` (engine clock). Scheduling the same key again moves it. */
export interface ScheduleTimer {
  type: 'schedule_timer';
  key: string;
  at: Date;
}

export interface CancelTimer {
  type: 'cancel_timer';
  key: string;
}

export type Command = PlaceOrder | CancelOrder | ScheduleTimer | CancelTimer;

export interface TickInput {
  type: 'tick';
  pair: string;
  /** Last price. */
  price: Decimal;
  bid: Decimal;
  ask: Decimal;
  at: Date;
}

/** A fill of one of the automation's orders; `filled`/`filledTotal`/`fee` are the order's totals so far. */
export interface FillInput {
  type: 'fill';
  key: OrderKey;
  side: Side;
  price: Decimal;
  amount: Decimal;
  /** amount × price, when the exchange worked it out (the paper exchange, one fill): not worked out again. */
  quote?: Decimal | undefined;
  /** Fee of this fill, in `feeCurrency` (base for buys, quote for sells on spot exchanges). */
  fee: Decimal;
  feeCurrency: string;
  /** True when this fill completed the order. */
  orderFilled: boolean;
  at: Date;
}

/** A fill's amount × price, as the exchange worked it out when it did. */
export const fillQuote = (fill: FillInput): Decimal => fill.quote ?? fill.amount.times(fill.price);

/** The order ended without (further) fills: cancelled by request or by the exchange. */
export interface OrderClosedInput {
  type: 'order_closed';
  key: OrderKey;
  status: 'cancelled' | 'rejected';
  /** Why the exchange refused it (`insufficient_funds`, `rule_violation`, ...), when rejected. */
  reason?: string;
  message?: string;
  at: Date;
}

export interface TimerInput {
  type: 'timer';
  key: string;
  at: Date;
}

/** What every automation receives from the engine. Each automation adds its own user actions. */
export type EngineInput = TickInput | FillInput | OrderClosedInput | TimerInput;

/** A line for the automation's event log, in the reference service's words. */
export interface LogEvent {
  message: string;
  at: Date;
}

/**
 * Prices the automation must hear about: the engine delivers a tick for `pair` only when the
 * price is at or below `below`, or at or above `above`. Fills always arrive, whatever the watch.
 */
export interface PriceWatch {
  pair: string;
  below?: Decimal;
  above?: Decimal;
  /**
   * The bounds whose crossing only moves the band (a trailing extreme), ordering nothing: of the
   * automations a tick wakes, the engine steps those that may order first.
   */
  trailing?: { below?: boolean; above?: boolean };
}

export interface StepContext {
  /** The engine clock: the time of the market event being handled, or of the action. */
  now: Date;
  /** The rules of the automation's markets, by pair. */
  rules(pair: string): TradingRules;
  /** The latest known price of a pair, if any. */
  price(pair: string): { last: Decimal; bid: Decimal; ask: Decimal } | undefined;
  /** A new integer id, unique across the service (deal ids); given by the engine. */
  nextId?: () => number;
}

export interface StepResult<State, Record = never> {
  state: State;
  commands: Command[];
  events: LogEvent[];
  /** Facts the automation's store keeps as rows (profits, closed deals, ...). */
  records: Record[];
}

/** Raised by a step for an input the transitions table does not allow in the current state. */
export class TransitionError extends Error {
  override readonly name = 'TransitionError';

  constructor(
    readonly status: string,
    readonly input: string,
  ) {
    super(`${input} is not allowed while ${status}`);
  }
}
