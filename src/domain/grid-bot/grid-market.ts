/**
 * What a price move does to a running grid: stop losses first; then, past the bounds, trailing up
 * (the grid slides up one line at a time, the lowest buy paying for the new one), growth down
 * (trailing down / expansion down: a new buy line below, on extra quote, down to the stop price)
 * and expansion up (a new sell line above, on extra base, up to its stop price).
 */
import type { PriceWatch, StepContext, TickInput } from '../automation.ts';
import type { TradingRules } from '../market/trading-rules.ts';
import { Decimal } from '../../shared/decimal.ts';
import { growsDown } from './grid-bot-config.ts';
import { gridMessages } from './grid-events.ts';
import { gridStep, linePrice } from './grid-lines.ts';
import { buyAmount, cancelLine, meetsMinimums, syncOrders } from './grid-orders.ts';
import type { GridOutput } from './grid-output.ts';
import { triggerStopLoss } from './grid-stop.ts';
import type { GridBotState, GridLine } from './grid-bot-state.ts';

/** More lines than any grid can cross in one move; only a guard against a runaway loop. */
const MAX_SHIFTS = 10_000;

export function onTick(state: GridBotState, tick: TickInput, ctx: StepContext, out: GridOutput): void {
  if (state.status !== 'running' && state.status !== 'balancing') return;
  const { upperStopLoss, lowerStopLoss } = state.config;
  const price = tick.price;
  if (upperStopLoss.enabled && upperStopLoss.price && price.gte(upperStopLoss.price)) {
    return triggerStopLoss(state, 'Upper', upperStopLoss, price, ctx, out);
  }
  if (lowerStopLoss.enabled && lowerStopLoss.price && price.lte(lowerStopLoss.price)) {
    return triggerStopLoss(state, 'Lower', lowerStopLoss, price, ctx, out);
  }
  if (state.status !== 'running' || state.lines.length < 2) return;
  const rules = ctx.rules(state.config.pair);
  trailUp(state, price, rules, out);
  growDown(state, price, rules, out);
  growUp(state, price, rules, out);
  syncOrders(state, price, out);
}

const newLine = (state: GridBotState, index: number, price: Decimal): GridLine => ({
  id: state.nextLineId++,
  index,
  price,
  side: null,
  placed: false,
  amount: new Decimal(0),
  order: 0,
  cost: null,
  refused: false,
  partial: null,
});

const nextPrice = (state: GridBotState, index: number) => linePrice(state.config, gridStep(state.config), index, state.priceStep);

const trailsUp = (state: GridBotState) =>
  state.config.trailingUpEnabled && state.config.orderCurrencyType === 'quote' && !state.trailingUpEnded;

function trailUp(state: GridBotState, price: Decimal, rules: TradingRules, out: GridOutput): void {
  if (!trailsUp(state)) return;
  const { config, lines } = state;
  const firstLowest = lines[0]!.price;
  let shifted = 0;
  while (shifted < MAX_SHIFTS) {
    const top = lines[lines.length - 1]!;
    if (top.side !== null) break;
    const next = nextPrice(state, top.index + 1);
    if (price.lt(next)) break;
    const amount = buyAmount(config, top.price, rules);
    if (!meetsMinimums(amount, top.price, rules)) {
      state.trailingUpEnded = true;
      out.log(gridMessages.growthEnded('Trailing up', 'the order size is below the exchange minimum'));
      break;
    }
    const lowest = lines[0]!;
    if (lowest.side === 'sell') break;
    cancelLine(state, lowest, out);
    lines.shift();
    Object.assign(top, { side: 'buy', amount, cost: null, refused: false });
    lines.push(newLine(state, top.index + 1, next));
    shifted += 1;
  }
  if (shifted === 0) return;
  out.log(gridMessages.trailedUp(config, lines[0]!.price, lines[lines.length - 1]!.price));
  const stopLoss = config.lowerStopLoss;
  if (stopLoss.enabled && stopLoss.price) {
    stopLoss.price = stopLoss.price.plus(lines[0]!.price.minus(firstLowest));
    out.log(gridMessages.lowerStopLossMoved(config, stopLoss.price));
  }
}

function growDown(state: GridBotState, price: Decimal, rules: TradingRules, out: GridOutput): void {
  const { config, lines } = state;
  if (!growsDown(config) || state.growDownEnded) return;
  const lowest = lines[0]!;
  if (lowest.side !== null || price.gte(lowest.price)) return;
  const what = config.trailingDownEnabled ? 'Trailing down' : 'Expansion down';
  const next = nextPrice(state, lowest.index - 1);
  const stop = config.expansionDown.stopPrice;
  if (next.lte(0) || (stop !== null && next.lt(stop))) return endGrowth(state, 'down', what, 'the stop price is reached', out);
  const amount = buyAmount(config, next, rules);
  if (!meetsMinimums(amount, next, rules)) return endGrowth(state, 'down', what, 'the order size is below the exchange minimum', out);
  lines.unshift({ ...newLine(state, lowest.index - 1, next), side: 'buy', amount });
  out.log(gridMessages.grew(config, 'down', next));
}

function growUp(state: GridBotState, price: Decimal, rules: TradingRules, out: GridOutput): void {
  const { config, lines } = state;
  if (!config.expansionUp.enabled || state.growUpEnded || trailsUp(state)) return;
  const top = lines[lines.length - 1]!;
  if (top.side !== null || price.lte(top.price)) return;
  const next = nextPrice(state, top.index + 1);
  const stop = config.expansionUp.stopPrice;
  if (stop !== null && next.gt(stop)) return endGrowth(state, 'up', 'Expansion up', 'the stop price is reached', out);
  const amount = buyAmount(config, next, rules);
  if (!meetsMinimums(amount, next, rules)) return endGrowth(state, 'up', 'Expansion up', 'the order size is below the exchange minimum', out);
  lines.push({ ...newLine(state, top.index + 1, next), side: 'sell', amount });
  out.log(gridMessages.grew(config, 'up', next));
}

function endGrowth(state: GridBotState, direction: 'down' | 'up', what: string, reason: string, out: GridOutput): void {
  if (direction === 'down') state.growDownEnded = true;
  else state.growUpEnded = true;
  out.log(gridMessages.growthEnded(what, reason));
}

/** The prices the bot must hear about: its stop losses and the bounds past which it grows. */
export function gridWatches(state: GridBotState): PriceWatch[] {
  if (state.status !== 'running' && state.status !== 'balancing') return [];
  const { config, lines } = state;
  const below: Decimal[] = [];
  const above: Decimal[] = [];
  if (config.lowerStopLoss.enabled && config.lowerStopLoss.price) below.push(config.lowerStopLoss.price);
  if (config.upperStopLoss.enabled && config.upperStopLoss.price) above.push(config.upperStopLoss.price);
  const lowest = lines[0];
  const top = lines[lines.length - 1];
  if (state.status === 'running' && lowest && top && lines.length >= 2) {
    if (top.side === null && trailsUp(state)) above.push(nextPrice(state, top.index + 1));
    else if (top.side === null && config.expansionUp.enabled && !state.growUpEnded) above.push(top.price.plus(state.priceStep));
    if (lowest.side === null && growsDown(config) && !state.growDownEnded) below.push(lowest.price.minus(state.priceStep));
  }
  if (below.length === 0 && above.length === 0) return [];
  const watch: PriceWatch = { pair: config.pair };
  if (below.length > 0) watch.below = Decimal.max(...below);
  if (above.length > 0) watch.above = Decimal.min(...above);
  return [watch];
}
