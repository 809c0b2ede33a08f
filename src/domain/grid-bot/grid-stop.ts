/**
 * Stopping a grid: by the user (disable, delete) or by a stop loss. Every order is cancelled and
 * the lines are unmarked. A stop loss first waits until each cancelled order has ended: orders the
 * same move filled count as fills of the grid, so what it then sells (stop_bot_and_sell: the base
 * the sell lines hold) or spends (stop_bot_and_buy: the quote the buy lines hold) never depends on
 * how the move was split into ticks.
 */
import type { StepContext } from '../automation.ts';
import { type Decimal, floorToStep, ZERO } from '../../shared/decimal.ts';
import type { StopLoss } from './grid-bot-config.ts';
import { gridMessages } from './grid-events.ts';
import { cancelEverything, meetsMinimums } from './grid-orders.ts';
import type { GridOutput } from './grid-output.ts';
import { requiredFor } from './required-balances.ts';
import { type GridBotState, type PendingStop, stopKey, writable } from './grid-bot-state.ts';

export const STOP_TIMER = 'stop_loss';
/** How long a stop loss waits for its cancellations to be confirmed before it acts on what it knows. */
const STOP_WAIT_MS = 30_000;

/** Turns the bot off: lines unmarked, investment figures zero. Orders must be cancelled already. */
export function finishStop(state: GridBotState, out: GridOutput): void {
  for (const line of state.lines) {
    if (line.side === null && !line.placed && line.cost === null && !line.refused && line.partial === null) continue;
    const unmarked = writable(state, line);
    unmarked.side = null;
    unmarked.placed = false;
    unmarked.cost = null;
    unmarked.refused = false;
    unmarked.partial = null;
  }
  state.status = 'disabled';
  state.stop = null;
  state.figures = { ...state.figures, investmentBase: ZERO, investmentQuote: ZERO };
  out.log(gridMessages.turnedOff());
}

export function disable(state: GridBotState, out: GridOutput): void {
  out.log(gridMessages.stopReceived());
  cancelEverything(state, out);
  finishStop(state, out);
}

export function triggerStopLoss(
  state: GridBotState,
  which: 'Upper' | 'Lower',
  stopLoss: StopLoss,
  price: Decimal,
  ctx: StepContext,
  out: GridOutput,
): void {
  out.log(gridMessages.stopLossTriggered(state.config, which, stopLoss.price!, price));
  const waiting = state.lines.filter((line) => line.placed).map((line) => line.order);
  cancelEverything(state, out);
  const action = stopLoss.action === 'stop_bot' ? 'stop_bot' : stopLoss.action === 'stop_bot_and_sell' ? 'sell' : 'buy';
  state.status = 'stopping';
  if (waiting.length === 0) return actOnStop(state, action, ctx, out);
  state.stop = { action, waiting };
  out.commands.push({ type: 'schedule_timer', key: STOP_TIMER, at: new Date(ctx.now.getTime() + STOP_WAIT_MS) });
}

/** Marks one of the stop's cancelled orders as ended, and acts once none is left. */
export function orderEndedWhileStopping(state: GridBotState, order: number, ctx: StepContext, out: GridOutput): void {
  if (!state.stop) return;
  state.stop.waiting = state.stop.waiting.filter((waiting) => waiting !== order);
  settleStop(state, ctx, out);
}

/** Acts on a pending stop loss once its cancelled orders have all ended, or when its wait ran out (`waitOver`). */
export function settleStop(state: GridBotState, ctx: StepContext, out: GridOutput, waitOver = false): void {
  const stop = state.stop;
  if (!stop || (stop.waiting.length > 0 && !waitOver)) return;
  out.commands.push({ type: 'cancel_timer', key: STOP_TIMER });
  state.stop = null;
  actOnStop(state, stop.action, ctx, out);
}

/** Stops, or sells or buys at market what the lines hold at the current price. */
function actOnStop(state: GridBotState, action: PendingStop['action'], ctx: StepContext, out: GridOutput): void {
  if (action === 'stop_bot') return finishStop(state, out);
  const { config, carry } = state;
  const rules = ctx.rules(config.pair);
  const price = ctx.price(config.pair)?.last;
  const side = action;
  const held = requiredFor(state.lines);
  if (price === undefined || price.isZero()) {
    out.log(gridMessages.marketSkipped(side, 'there is no price'));
    return finishStop(state, out);
  }
  const amount = floorToStep(side === 'sell' ? held.base.plus(carry.base) : held.quote.div(price), rules.lotStep);
  if (!meetsMinimums(amount, price, rules, true)) {
    out.log(gridMessages.marketSkipped(side, 'the amount is below the exchange minimum'));
    return finishStop(state, out);
  }
  if (side === 'sell' && amount.gt(held.base)) {
    const used = amount.minus(held.base);
    state.carry = { base: carry.base.minus(used), value: carry.value.minus(carry.value.times(used).div(carry.base)) };
  }
  state.seq += 1;
  state.stopOrder = { order: state.seq, side, amount, partial: null };
  out.commands.push({ type: 'place_order', key: stopKey(state.seq), pair: config.pair, side, orderType: 'market', amount, role: 'stop_loss' });
  out.log(gridMessages.marketCreated(config, side, amount, price));
}
