/**
 * How the engine runs one kind of automation (grid bot, SmartTrade, DCA bot): the pure step
 * function from `domain/`, what prices it watches, and how its state is written to and read from
 * JSON. Everything the engine knows about a kind goes through this object.
 */
import type { EngineInput, PriceWatch, StepContext, StepResult } from '../domain/automation.ts';
import type { StateChange } from './state-changes.ts';

export interface AutomationKind<State, Action = never, Record = never> {
  /** Stored with each automation: `grid_bot`, `smart_trade`, `dca_bot`, ... */
  readonly name: string;
  /** One or two lowercase letters, part of every client order id of this kind. */
  readonly orderIdPrefix: string;
  step(state: State, input: EngineInput | Action, context: StepContext): StepResult<State, Record>;
  /** The prices the automation must hear about in its current state. */
  watches(state: State): PriceWatch[];
  /** False once the automation needs no more market events, fills or timers (stopped, finished). */
  isRunning(state: State): boolean;
  /** The pairs whose prices and rules the automation uses; defaults to the pairs it watches. */
  pairs?(state: State): string[];
  /** The state stopped for good with the reason shown, for an automation whose changes storage refused. */
  quarantine?(state: State, reason: string): State;
  toJson(state: State): unknown;
  /**
   * Appends to `out` what differs between `toJson(base)` and `toJson(next)` (as `diffJson` finds
   * it), each path under `path`, found on the states themselves: steps never change a state they
   * were given and copy only the parts they change, so the parts a step kept are skipped instead
   * of encoding and comparing the whole JSON on every change.
   */
  changesBetween?(base: State, next: State, path: Array<string | number>, out: StateChange[]): void;
  fromJson(json: unknown): State;
  /**
   * Its step on a tick reads nothing but the state, the tick and the clock. A tick step that
   * orders, logs and records nothing (a trailing price following the market) is then stored
   * later: the engine logs the batch's ticks instead and, after a restart, steps the automation on
   * them again from its stored state (deferred-changes.ts).
   */
  replaysTicks?: boolean;
}

// The engine holds automations of every kind in one map, so it erases the kind's own types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyAutomationKind = AutomationKind<any, any, any>;

/** An automation as the engine keeps it. */
export interface Automation<State> {
  id: number;
  kind: string;
  userId: number;
  accountId: number;
  state: State;
  createdAt: Date;
  updatedAt: Date;
}

/** A running automation in the engine's memory. */
export interface LiveAutomation {
  automation: Automation<unknown>;
  kind: AnyAutomationKind;
  /** Where its market events come from: `paper`, or `account:<id>` for a real account. */
  source: string;
}

/** One order the engine placed for an automation, as it is journaled before it is sent. */
export interface EngineOrder {
  /** The journal's own number, shown as `order_id` by the API. */
  id: number;
  automationId: number;
  key: string;
  clientOrderId: string;
  accountId: number;
  pair: string;
  role: string;
  side: 'buy' | 'sell';
  orderType: 'market' | 'limit';
  timeInForce: 'gtc' | 'ioc' | 'fok' | 'post_only' | null;
  price: string | null;
  amount: string;
  filled: string;
  /** Quote value of the fills, before fees. */
  filledTotal: string;
  fee: string;
  status: 'pending' | 'open' | 'filled' | 'cancelled' | 'rejected';
  /** The automation asked for a cancellation; recovery repeats it if the order is still open. */
  cancelRequested: boolean;
  /** The exchange's id of the order and the currency of its fee, once the exchange answered. */
  exchangeOrderId: string | null;
  feeCurrency: string | null;
  /**
   * When the fill that completed the order was made, as the exchange dated it. A paper order
   * filled by one fill as a maker has no fill row of its own: its row says the rest (`paper_trades`).
   */
  filledAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** An event log line of an automation as stored. */
export interface StoredEvent {
  message: string;
  createdAt: Date;
}
