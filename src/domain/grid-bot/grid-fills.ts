/**
 * Fills and closed orders. A completed buy makes its line wait and puts a sell for what it brought
 * in one line up; a completed sell makes its line wait and puts a buy one line down; then the grid
 * follows the price as far as it went (grid-market.ts). A sell that closes a buy of this bot books
 * the pair's profit: what the sell brought in, less its fees, less what the base it sold cost.
 *
 * Fees paid in base: a buy brings in its amount less the fee, and sells come in lot steps, so a
 * remainder below one lot step is left over. It is carried into the next sell (which then sells
 * the line's full quantity), valued at what it cost. Base is valued at its buy's price, a fee paid
 * in base included, so each profit row is the pair's quote change plus the change of the carried
 * remainder's value.
 */
import { type FillInput, fillQuote, type OrderClosedInput, type StepContext } from '../automation.ts';
import { compact, type Decimal, floorToStep, plus, ZERO } from '../../shared/decimal.ts';
import { gridMessages } from './grid-events.ts';
import { endGrowth, followPrice, showRange } from './grid-market.ts';
import { buyAmount, syncOrders } from './grid-orders.ts';
import type { GridOutput } from './grid-output.ts';
import { finishStop, orderEndedWhileStopping } from './grid-stop.ts';
import { type GridBotState, type PartialFill, parseKey, sharedAmount, writable, type WritableLine } from './grid-bot-state.ts';
import { usdRate } from './usd-rate.ts';

const noFill = (): PartialFill => ({ amount: ZERO, quote: ZERO, feeBase: ZERO, feeQuote: ZERO });

/** `fillQuote`: the fill's amount × price. */
function addFill(partial: PartialFill | null, fill: FillInput, fillQuote: Decimal, state: GridBotState): PartialFill {
  const sum = partial ?? noFill();
  const { base, quote } = state.config;
  return {
    amount: plus(sum.amount, fill.amount),
    quote: plus(sum.quote, fillQuote),
    feeBase: fill.feeCurrency === base ? plus(sum.feeBase, fill.fee) : sum.feeBase,
    feeQuote: fill.feeCurrency === quote ? plus(sum.feeQuote, fill.fee) : sum.feeQuote,
  };
}

/** Volumes count every fill; the flows only fills of lines and stop-loss orders. `quote`: its amount × price. */
function account(state: GridBotState, fill: FillInput, quote: Decimal, flows: boolean): void {
  const figures = state.figures;
  const feeBase = fill.feeCurrency === state.config.base ? fill.fee : ZERO;
  const feeQuote = fill.feeCurrency === state.config.quote ? fill.fee : ZERO;
  if (fill.side === 'buy') figures.boughtVolume = figures.boughtVolume.plus(quote);
  else figures.soldVolume = figures.soldVolume.plus(quote);
  if (!flows) return;
  const buy = fill.side === 'buy';
  figures.flowBase = less(buy ? figures.flowBase.plus(fill.amount) : figures.flowBase.minus(fill.amount), feeBase);
  figures.flowQuote = less(buy ? figures.flowQuote.minus(quote) : figures.flowQuote.plus(quote), feeQuote);
}

/** `value` less `fee`; a fill pays its fee in one currency, so the other's is zero. */
const less = (value: Decimal, fee: Decimal) => (fee.isZero() ? value : value.minus(fee));

const trading = (state: GridBotState) => state.status === 'running' || state.status === 'balancing';
/** An order a pending stop loss cancelled and still waits for. */
const awaitedByStop = (state: GridBotState, order: number) => state.stop?.waiting.includes(order) === true;

