/**
 * Fills and closed orders. A completed buy makes its line wait and puts a sell for what it brought
 * in one line up; a completed sell makes its line wait and puts a buy one line down. A sell that
 * closes a buy of this bot books the pair's profit, s·(P_sell − P_buy) − sell fee − buy fee, with a
 * fee paid in base valued at its order's price. So each profit equals the pair's quote change plus
 * its base change (the lot-step remainder of a base fee) valued at the buy price.
 */
import type { FillInput, OrderClosedInput, StepContext } from '../automation.ts';
import { ZERO } from '../../shared/decimal.ts';
import { growsDown } from './grid-bot-config.ts';
import { gridMessages } from './grid-events.ts';
import { floorToStep } from './grid-lines.ts';
import { buyAmount, syncOrders } from './grid-orders.ts';
import type { GridOutput } from './grid-output.ts';
import { finishStop } from './grid-stop.ts';
import { type GridBotState, type GridLine, type PartialFill, parseKey } from './grid-bot-state.ts';
import { usdRate } from './usd-rate.ts';

const noFill = (): PartialFill => ({ amount: ZERO, quote: ZERO, feeBase: ZERO, feeQuote: ZERO });

function addFill(partial: PartialFill | null, fill: FillInput, state: GridBotState): PartialFill {
  const sum = partial ?? noFill();
  const { base, quote } = state.config;
  return {
    amount: sum.amount.plus(fill.amount),
    quote: sum.quote.plus(fill.amount.times(fill.price)),
    feeBase: fill.feeCurrency === base ? sum.feeBase.plus(fill.fee) : sum.feeBase,
    feeQuote: fill.feeCurrency === quote ? sum.feeQuote.plus(fill.fee) : sum.feeQuote,
  };
}

/** Volumes count every fill; the flows only fills of lines and stop-loss orders. */
function account(state: GridBotState, fill: FillInput, flows: boolean): void {
  const figures = state.figures;
  const quote = fill.amount.times(fill.price);
  const feeBase = fill.feeCurrency === state.config.base ? fill.fee : ZERO;
  const feeQuote = fill.feeCurrency === state.config.quote ? fill.fee : ZERO;
  if (fill.side === 'buy') figures.boughtVolume = figures.boughtVolume.plus(quote);
  else figures.soldVolume = figures.soldVolume.plus(quote);
  if (!flows) return;
  const sign = fill.side === 'buy' ? 1 : -1;
  figures.flowBase = figures.flowBase.plus(fill.amount.times(sign)).minus(feeBase);
  figures.flowQuote = figures.flowQuote.minus(quote.times(sign)).minus(feeQuote);
}

export function onFill(state: GridBotState, fill: FillInput, ctx: StepContext, out: GridOutput): void {
  const key = parseKey(fill.key);
  if (key?.kind === 'b' && state.balancing?.order === key.seq) return onBalancingFill(state, fill, ctx, out);
  if (key?.kind === 's' && state.stopOrder?.order === key.seq) return onStopFill(state, fill, out);
  const line = key?.kind === 'o' ? state.lines.find((candidate) => candidate.order === key.seq) : undefined;
  account(state, fill, key?.kind !== 'b');
  if (!line || line.side !== fill.side || (state.status !== 'running' && state.status !== 'balancing')) {
    out.log(gridMessages.lateFill(state.config, fill.side, fill.price, fill.amount));
    return;
  }
  line.partial = addFill(line.partial, fill, state);
  if (!fill.orderFilled) return;
  const done = line.partial;
  line.partial = null;
  line.placed = false;
  const booked = out.records.length;
  if (line.side === 'buy') boughtOnLine(state, line, done, ctx, out);
  else soldOnLine(state, line, done, ctx, out);
  syncOrders(state, ctx.price(state.config.pair)?.last, out);
  for (const record of out.records.slice(booked)) {
    const profitLine = state.lines.find((candidate) => candidate.id === record.lineId);
    record.side = profitLine?.side ?? null;
    record.orderPlaced = profitLine?.placed ?? false;
  }
}

