/**
 * One step's working copy of a SmartTrade: the state is copied before anything changes, so a
 * step that refuses its input (and throws) leaves the stored state untouched. Orders, timers, log
 * lines and records the step asks for are collected here in the order they must happen.
 *
 * A tick step mostly moves a trailing stop's extreme: it copies the stop loss and shares the
 * other parts with the state it was given, copying the position or the take-profit steps before
 * it changes them (`ownPosition`, `ownStep`) and the rest when it goes on to order (`own`).
 * Copying every order on every tick was about a quarter of a trailing trade's step.
 */
import type { Command, LogEvent, Side, StepContext } from '../automation.ts';
import type { Decimal } from '../../shared/decimal.ts';
import { ZERO } from '../../shared/decimal.ts';
import type { OrderKind, OrderPurpose, PriceType, SmartTradeState, TakeProfitStep, TrackedOrder } from './smart-trade.types.ts';
import type { SmartTradeRecord } from './trade-records.ts';

const KEY_LETTER: Record<OrderPurpose, string> = {
  position: 'e',
  add_funds: 'a',
  take_profit: 't',
  stop_loss: 's',
  reduce_funds: 'r',
  market_close: 'm',
};

/** The stop loss copied, the part most ticks change; the others shared until owned. */
function tickCopy(state: SmartTradeState): SmartTradeState {
  return { ...state, ...(state.stopLoss ? { stopLoss: { ...state.stopLoss } } : {}) };
}

function ownShared(state: SmartTradeState): void {
  state.funds = state.funds.map((step) => ({ ...step }));
  if (state.marketClose) state.marketClose = { ...state.marketClose };
  state.orders = state.orders.map((order) => ({ ...order }));
}

export class Draft {
  readonly commands: Command[] = [];
  readonly events: LogEvent[] = [];
  readonly records: SmartTradeRecord[] = [];
  readonly state: SmartTradeState;
  private owned: boolean;
  private positionOwned: boolean;
  private stepsOwned: boolean;

  /** `tick`: a tick step, which shares all but the stop loss with the state it was given until it owns them. */
  constructor(
    state: SmartTradeState,
    readonly ctx: StepContext,
    tick = false,
  ) {
    this.state = tickCopy(state);
    this.owned = this.positionOwned = this.stepsOwned = false;
    if (!tick) this.own();
  }

  /** Copies what a tick step shares with the state it was given, before it orders or changes them. */
  own(): void {
    if (this.owned) return;
    this.owned = true;
    ownShared(this.state);
    this.ownPosition();
    this.ownSteps();
  }

  /** The trade's position, copied before the step's first change to it. */
  ownPosition(): SmartTradeState['position'] {
    if (!this.positionOwned) {
      this.positionOwned = true;
      this.state.position = { ...this.state.position };
    }
    return this.state.position;
  }

  /** The step's own copy of a take-profit step (given as the state had it or as copied), before a change to it. */
  ownStep(step: TakeProfitStep): TakeProfitStep {
    this.ownSteps();
    return this.state.steps.find((candidate) => candidate.id === step.id)!;
  }

  private ownSteps(): void {
    if (this.stepsOwned) return;
    this.stepsOwned = true;
    this.state.steps = this.state.steps.map((step) => ({ ...step }));
  }

  get now(): Date {
    return this.ctx.now;
  }

  get long(): boolean {
    return this.state.config.side === 'buy';
  }

  /** The side of orders that open (or add to) the position, and of those that close it. */
  get entrySide(): Side {
    return this.state.config.side;
  }

  get closeSide(): Side {
    return this.state.config.side === 'buy' ? 'sell' : 'buy';
  }

  log(message: string): void {
    this.events.push({ message, at: this.now });
  }

  nextId(): number {
    this.state.lastId += 1;
    return this.state.lastId;
  }

  /** The prices of the tick being handled, which take precedence over the engine's last known. */
  tick: { bid: Decimal; ask: Decimal; last: Decimal } | undefined;

  /** The current price of the trade's pair of the given type, if the market has one. */
  price(type: PriceType): Decimal | undefined {
    return this.quote()?.[type];
  }

  quote(): { bid: Decimal; ask: Decimal; last: Decimal } | undefined {
    return this.tick ?? this.ctx.price(this.state.config.pair);
  }

  place(purpose: OrderPurpose, subTradeId: number, side: Side, orderType: OrderKind, amount: Decimal, price?: Decimal): TrackedOrder {
    this.mustOwn();
    this.state.seq += 1;
    const key = `${KEY_LETTER[purpose]}${this.state.seq}`;
    const order: TrackedOrder = {
      key,
      subTradeId,
      purpose,
      side,
      orderType,
      amount,
      ...(orderType === 'limit' && price !== undefined ? { price } : {}),
      filled: ZERO,
      filledQuote: ZERO,
      feeBase: ZERO,
      feeQuote: ZERO,
      feeValue: ZERO,
      status: 'open',
      cancelRequested: false,
      createdAt: this.now,
      updatedAt: this.now,
    };
    this.state.orders.push(order);
    this.commands.push({
      type: 'place_order',
      key,
      pair: this.state.config.pair,
      side,
      orderType,
      amount,
      ...(order.price === undefined ? {} : { price: order.price }),
      role: purpose,
    });
    return order;
  }

  /** An order placed earlier in this same step is simply never sent. */
  cancel(order: TrackedOrder): void {
    this.mustOwn();
    if (order.status !== 'open' || order.cancelRequested) return;
    const placed = this.commands.findIndex((command) => command.type === 'place_order' && command.key === order.key);
    if (placed >= 0) {
      this.commands.splice(placed, 1);
      this.state.orders = this.state.orders.filter((candidate) => candidate !== order);
      return;
    }
    order.cancelRequested = true;
    this.commands.push({ type: 'cancel_order', key: order.key });
  }

  /** An order placed or cancelled on shared orders would change the state the step was given. */
  private mustOwn(): void {
    if (!this.owned) throw new Error('A tick step ordered before owning the trade\'s orders (Draft.own)');
  }

  /** Cancellations go out first, so the funds they release are free for the orders placed after. */
  orderedCommands(): Command[] {
    // Most steps (a trailing extreme moved) command nothing: no copies made for them.
    if (!this.commands.some((command) => command.type === 'cancel_order')) return this.commands;
    return [
      ...this.commands.filter((command) => command.type === 'cancel_order'),
      ...this.commands.filter((command) => command.type !== 'cancel_order'),
    ];
  }

  scheduleTimer(key: string, at: Date): void {
    this.commands.push({ type: 'schedule_timer', key, at });
  }

  cancelTimer(key: string): void {
    this.commands.push({ type: 'cancel_timer', key });
  }
}
