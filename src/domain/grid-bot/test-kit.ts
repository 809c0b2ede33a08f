/**
 * Builders for the grid bot's unit tests: a BTC/USDT-like market, settings with overrides, and a
 * small exchange that runs a bot the way the engine does: commands executed after each step,
 * resting orders filled at their price, best price first, when the price moves, marketable orders
 * filled at once at the price, and a move's tick (only when it leaves the bot's watch band)
 * delivered before the fills it causes, as the paper exchange announces it.
 */
import type { Command, EngineInput, PlaceOrder, StepContext } from '../automation.ts';
import type { TradingRules } from '../market/trading-rules.ts';
import { type Decimal, dec } from '../../shared/decimal.ts';
import { type GridBotAction, stepGridBot } from './grid-bot.ts';
import type { GridBotConfig } from './grid-bot-config.ts';
import { gridWatches } from './grid-market.ts';
import type { GridProfitRecord } from './grid-output.ts';
import { type GridBotState, newGridBot } from './grid-bot-state.ts';

export const RULES: TradingRules = {
  minPrice: dec('0.01'),
  maxPrice: dec('1000000'),
  priceStep: dec('0.01'),
  minLotSize: dec('0.00001'),
  maxLotSize: dec('9000'),
  lotStep: dec('0.00001'),
  minTotal: dec('5'),
  minMarketTotal: dec('5'),
  maxTotal: dec('9000000'),
  maxMarketBuyAmount: dec('120'),
  maxMarketSellAmount: dec('120'),
  bidMultiplierUp: dec(5),
  bidMultiplierDown: dec('0.2'),
  askMultiplierUp: dec(5),
  askMultiplierDown: dec('0.2'),
};

const off = { enabled: false, price: null, action: 'stop_bot' } as const;

export function gridConfig(overrides: Partial<GridBotConfig> = {}): GridBotConfig {
  return {
    name: 'test grid',
    pair: 'USDT_BTC',
    base: 'BTC',
    quote: 'USDT',
    upperPrice: dec(140),
    lowerPrice: dec(100),
    gridsQuantity: 5,
    gridType: 'arithmetic',
    quantityPerGrid: dec(1),
    orderCurrencyType: 'base',
    profitCurrencyType: 'quote',
    maxActiveBuyLines: null,
    maxActiveSellLines: null,
    trailingUpEnabled: false,
    trailingDownEnabled: false,
    expansionUp: { enabled: false, stopPrice: null },
    expansionDown: { enabled: false, stopPrice: null },
    upperStopLoss: { ...off },
    lowerStopLoss: { ...off },
    leverageType: 'not_specified',
    leverageCustomValue: null,
    mode: null,
    ignoreWarnings: false,
    note: null,
    ...overrides,
  };
}

interface Resting {
  command: PlaceOrder;
}

/** Runs one bot against a simulated market; fees are charged in the currency received. */
export class GridHarness {
  state: GridBotState;
  price: Decimal;
  readonly fee: Decimal;
  readonly commands: Command[] = [];
  readonly events: string[] = [];
  readonly records: GridProfitRecord[] = [];
  readonly resting = new Map<string, Resting>();
  /** Base and quote moved by the bot's fills, fees included. */
  base = dec(0);
  quote = dec(0);
  private clock = Date.UTC(2024, 0, 1);
  private readonly queue: Array<EngineInput | GridBotAction> = [];

  constructor(
    config: GridBotConfig,
    price: string | number,
    fee = '0.001',
    /** `fills-first` delivers a move's fills before its tick instead. */
    private readonly order: 'tick-first' | 'fills-first' = 'tick-first',
  ) {
    this.state = newGridBot(config, RULES.priceStep);
    this.price = dec(price);
    this.fee = dec(fee);
  }

