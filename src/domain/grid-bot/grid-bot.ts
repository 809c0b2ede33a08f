/**
 * The grid bot state machine: `step(state, input, context)` for the user's actions (start,
 * enable, disable, edit, note, delete) and the engine's inputs (ticks, fills, closed orders).
 * Pure: the step never changes the state it is given and does no I/O.
 */
import type { EngineInput, StepContext, StepResult } from '../automation.ts';
import type { GridBotConfig } from './grid-bot-config.ts';
import { onFill, onOrderClosed } from './grid-fills.ts';
import { gridMessages } from './grid-events.ts';
import { onTick } from './grid-market.ts';
import { cancelEverything } from './grid-orders.ts';
import { GridOutput, type GridProfitRecord } from './grid-output.ts';
import { type Funding, layOut, replaceLines, startGrid } from './grid-plan.ts';
import { disable, finishStop, settleStop, STOP_TIMER } from './grid-stop.ts';
import { assertAllowed } from './grid-bot.transitions.ts';
import { draft, type GridBotState } from './grid-bot-state.ts';

export type GridBotAction =
  | ({ type: 'start' } & Funding)
  | ({ type: 'enable' } & Funding)
  | { type: 'disable' }
  | ({ type: 'edit'; config: GridBotConfig } & Funding)
  | { type: 'note'; note: string | null }
  | { type: 'delete' };

export type GridBotInput = EngineInput | GridBotAction;

export function stepGridBot(
  state: GridBotState,
  input: GridBotInput,
  ctx: StepContext,
): StepResult<GridBotState, GridProfitRecord> {
  assertAllowed(state.status, input.type);
  const next = draft(state);
  const out = new GridOutput(ctx.now);
  switch (input.type) {
    case 'start':
    case 'enable':
      out.log(gridMessages.startReceived());
      startGrid(next, input, ctx, out);
      break;
    case 'disable':
      disable(next, out);
      break;
    case 'edit':
      edit(next, input, ctx, out);
      break;
    case 'note':
      next.config = { ...next.config, note: input.note };
      break;
    case 'delete':
      if (next.status !== 'disabled' && next.status !== 'new') disable(next, out);
      next.status = 'deleted';
      break;
    case 'tick':
      onTick(next, input, ctx, out);
      break;
    case 'fill':
      onFill(next, input, ctx, out);
      break;
    case 'order_closed':
      onOrderClosed(next, input, ctx, out);
      break;
    case 'timer':
      if (input.key === STOP_TIMER) settleStop(next, ctx, out, true);
      break;
  }
  return { state: next, commands: out.commands, events: out.events, records: out.records };
}

/**
 * New settings keep the profit history. A running grid is placed again from the current price;
 * a stopped one only shows where its lines would go.
 */
function edit(state: GridBotState, input: Extract<GridBotAction, { type: 'edit' }>, ctx: StepContext, out: GridOutput): void {
  const wasRunning = state.status === 'running' || state.status === 'balancing';
  if (wasRunning) {
    cancelEverything(state, out);
    finishStop(state, out);
  }
  state.config = input.config;
  out.log(gridMessages.settingsUpdated());
  if (wasRunning) return startGrid(state, input, ctx, out);
  const rules = ctx.rules(input.config.pair);
  state.priceStep = rules.priceStep;
  replaceLines(state, layOut(state, rules, ctx.price(input.config.pair)?.last));
}