export function onFill(state: GridBotState, fill: FillInput, ctx: StepContext, out: GridOutput): void {
  const key = parseKey(fill.key);
  if (key?.kind === 'b' && state.balancing?.order === key.seq) return onBalancingFill(state, fill, ctx, out);
  if (key?.kind === 's' && state.stopOrder?.order === key.seq) return onStopFill(state, fill, out);
  const found = key?.kind === 'o' ? state.lines.find((candidate) => candidate.order === key.seq) : undefined;
  const quote = fillQuote(fill);
  account(state, fill, quote, key?.kind !== 'b');
  const stopping = found !== undefined && awaitedByStop(state, found.order);
  if (!found || found.side !== fill.side || !(trading(state) || stopping)) {
    out.log(gridMessages.lateFill(state.config, fill.side, fill.price, fill.amount));
    return;
  }
  const line = writable(state, found);
  // Filled by this fill alone: its price is the average, with no division.
  const average = line.partial === null ? fill.price : undefined;
  line.partial = addFill(line.partial, fill, quote, state);
  if (!fill.orderFilled) return;
  completeLine(state, line, ctx, out, average);
  if (stopping) return orderEndedWhileStopping(state, line.order, ctx, out);
  const price = ctx.price(state.config.pair)?.last;
  if (price !== undefined) followPrice(state, price, ctx, out);
  syncOrders(state, price, out);
  if (!state.lines.some((candidate) => candidate.refused)) state.error = null;
  // A profit row shows its line as the fill left it, with the counter order placed.
  for (const record of out.records) {
    const profitLine = state.lines.find((candidate) => candidate.id === record.lineId);
    record.side = profitLine?.side ?? null;
    record.orderPlaced = profitLine?.placed ?? false;
  }
}

/**
 * Turns the line's fills into the counter order one line away and, for a sell, a profit row.
 * `average`: their average price, when known without dividing their quote by their amount.
 */
function completeLine(state: GridBotState, line: WritableLine, ctx: StepContext, out: GridOutput, average?: Decimal): void {
  const done = line.partial!;
  line.partial = null;
  line.placed = false;
  const price = average ?? done.quote.div(done.amount);
  if (line.side === 'buy') boughtOnLine(state, line, done, price, ctx, out, average !== undefined);
  else soldOnLine(state, line, done, price, ctx, out);
}

/**
 * The sell gets what the buy brought in plus the carried remainder, down to the lot step; what the
 * lot step leaves over is carried on. Its cost: the carried remainder's value, plus the bought base
 * it sells (and the fee paid in base) at the buy price, plus a fee paid in quote.
 */
function boughtOnLine(state: GridBotState, line: WritableLine, done: PartialFill, average: Decimal, ctx: StepContext, out: GridOutput, oneFill: boolean): void {
  out.log(gridMessages.limitFilled(state.config, 'buy', average, done.amount, null));
  line.side = null;
  const pool = state.carry.base.plus(done.amount).minus(done.feeBase);
  const position = state.lines.indexOf(line);
  const next = state.lines[position + 1];
  const amount = next?.side === null ? floorToStep(pool, ctx.rules(state.config.pair).lotStep) : ZERO;
  const left = pool.minus(amount);
  // Filled by one fill, what it bought is valued at that fill's price: its quote, already worked out.
  const bought = oneFill ? done.quote : done.amount.times(average);
  const poolValue = state.carry.value.plus(bought).plus(done.feeQuote);
  const leftValue = amount.isZero() ? poolValue : left.times(average);
  state.carry = { base: left, value: leftValue };
  if (!next || amount.isZero()) return;
  const cost = poolValue.minus(leftValue);
  const above = writable(state, next);
  above.side = 'sell';
  above.amount = sharedAmount(compact(amount), state.lines[position + 2], line);
  above.cost = compact(cost);
  above.refused = false;
}

function soldOnLine(state: GridBotState, line: WritableLine, done: PartialFill, average: Decimal, ctx: StepContext, out: GridOutput): void {
  const { config, figures } = state;
  const profit = line.cost === null ? null : done.quote.minus(done.feeQuote).minus(done.feeBase.times(average)).minus(line.cost);
  out.log(gridMessages.limitFilled(config, 'sell', average, done.amount, profit));
  line.side = null;
  line.cost = null;
  const position = state.lines.indexOf(line);
  let below = state.lines[position - 1];
  if (below && below.side === null) {
    const buy = writable(state, below);
    buy.side = 'buy';
    buy.amount = sharedAmount(buyAmount(config, buy.price, ctx.rules(config.pair)), state.lines[position - 2], line);
    buy.cost = null;
    buy.refused = false;
    below = buy;
  }
  if (profit === null) return;
  const rate = usdRate(config.quote, ctx);
  const usdProfit = rate === undefined ? null : profit.times(rate);
  figures.profit = figures.profit.plus(profit);
  figures.profitUsd = figures.profitUsd.plus(usdProfit ?? ZERO);
  figures.profitsCount += 1;
  const profitLine = below ?? line;
  out.records.push({
    lineId: profitLine.id,
    linePrice: profitLine.price,
    side: profitLine.side,
    orderPlaced: false,
    profit,
    usdProfit,
    at: out.at,
  });
}

