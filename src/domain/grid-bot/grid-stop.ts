/**
 * Stopping a grid: by the user (disable, delete) or by a stop loss. Every order is cancelled and
 * the lines are unmarked; a stop loss whose action says so first sells the base the sell lines
 * hold (stop_bot_and_sell) or spends the quote the buy lines hold (stop_bot_and_buy) at market.
 */
import type { StepContext } from '../automation.ts';
import { type Decimal, ZERO } from '../../shared/decimal.ts';
import type { StopLoss } from './grid-bot-config.ts';
import { gridMessages } from './grid-events.ts';
import { floorToStep } from './grid-lines.ts';
import { cancelEverything, meetsMinimums } from './grid-orders.ts';
import type { GridOutput } from './grid-output.ts';
import { requiredFor } from './required-balances.ts';
import { type GridBotState, stopKey } from './grid-bot-state.ts';

/** Turns the bot off: lines unmarked, investment figures zero. Orders must be cancelled already. */
export function finishStop(state: GridBotState, out: GridOutput): void {
  for (const line of state.lines) {
    line.side = null;
    line.placed = false;
    line.cost = null;
    line.refused = false;
    line.partial = null;
  }
  state.status = 'disabled';
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
  const { config } = state;
  out.log(gridMessages.stopLossTriggered(config, which, stopLoss.price!, price));
  const held = requiredFor(state.lines);
  cancelEverything(state, out);
  if (stopLoss.action === 'stop_bot') return finishStop(state, out);
  const rules = ctx.rules(config.pair);
  const side = stopLoss.action === 'stop_bot_and_sell' ? 'sell' : 'buy';
  const amount = floorToStep(side === 'sell' ? held.base : held.quote.div(price), rules.lotStep);
  if (!meetsMinimums(amount, price, rules, true)) {
    out.log(gridMessages.marketSkipped(side, 'the amount is below the exchange minimum'));
    return finishStop(state, out);
  }
  state.seq += 1;
  state.stopOrder = { order: state.seq, side, amount, partial: null };
  state.status = 'stopping';
  out.commands.push({ type: 'place_order', key: stopKey(state.seq), pair: config.pair, side, orderType: 'market', amount, role: 'stop_loss' });
  out.log(gridMessages.marketCreated(config, side, amount, price));
}
