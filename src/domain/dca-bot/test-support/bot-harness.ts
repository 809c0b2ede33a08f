/**
 * Runs a DCA bot's step function the way the engine does, against a tiny exchange: market orders
 * fill at once at the ask (buys) or bid (sells), limit orders rest until the price crosses them,
 * fees are 0.1 % in the currency received, ticks reach the bot only when they leave its watch band,
 * and timers fire when a tick's time passes them.
 */
import type { Command, EngineInput, PlaceOrder } from '../../automation.ts';
import { dec, type Decimal } from '../../../shared/decimal.ts';
import type { DcaBotAction, DcaBotState } from '../dca-bot-state.ts';
import { botWatches, stepBot } from '../dca-bot.ts';
import type { DcaRecord } from '../step-output.ts';
import { TestContext } from './fixtures.ts';

const FEE = dec('0.001');

export class BotHarness {
  readonly context = new TestContext();
  readonly resting = new Map<string, PlaceOrder>();
  readonly placed: PlaceOrder[] = [];
  readonly records: DcaRecord[] = [];
  readonly messages: string[] = [];
  readonly timers = new Map<string, number>();
  quote = dec(0);
  base = dec(0);
  private readonly queue: EngineInput[] = [];

  constructor(public state: DcaBotState) {}

  act(action: DcaBotAction): void {
    this.apply(action);
    this.drain();
  }

  /** Moves the price of `pair` and delivers what that causes. */
  tick(pair: string, price: string, advanceMs = 60_000): void {
    this.context.advance(advanceMs);
    this.context.setPrice(pair, price);
    const last = dec(price);
    for (const [key, order] of [...this.resting]) {
      if (order.pair !== pair) continue;
      const crosses = order.side === 'buy' ? last.lte(order.price!) : last.gte(order.price!);
      if (crosses) {
        this.resting.delete(key);
        this.queue.push(this.fill(order, order.price!));
      }
    }
    const band = botWatches(this.state).find((watch) => watch.pair === pair);
    if (band && ((band.below && last.lte(band.below)) || (band.above && last.gte(band.above)))) {
      this.queue.push({ type: 'tick', pair, price: last, bid: last, ask: last, at: this.context.now });
    }
    for (const [key, at] of [...this.timers]) {
      if (at <= this.context.now.getTime()) {
        this.timers.delete(key);
        this.queue.push({ type: 'timer', key, at: new Date(at) });
      }
    }
    this.drain();
  }

  /** Delivers inputs as the engine would, in this order, before any command they cause. */
  deliver(inputs: EngineInput[]): void {
    this.queue.push(...inputs);
    this.drain();
  }

  /** A complete fill of a resting order at its limit price (the order leaves the book). */
  fillOf(key: string): EngineInput {
    const order = this.resting.get(key)!;
    this.resting.delete(key);
    return this.fill(order, order.price!);
  }

  deal(index = 0) {
    return this.state.deals[index];
  }

  private drain(): void {
    for (let input = this.queue.shift(); input; input = this.queue.shift()) this.apply(input);
  }

  private apply(input: EngineInput | DcaBotAction): void {
    // A step never changes the state it is given: the next state shares parts of it (dca-bot.ts).
    const result = stepBot(deepFreeze(this.state), input, this.context);
    this.state = result.state;
    this.records.push(...result.records);
    this.messages.push(...result.events.map((event) => event.message));
    for (const command of result.commands) this.execute(command);
  }

  private execute(command: Command): void {
    if (command.type === 'schedule_timer') this.timers.set(command.key, command.at.getTime());
    else if (command.type === 'cancel_timer') this.timers.delete(command.key);
    else if (command.type === 'cancel_order') {
      if (this.resting.delete(command.key)) this.queue.push({ type: 'order_closed', key: command.key, status: 'cancelled', at: this.context.now });
    } else {
      this.placed.push(command);
      const last = this.context.price(command.pair)!.last;
      if (command.orderType === 'market') this.queue.push(this.fill(command, last));
      else if (command.side === 'buy' ? last.lte(command.price!) : last.gte(command.price!)) this.queue.push(this.fill(command, last));
      else this.resting.set(command.key, command);
    }
  }

  private fill(order: PlaceOrder, price: Decimal): EngineInput {
    const total = order.amount.times(price);
    const fee = order.side === 'buy' ? order.amount.times(FEE) : total.times(FEE);
    if (order.side === 'buy') {
      this.base = this.base.plus(order.amount).minus(fee);
      this.quote = this.quote.minus(total);
    } else {
      this.base = this.base.minus(order.amount);
      this.quote = this.quote.plus(total).minus(fee);
    }
    const [base, quote] = order.pair.split('_').reverse();
    return {
      type: 'fill',
      key: order.key,
      side: order.side,
      price,
      amount: order.amount,
      fee,
      feeCurrency: order.side === 'buy' ? base! : quote!,
      orderFilled: true,
      at: this.context.now,
    };
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