function onBalancingFill(state: GridBotState, fill: FillInput, ctx: StepContext, out: GridOutput): void {
  const balancing = state.balancing!;
  const quote = fillQuote(fill);
  account(state, fill, quote, false);
  balancing.partial = addFill(balancing.partial, fill, quote, state);
  if (!fill.orderFilled) return;
  const done = balancing.partial;
  state.balancing = null;
  out.log(gridMessages.balancingFilled(state.config, done.quote.div(done.amount), done.amount));
  if (state.status !== 'balancing') return;
  state.status = 'running';
  syncOrders(state, ctx.price(state.config.pair)?.last, out);
}

function onStopFill(state: GridBotState, fill: FillInput, out: GridOutput): void {
  const stop = state.stopOrder!;
  const quote = fillQuote(fill);
  account(state, fill, quote, true);
  stop.partial = addFill(stop.partial, fill, quote, state);
  if (!fill.orderFilled) return;
  const done = stop.partial;
  state.stopOrder = null;
  out.log(gridMessages.stopOrderFilled(state.config, stop.side, done.quote.div(done.amount), done.amount));
  finishStop(state, out);
}

export function onOrderClosed(state: GridBotState, closed: OrderClosedInput, ctx: StepContext, out: GridOutput): void {
  const key = parseKey(closed.key);
  const reason = closed.message ?? closed.reason ?? closed.status;
  if (key?.kind === 'b' && state.balancing?.order === key.seq) {
    state.balancing = null;
    out.log(gridMessages.balancingFailed(reason));
    if (state.status !== 'balancing') return;
    state.error = gridMessages.balancingFailed(reason);
    return finishStop(state, out);
  }
  if (key?.kind === 's' && state.stopOrder?.order === key.seq) {
    state.stopOrder = null;
    out.log(gridMessages.stopOrderFailed(reason));
    state.error = gridMessages.stopOrderFailed(reason);
    return finishStop(state, out);
  }
  const found = key?.kind === 'o' ? state.lines.find((candidate) => candidate.order === key.seq) : undefined;
  if (found && awaitedByStop(state, found.order)) {
    // Part of it may have filled before the cancellation: that part counts as the line's fill.
    if (found.partial && found.side) completeLine(state, writable(state, found), ctx, out);
    return orderEndedWhileStopping(state, found.order, ctx, out);
  }
  // A line whose order the bot cancelled itself is no longer placed: nothing more to do.
  if (!found || !found.placed || found.side === null) return;
  const side = found.side;
  const line = writable(state, found);
  line.placed = false;
  line.partial = null;
  out.log(gridMessages.limitRefused(state.config, side, line.price, reason));
  if (dropRefusedGrowth(state, line, reason, out)) return;
  line.refused = true;
  state.error = gridMessages.limitRefused(state.config, side, line.price, reason);
  if (!state.lines.some((candidate) => candidate.placed) && state.status === 'running') {
    out.log(gridMessages.cannotTrade());
    finishStop(state, out);
  }
}

/**
 * Growth past the bounds runs on extra funds: the first growth order the exchange refuses ends it,
 * and its line goes, so no line is left that looks like it trades.
 */
function dropRefusedGrowth(state: GridBotState, line: WritableLine, reason: string, out: GridOutput): boolean {
  const { config, lines } = state;
  if (!line.grown) return false;
  if (line === lines[0]) {
    lines.shift();
    endGrowth(state, 'down', config.trailingDownEnabled ? 'Trailing down' : 'Expansion down', reason, out);
  } else if (line === lines[lines.length - 1]) {
    lines.pop();
    endGrowth(state, 'up', 'Expansion up', reason, out);
  } else {
    return false;
  }
  showRange(state);
  return true;
}
