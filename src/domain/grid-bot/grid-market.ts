/**
 * What a price move does to a running grid: stop losses first; then, past the bounds, trailing up
 * (the grid slides up a line at a time, the lowest buy paying for the new one), growth down
 * (trailing down / expansion down: a new buy line below, on extra quote) and expansion up (a new
 * sell line above, on extra base).
 *
 * The grid follows the price as far as it went, after the fills it caused: `followPrice` runs on
 * the tick and again after every fill, with the latest price. A tick is announced before the fills
 * it causes, so a gap past the top sell trails only once those sells have filled; and a growth line
 * the price has already passed fills at once, and its fill grows the next one. Either way the grid
 * ends where a move split into many ticks would leave it.
 */
import type { PriceWatch, StepContext, TickInput } from '../automation.ts';
import type { TradingRules } from '../market/trading-rules.ts';
import { Decimal } from '../../shared/decimal.ts';
import { growsDown, type StopLoss } from './grid-bot-config.ts';
import { gridMessages } from './grid-events.ts';
import { gridStep, linePrice } from './grid-lines.ts';
import { buyAmount, cancelLine, meetsMinimums, syncOrders } from './grid-orders.ts';
import type { GridOutput } from './grid-output.ts';
import { triggerStopLoss } from './grid-stop.ts';
import { type GridBotState, type GridLine, writable } from './grid-bot-state.ts';

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
  if (state.status !== 'running') return;
  followPrice(state, price, ctx, out);
  syncOrders(state, price, out);
}

/** Trails or grows the grid as far as `price` calls for; the settings then show the grid as it stands. */
export function followPrice(state: GridBotState, price: Decimal, ctx: StepContext, out: GridOutput): void {
  if (state.status !== 'running' || state.lines.length < 2) return;
  const rules = ctx.rules(state.config.pair);
  // Trailing and growth only change the ends of the grid.
  const ends = () => `${state.lines[0]!.id}:${state.lines[state.lines.length - 1]!.id}`;
  const before = ends();
  trailUp(state, price, rules, out);
  growDown(state, price, rules, out);
  growUp(state, price, rules, out);
  if (ends() !== before) showRange(state);
}

/** lower_price, upper_price and grids_quantity follow the lines once they trailed or grew. */
export function showRange(state: GridBotState): void {
  const { lines } = state;
  state.config = { ...state.config, lowerPrice: lines[0]!.price, upperPrice: lines[lines.length - 1]!.price, gridsQuantity: lines.length };
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
  grown: false,
  partial: null,
});

const nextPrice = (state: GridBotState, index: number) => linePrice(state.origin, gridStep(state.origin), index, state.priceStep);

const trailsUp = (state: GridBotState) =>
  state.config.trailingUpEnabled && state.config.orderCurrencyType === 'quote' && !state.trailingUpEnded;

const armed = (stopLoss: StopLoss) => (stopLoss.enabled ? stopLoss.price : null);

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
    Object.assign(writable(state, top), { side: 'buy', amount, cost: null, refused: false });
    lines.push(newLine(state, top.index + 1, next));
    shifted += 1;
  }
  if (shifted === 0) return;
  out.log(gridMessages.trailedUp(config, lines[0]!.price, lines[lines.length - 1]!.price));
  const stopLoss = config.lowerStopLoss;
  if (stopLoss.enabled && stopLoss.price) {
    const price = stopLoss.price.plus(lines[0]!.price.minus(firstLowest));
    state.config = { ...state.config, lowerStopLoss: { ...stopLoss, price } };
    out.log(gridMessages.lowerStopLossMoved(config, price));
  }
}

/**
 * One buy line below the waiting lowest line, on quote the bot had to spare at start; it stops at
 * the expansion stop price and above the lower stop loss (a line there could only fill as the
 * stop sells everything).
 */
function growDown(state: GridBotState, price: Decimal, rules: TradingRules, out: GridOutput): void {
  const { config, lines } = state;
  if (!growsDown(config) || state.growDownEnded) return;
  const lowest = lines[0]!;
  if (lowest.side !== null || price.gte(lowest.price)) return;
  const what = config.trailingDownEnabled ? 'Trailing down' : 'Expansion down';
  const next = nextPrice(state, lowest.index - 1);
  const stop = config.expansionDown.stopPrice;
  const stopLoss = armed(config.lowerStopLoss);
  if (next.lte(0) || (stop !== null && next.lt(stop))) return endGrowth(state, 'down', what, 'the stop price is reached', out);
  if (stopLoss !== null && next.lte(stopLoss)) return endGrowth(state, 'down', what, 'the stop loss price is reached', out);
  const amount = buyAmount(config, next, rules);
  if (!meetsMinimums(amount, next, rules)) return endGrowth(state, 'down', what, 'the order size is below the exchange minimum', out);
  const cost = amount.times(next);
  if (cost.gt(state.reserve.quote)) return endGrowth(state, 'down', what, `not enough ${config.quote}`, out);
  state.reserve = { ...state.reserve, quote: state.reserve.quote.minus(cost) };
  lines.unshift({ ...newLine(state, lowest.index - 1, next), side: 'buy', amount, grown: true });
  out.log(gridMessages.grew(config, 'down', next));
}

/** One sell line above the waiting top line, on base the bot had to spare at start. */
function growUp(state: GridBotState, price: Decimal, rules: TradingRules, out: GridOutput): void {
  const { config, lines } = state;
  if (!config.expansionUp.enabled || state.growUpEnded || trailsUp(state)) return;
  const top = lines[lines.length - 1]!;
  if (top.side !== null || price.lte(top.price)) return;
  const next = nextPrice(state, top.index + 1);
  const stop = config.expansionUp.stopPrice;
  const stopLoss = armed(config.upperStopLoss);
  if (stop !== null && next.gt(stop)) return endGrowth(state, 'up', 'Expansion up', 'the stop price is reached', out);
  if (stopLoss !== null && next.gte(stopLoss)) return endGrowth(state, 'up', 'Expansion up', 'the stop loss price is reached', out);
  const amount = buyAmount(config, next, rules);
  if (!meetsMinimums(amount, next, rules)) return endGrowth(state, 'up', 'Expansion up', 'the order size is below the exchange minimum', out);
  if (amount.gt(state.reserve.base)) return endGrowth(state, 'up', 'Expansion up', `not enough ${config.base}`, out);
  state.reserve = { ...state.reserve, base: state.reserve.base.minus(amount) };
  lines.push({ ...newLine(state, top.index + 1, next), side: 'sell', amount, grown: true });
  out.log(gridMessages.grew(config, 'up', next));
}

export function endGrowth(state: GridBotState, direction: 'down' | 'up', what: string, reason: string, out: GridOutput): void {
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