  /** Funds the start may use: plenty of both by default. */
  start(funds: { base?: string; quote?: string } = {}): this {
    return this.act({ type: 'start', funds: { base: dec(funds.base ?? '1000'), quote: dec(funds.quote ?? '1000000') }, feeRate: this.fee });
  }

  act(action: EngineInput | GridBotAction): this {
    this.queue.push(action);
    this.drain();
    return this;
  }

  /** Moves the market: its tick (if watched) and the fills of the resting orders it crosses, best price first. */
  moveTo(price: string | number): this {
    const next = dec(price);
    const crossed = [...this.resting.entries()]
      .filter(([, { command }]) => (command.side === 'buy' ? command.price!.gte(next) : command.price!.lte(next)))
      .sort(([, a], [, b]) => (a.command.side === 'buy' ? b.command.price!.cmp(a.command.price!) : a.command.price!.cmp(b.command.price!)));
    this.price = next;
    const watched = gridWatches(this.state).some((w) => (w.below && next.lte(w.below)) || (w.above && next.gte(w.above)));
    const tick: EngineInput[] = watched ? [{ type: 'tick', pair: 'USDT_BTC', price: next, bid: next, ask: next, at: this.now() }] : [];
    const fills = crossed.map(([key, { command }]) => {
      this.resting.delete(key);
      return this.fillOf(command, command.price!);
    });
    this.queue.push(...(this.order === 'tick-first' ? [...tick, ...fills] : [...fills, ...tick]));
    this.drain();
    return this;
  }

  /** Orders resting now, as "buy 110" / "sell 130". */
  openOrders(): string[] {
    return [...this.resting.values()]
      .map(({ command }) => `${command.side} ${command.price!.toFixed()}`)
      .sort();
  }

  lines(): string[] {
    return this.state.lines.map((line) => `${line.price.toFixed()} ${line.side ?? '-'}${line.placed ? '*' : ''}`);
  }

  context(): StepContext {
    return {
      now: this.now(),
      rules: () => RULES,
      price: (pair) => (pair === 'USDT_BTC' ? { last: this.price, bid: this.price, ask: this.price } : undefined),
    };
  }

  private now(): Date {
    this.clock += 1000;
    return new Date(this.clock);
  }

  /** The step function the harness runs; a test may wrap it to check each step. */
  step: typeof stepGridBot = stepGridBot;

  private drain(): void {
    for (let input = this.queue.shift(); input !== undefined; input = this.queue.shift()) {
      const result = this.step(this.state, input, this.context());
      this.state = result.state;
      this.events.push(...result.events.map((event) => event.message));
      this.records.push(...result.records);
      for (const command of result.commands) this.execute(command);
    }
  }

  private execute(command: Command): void {
    this.commands.push(command);
    if (command.type === 'cancel_order') {
      if (this.resting.delete(command.key)) this.queue.push({ type: 'order_closed', key: command.key, status: 'cancelled', at: this.now() });
      return;
    }
    if (command.type !== 'place_order') return;
    const marketable =
      command.orderType === 'market' || (command.side === 'buy' ? command.price!.gte(this.price) : command.price!.lte(this.price));
    if (marketable) this.queue.push(this.fillOf(command, this.price));
    else this.resting.set(command.key, { command });
  }

  private fillOf(command: PlaceOrder, price: Decimal): EngineInput {
    const total = command.amount.times(price);
    const fee = command.side === 'buy' ? command.amount.times(this.fee) : total.times(this.fee);
    if (command.side === 'buy') {
      this.base = this.base.plus(command.amount).minus(fee);
      this.quote = this.quote.minus(total);
    } else {
      this.base = this.base.minus(command.amount);
      this.quote = this.quote.plus(total).minus(fee);
    }
    return {
      type: 'fill',
      key: command.key,
      side: command.side,
      price,
      amount: command.amount,
      fee,
      feeCurrency: command.side === 'buy' ? 'BTC' : 'USDT',
      orderFilled: true,
      at: this.now(),
    };
  }
}