/**
 * The sell gets what the buy brought in: the amount less a fee paid in base, down to the lot step,
 * so a grid never sells base it did not get. Its cost is that amount at the buy price plus the
 * buy's fee; what the lot step leaves over stays in the account, valued at the buy price.
 */
function boughtOnLine(state: GridBotState, line: GridLine, done: PartialFill, ctx: StepContext, out: GridOutput): void {
  const average = done.quote.div(done.amount);
  out.log(gridMessages.limitFilled(state.config, 'buy', average, done.amount, null));
  line.side = null;
  const above = state.lines[state.lines.indexOf(line) + 1];
  if (!above || above.side !== null) return;
  const amount = floorToStep(done.amount.minus(done.feeBase), ctx.rules(state.config.pair).lotStep);
  above.side = 'sell';
  above.amount = amount;
  above.cost = amount.plus(done.feeBase).times(average).plus(done.feeQuote);
  above.refused = false;
}

function soldOnLine(state: GridBotState, line: GridLine, done: PartialFill, ctx: StepContext, out: GridOutput): void {
  const { config, figures } = state;
  const average = done.quote.div(done.amount);
  const profit = line.cost === null ? null : done.quote.minus(done.feeQuote).minus(done.feeBase.times(average)).minus(line.cost);
  out.log(gridMessages.limitFilled(config, 'sell', average, done.amount, profit));
  line.side = null;
  line.cost = null;
  const below = state.lines[state.lines.indexOf(line) - 1];
  if (below && below.side === null) {
    below.side = 'buy';
    below.amount = buyAmount(config, below.price, ctx.rules(config.pair));
    below.cost = null;
    below.refused = false;
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
  account(state, fill, false);
  balancing.partial = addFill(balancing.partial, fill, state);
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
  account(state, fill, true);
  stop.partial = addFill(stop.partial, fill, state);
  if (!fill.orderFilled) return;
  const done = stop.partial;
  state.stopOrder = null;
  out.log(gridMessages.stopOrderFilled(state.config, stop.side, done.quote.div(done.amount), done.amount));
  finishStop(state, out);
}

export function onOrderClosed(state: GridBotState, closed: OrderClosedInput, out: GridOutput): void {
  const key = parseKey(closed.key);
  const reason = closed.message ?? closed.reason ?? closed.status;
  if (key?.kind === 'b' && state.balancing?.order === key.seq) {
    state.balancing = null;
    out.log(gridMessages.balancingFailed(reason));
    if (state.status === 'balancing') finishStop(state, out);
    return;
  }
  if (key?.kind === 's' && state.stopOrder?.order === key.seq) {
    state.stopOrder = null;
    out.log(gridMessages.stopOrderFailed(reason));
    finishStop(state, out);
    return;
  }
  const line = key?.kind === 'o' ? state.lines.find((candidate) => candidate.order === key.seq) : undefined;
  // A line whose order the bot cancelled itself is no longer placed: nothing more to do.
  if (!line || !line.placed || line.side === null) return;
  line.placed = false;
  line.refused = true;
  line.partial = null;
  out.log(gridMessages.limitRefused(state.config, line.side, line.price, reason));
  endGrowthOnRefusal(state, line, reason, out);
}

/** Growth past the bounds runs on extra funds; the first growth order the exchange refuses ends it. */
function endGrowthOnRefusal(state: GridBotState, line: GridLine, reason: string, out: GridOutput): void {
  const { config, lines } = state;
  if (line === lines[0] && line.side === 'buy' && growsDown(config) && !state.growDownEnded) {
    state.growDownEnded = true;
    out.log(gridMessages.growthEnded(config.trailingDownEnabled ? 'Trailing down' : 'Expansion down', reason));
  }
  if (line === lines[lines.length - 1] && line.side === 'sell' && config.expansionUp.enabled && !state.growUpEnded) {
    state.growUpEnded = true;
    out.log(gridMessages.growthEnded('Expansion up', reason));
  }
}
