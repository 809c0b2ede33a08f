/**
 * The ver1 trade state machine. Without a condition or trailing, the order goes out at start.
 * With a condition, the trade waits in `to_process` until the price (bid, ask or last) compares
 * as asked; with a timeout it then waits that long and goes on only if the condition still holds.
 * With trailing, it follows the extreme (the low for a buy, the high for a sell) and places its
 * order when the price turns back by `value` (absolute) or `percent`. The order itself keeps its
 * time in force: ioc and fok end at once when they cannot fill, post_only is refused when it
 * would take liquidity.
 */
import { type Decimal, ZERO } from '../../shared/decimal.ts';
import { type Command, type EngineInput, fillQuote, type LogEvent, type PriceWatch, type StepContext, type StepResult } from '../automation.ts';
import { TRADE_ENDED, assertTradeAllows } from './trade.transitions.ts';
import type { Comparison, TradeAction, TradeConfig, TradeState } from './trade.types.ts';

export const TRADE_ORDER_KEY = 'o1';
export const TIMEOUT_TIMER = 'timeout';

export function newTrade(uuid: string, config: TradeConfig, priceStep: Decimal): TradeState {
  return { uuid, config, status: 'to_process', waitingTimeout: false, priceStep };
}

export const isTradeRunning = (state: TradeState) => !TRADE_ENDED.has(state.status);

type Quote = { bid: Decimal; ask: Decimal; last: Decimal };

class TradeDraft {
  readonly commands: Command[] = [];
  readonly events: LogEvent[] = [];
  readonly state: TradeState;
  tick: Quote | undefined;

  constructor(state: TradeState, readonly ctx: StepContext) {
    this.state = { ...state, ...(state.order ? { order: { ...state.order } } : {}) };
  }

  quote(): Quote | undefined {
    return this.tick ?? this.ctx.price(this.state.config.pair);
  }

  log(message: string): void {
    this.events.push({ message, at: this.ctx.now });
  }
}

export function stepTrade(state: TradeState, input: EngineInput | TradeAction, context: StepContext): StepResult<TradeState> {
  assertTradeAllows(state.status, input.type);
  const draft = new TradeDraft(state, context);
  const s = draft.state;
  switch (input.type) {
    case 'start':
      if (s.config.conditional) draft.log(`Waiting for the ${s.config.conditional.priceType} price to be ${s.config.conditional.comparison} ${s.config.conditional.price.toFixed()}`);
      else if (s.config.trailing) beginTrailing(draft);
      else place(draft);
      if (s.config.conditional) checkCondition(draft);
      break;
    case 'tick':
      draft.tick = { last: input.price, bid: input.bid, ask: input.ask };
      if (s.status === 'to_process' && !s.waitingTimeout) checkCondition(draft);
      else if (s.status === 'trailing_activated') trail(draft);
      break;
    case 'timer':
      if (input.key !== TIMEOUT_TIMER || !s.waitingTimeout) break;
      s.waitingTimeout = false;
      if (conditionHolds(draft)) proceed(draft);
      else draft.log('Timeout ended with the condition no longer met; waiting again');
      break;
    case 'fill':
      if (!s.order || input.key !== s.order.key) break;
      s.order.filled = s.order.filled.plus(input.amount);
      s.order.filledQuote = s.order.filledQuote.plus(fillQuote(input));
      if (input.orderFilled || s.order.filled.gte(s.order.amount)) {
        s.order.status = 'filled';
        end(draft, 'finished', 'Order filled');
      }
      break;
    case 'order_closed':
      if (!s.order || input.key !== s.order.key || s.order.status !== 'open') break;
      s.order.status = input.status;
      if (input.status === 'rejected') {
        s.error = input.message ?? input.reason ?? 'The exchange refused the order';
        end(draft, 'failed', `Order refused: ${s.error}`);
      } else {
        end(draft, s.status !== 'pending_cancellation' && s.order.filled.gt(0) ? 'finished' : 'cancelled', 'Order closed');
      }
      break;
    case 'cancel':
      if (s.status === 'order_placed' && s.order?.status === 'open') {
        s.status = 'pending_cancellation';
        draft.commands.push({ type: 'cancel_order', key: s.order.key });
        draft.log('Cancel requested');
      } else {
        if (s.waitingTimeout) draft.commands.push({ type: 'cancel_timer', key: TIMEOUT_TIMER });
        end(draft, 'cancelled', 'Trade cancelled');
      }
      break;
  }
  return { state: s, commands: draft.commands, events: draft.events, records: [] };
}

