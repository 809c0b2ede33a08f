/**
 * Runs a pure automation the way the engine does, against a minimal in-memory exchange: market
 * orders fill at the touch (ask for buys, bid for sells), limit orders fill at once when they
 * cross the book and otherwise rest until a tick reaches them, fees are charged in the currency
 * received. Ticks reach the automation only when they leave its watched band (or always, with
 * `deliverEveryTick`, to check that the watches miss nothing).
 */
import type { Command, EngineInput, PriceWatch, StepContext, StepResult } from '../../automation.ts';
import type { TradingRules } from '../../market/trading-rules.ts';
import { type Decimal, dec } from '../../../shared/decimal.ts';

export interface Machine<S, A> {
  step(state: S, input: EngineInput | A, context: StepContext): StepResult<S, unknown>;
  watches(state: S): PriceWatch[];
  isRunning(state: S): boolean;
}

interface Resting {
  key: string;
  side: 'buy' | 'sell';
  price: Decimal;
  amount: Decimal;
  timeInForce?: string;
}

export const RULES: TradingRules = {
  minPrice: dec('0.01'), maxPrice: dec('1000000'), priceStep: dec('0.01'),
  minLotSize: dec('0.0001'), maxLotSize: dec('9000'), lotStep: dec('0.0001'),
  minTotal: dec('5'), minMarketTotal: dec('5'), maxTotal: dec('9000000'),
  maxMarketBuyAmount: dec('2000'), maxMarketSellAmount: dec('2000'),
  bidMultiplierUp: dec(5), bidMultiplierDown: dec('0.2'), askMultiplierUp: dec(5), askMultiplierDown: dec('0.2'),
};

export class Harness<S, A> {
  now = new Date('2024-01-01T00:00:00Z');
  quote = { bid: dec(100), ask: dec(100), last: dec(100) };
  feeRate = dec('0.001');
  deliverEveryTick = false;
  readonly placed: Command[] = [];
  readonly log: string[] = [];
  readonly records: unknown[] = [];
  private resting: Resting[] = [];
  private timers = new Map<string, Date>();
  private queue: EngineInput[] = [];
  ticksDelivered = 0;

  constructor(
    private readonly machine: Machine<S, A>,
    public state: S,
    private readonly pair = 'USDT_ETH',
    private readonly base = 'ETH',
    private readonly quoteCurrency = 'USDT',
  ) {}

  context(): StepContext {
    return { now: this.now, rules: () => RULES, price: () => this.quote };
  }

  /** Applies a user action (errors propagate) and everything it causes at once. */
  act(action: A): S {
    this.apply(this.machine.step(this.state, action, this.context()));
    this.run();
    return this.state;
  }

  /** Moves the market: resting orders fill, then the automation hears the tick if its watch says so. */
  tick(last: string, spread: { bid?: string; ask?: string } = {}, advanceMs = 1000): S {
    this.now = new Date(this.now.getTime() + advanceMs);
    this.quote = { last: dec(last), bid: dec(spread.bid ?? last), ask: dec(spread.ask ?? last) };
    for (const order of [...this.resting]) {
      const crosses = order.side === 'buy' ? this.quote.ask.lte(order.price) : this.quote.bid.gte(order.price);
      if (crosses) this.fill(order.key, order.side, order.amount, order.price);
    }
    for (const [key, at] of [...this.timers]) {
      if (at.getTime() <= this.now.getTime()) {
        this.timers.delete(key);
        this.queue.push({ type: 'timer', key, at });
      }
    }
    if (this.machine.isRunning(this.state) && (this.deliverEveryTick || this.crossed())) {
      this.ticksDelivered += 1;
      this.queue.push({ type: 'tick', pair: this.pair, price: this.quote.last, bid: this.quote.bid, ask: this.quote.ask, at: this.now });
    }
    this.run();
    return this.state;
  }

  pendingTimer(key: string): Date | undefined {
    return this.timers.get(key);
  }

  restingKeys(): string[] {
    return this.resting.map((order) => order.key);
  }

  private crossed(): boolean {
    const low = this.quote.bid.lt(this.quote.last) ? this.quote.bid : this.quote.last;
    const high = this.quote.ask.gt(this.quote.last) ? this.quote.ask : this.quote.last;
    return this.machine.watches(this.state).some((watch) => (watch.below !== undefined && watch.below.gte(low)) || (watch.above !== undefined && watch.above.lte(high)));
  }

  private run(): void {
    for (let input = this.queue.shift(); input !== undefined; input = this.queue.shift()) {
      if (!this.machine.isRunning(this.state)) continue;
      this.apply(this.machine.step(this.state, input, this.context()));
    }
  }

  private apply(result: StepResult<S, unknown>): void {
    this.state = result.state;
    for (const event of result.events) this.log.push(event.message);
    this.records.push(...result.records);
    for (const command of result.commands) this.execute(command);
  }

  /** The next order placed is refused by the exchange with this message. */
  rejectNextOrder(message: string): void {
    this.rejection = message;
  }

  private rejection: string | undefined;

  private execute(command: Command): void {
    this.placed.push(command);
    if (command.type === 'place_order' && this.rejection !== undefined) {
      this.queue.push({ type: 'order_closed', key: command.key, status: 'rejected', reason: 'insufficient_funds', message: this.rejection, at: this.now });
      this.rejection = undefined;
      return;
    }
    if (command.type === 'schedule_timer') this.timers.set(command.key, command.at);
    else if (command.type === 'cancel_timer') this.timers.delete(command.key);
    else if (command.type === 'cancel_order') {
      const before = this.resting.length;
      this.resting = this.resting.filter((order) => order.key !== command.key);
      if (this.resting.length < before) this.queue.push({ type: 'order_closed', key: command.key, status: 'cancelled', at: this.now });
    } else if (command.orderType === 'market') {
      this.fill(command.key, command.side, command.amount, command.side === 'buy' ? this.quote.ask : this.quote.bid);
    } else {
      const price = command.price!;
      const marketable = command.side === 'buy' ? price.gte(this.quote.ask) : price.lte(this.quote.bid);
      if (marketable && command.timeInForce === 'post_only') {
        this.queue.push({ type: 'order_closed', key: command.key, status: 'rejected', reason: 'rule_violation', message: 'A post-only order would execute at once', at: this.now });
      } else if (marketable) {
        this.fill(command.key, command.side, command.amount, command.side === 'buy' ? this.quote.ask : this.quote.bid);
      } else if (command.timeInForce === 'ioc' || command.timeInForce === 'fok') {
        this.queue.push({ type: 'order_closed', key: command.key, status: 'cancelled', at: this.now });
      } else {
        this.resting.push({ key: command.key, side: command.side, price, amount: command.amount, ...(command.timeInForce ? { timeInForce: command.timeInForce } : {}) });
      }
    }
  }

  private fill(key: string, side: 'buy' | 'sell', amount: Decimal, price: Decimal): void {
    this.resting = this.resting.filter((order) => order.key !== key);
    const fee = side === 'buy' ? amount.times(this.feeRate) : amount.times(price).times(this.feeRate);
    this.queue.push({
      type: 'fill', key, side, price, amount, fee,
      feeCurrency: side === 'buy' ? this.base : this.quoteCurrency,
      orderFilled: true, at: this.now,
    });
  }
}