function compare(comparison: Comparison, price: Decimal, level: Decimal): boolean {
  switch (comparison) {
    case 'less':
      return price.lt(level);
    case 'less_or_equal':
      return price.lte(level);
    case 'greater':
      return price.gt(level);
    case 'greater_or_equal':
      return price.gte(level);
  }
}

function conditionHolds(draft: TradeDraft): boolean {
  const conditional = draft.state.config.conditional;
  const price = conditional && draft.quote()?.[conditional.priceType];
  return conditional !== undefined && price !== undefined && compare(conditional.comparison, price, conditional.price);
}

function checkCondition(draft: TradeDraft): void {
  if (draft.state.status !== 'to_process' || !conditionHolds(draft)) return;
  const timeout = draft.state.config.timeoutSeconds;
  if (timeout !== undefined) {
    draft.state.waitingTimeout = true;
    draft.commands.push({ type: 'schedule_timer', key: TIMEOUT_TIMER, at: new Date(draft.ctx.now.getTime() + timeout * 1000) });
    draft.log(`Condition met; checking it again in ${timeout} s`);
    return;
  }
  proceed(draft);
}

function proceed(draft: TradeDraft): void {
  draft.log('Condition met');
  if (draft.state.config.trailing) beginTrailing(draft);
  else place(draft);
}

function beginTrailing(draft: TradeDraft): void {
  const s = draft.state;
  s.status = 'trailing_activated';
  const price = draft.quote()?.last;
  if (price !== undefined) {
    s.extreme = price;
    s.extremeAt = draft.ctx.now;
  }
  draft.log(`Trailing from ${price?.toFixed() ?? 'the next price'}`);
}

/** The price at which trailing ends: the extreme plus (buy) or minus (sell) the reversal. */
export function reversalLevel(state: TradeState): Decimal | undefined {
  const { trailing, side } = state.config;
  if (!trailing || state.extreme === undefined) return undefined;
  const distance = trailing.value ?? state.extreme.times(trailing.percent ?? ZERO).div(100);
  return side === 'buy' ? state.extreme.plus(distance) : state.extreme.minus(distance);
}

function trail(draft: TradeDraft): void {
  const s = draft.state;
  const price = draft.quote()?.last;
  if (price === undefined) return;
  const buy = s.config.side === 'buy';
  if (s.extreme === undefined || (buy ? price.lt(s.extreme) : price.gt(s.extreme))) {
    s.extreme = price;
    s.extremeAt = draft.ctx.now;
    return;
  }
  const level = reversalLevel(s)!;
  if (buy ? price.gte(level) : price.lte(level)) {
    draft.log(`The price turned back to ${price.toFixed()}`);
    place(draft);
  }
}

function place(draft: TradeDraft): void {
  const s = draft.state;
  const { config } = s;
  s.order = { key: TRADE_ORDER_KEY, amount: config.units, filled: ZERO, filledQuote: ZERO, status: 'open' };
  s.status = 'order_placed';
  draft.commands.push({
    type: 'place_order',
    key: TRADE_ORDER_KEY,
    pair: config.pair,
    side: config.side,
    orderType: config.orderType,
    amount: config.units,
    ...(config.orderType === 'limit' && config.price ? { price: config.price } : {}),
    ...(config.orderType === 'limit' ? { timeInForce: config.strategy } : {}),
    role: 'trade',
  });
  draft.log(`${config.orderType} ${config.side} order placed for ${config.units.toFixed()}`);
}

function end(draft: TradeDraft, status: 'finished' | 'cancelled' | 'failed', message: string): void {
  draft.state.status = status;
  draft.state.closedAt = draft.ctx.now;
  draft.log(message);
}

/** Only the level the trade waits for: its condition, or its trailing extreme and reversal. */
export function tradeWatches(state: TradeState): PriceWatch[] {
  const { pair, conditional } = state.config;
  const step = state.priceStep;
  if (state.status === 'to_process' && conditional && !state.waitingTimeout) {
    const { comparison, price } = conditional;
    if (comparison === 'less') return [{ pair, below: price.minus(step) }];
    if (comparison === 'less_or_equal') return [{ pair, below: price }];
    if (comparison === 'greater') return [{ pair, above: price.plus(step) }];
    return [{ pair, above: price }];
  }
  if (state.status === 'trailing_activated') {
    const level = reversalLevel(state);
    if (state.extreme === undefined || level === undefined) return [{ pair, above: ZERO }];
    return state.config.side === 'buy'
      ? [{ pair, below: state.extreme.minus(step), above: level }]
      : [{ pair, above: state.extreme.plus(step), below: level }];
  }
  return [];
}
