/**
 * The SmartTrade state machine: `stepSmartTrade(state, input, context)`. It is created in status
 * `created` and started by the `start` action; from then on it reacts to price ticks (only those
 * its watches ask for), to fills and ends of its orders, to its timers and to user actions. Which
 * input each status accepts is the table in smart-trade.transitions.ts.
 */
import { ZERO } from '../../shared/decimal.ts';
import type { EngineInput, StepContext, StepResult } from '../automation.ts';
import { CANCEL_TIMER, cancelTrade, closeByMarket, settleCancellation } from './closing.ts';
import { Draft } from './draft.ts';
import { editTrade } from './edit.ts';
import { entryTick, forceStart, startTrade } from './entry.ts';
import { addFunds, reduceFunds } from './funds.ts';
import { onFill, onOrderClosed, resync } from './order-events.ts';
import { ENDED, assertSmartTradeAllows } from './smart-trade.transitions.ts';
import type { MarketSteps, SmartTradeAction, SmartTradeConfig, SmartTradeState } from './smart-trade.types.ts';
import { STOP_LOSS_TIMER, stopLossTick, stopLossTimer } from './stop-loss.ts';
import { cancelSubTrade, closeSubTrade } from './sub-trades.ts';
import { targetsTick } from './targets.ts';
import { type SmartTradeRecord, tradeClosed } from './trade-records.ts';

export function newSmartTrade(config: SmartTradeConfig, market: MarketSteps, note = ''): SmartTradeState {
  let lastId = 0;
  const next = () => (lastId += 1);
  const position = { id: next(), status: 'to_process' as const };
  const steps = config.takeProfit.enabled
    ? config.takeProfit.steps.map((step) => ({ ...step, id: next(), status: 'idle' as const }))
    : [];
  const stopLoss = config.stopLoss ? { stopLoss: { id: next(), status: 'idle' as const, atBreakeven: false } } : {};
  return {
    config,
    market,
    status: 'created',
    note,
    position,
    steps,
    ...stopLoss,
    funds: [],
    orders: [],
    kept: ZERO,
    seq: 0,
    lastId,
  };
}

export const isSmartTradeRunning = (state: SmartTradeState) => !ENDED.has(state.status);

export function stepSmartTrade(
  state: SmartTradeState,
  input: EngineInput | SmartTradeAction,
  context: StepContext,
): StepResult<SmartTradeState, SmartTradeRecord> {
  assertSmartTradeAllows(state.status, input.type);
  const draft = new Draft(state, context, input.type === 'tick');
  switch (input.type) {
    case 'start':
      startTrade(draft);
      break;
    case 'tick':
      draft.tick = { last: input.price, bid: input.bid, ask: input.ask };
      onTick(draft);
      break;
    case 'fill':
      onFill(draft, input);
      break;
    case 'order_closed':
      onOrderClosed(draft, input);
      break;
    case 'timer':
      if (input.key === STOP_LOSS_TIMER) stopLossTimer(draft);
      else if (input.key === CANCEL_TIMER) settleCancellation(draft);
      break;
    case 'edit':
      editTrade(draft, input.edit);
      break;
    case 'set_note':
      draft.state.note = input.note;
      break;
    case 'cancel':
      cancelTrade(draft);
      break;
    case 'close_by_market':
      closeByMarket(draft);
      break;
    case 'add_funds':
      addFunds(draft, input.funds);
      break;
    case 'reduce_funds':
      reduceFunds(draft, input.funds);
      resync(draft);
      break;
    case 'force_start':
      forceStart(draft);
      break;
    case 'force_process':
      forceProcess(draft);
      break;
    case 'close_sub_trade':
      closeSubTrade(draft, input.subTradeId);
      break;
    case 'cancel_sub_trade':
      cancelSubTrade(draft, input.subTradeId);
      resync(draft);
      break;
  }
  if (!ENDED.has(state.status) && ENDED.has(draft.state.status)) draft.records.push(tradeClosed(draft.state, draft.now));
  return { state: draft.state, commands: draft.orderedCommands(), events: draft.events, records: draft.records };
}

function onTick(draft: Draft): void {
  const { status } = draft.state;
  if (status === 'waiting_position') entryTick(draft);
  else if ((status === 'waiting_targets' || status === 'pending_reduce_funds') && !stopLossTick(draft)) targetsTick(draft);
}

/** Processes the trade now at the current price, and retries take-profit steps that failed. */
function forceProcess(draft: Draft): void {
  const { state } = draft;
  for (const step of state.steps) {
    if (step.status !== 'failed') continue;
    step.status = 'idle';
    delete step.error;
  }
  draft.log('Processing at the current price');
  if (state.status === 'waiting_position') {
    if (state.position.status === 'to_process' || state.position.status === 'trailing_activated') entryTick(draft);
    return;
  }
  if (stopLossTick(draft)) return;
  targetsTick(draft);
  resync(draft);
}

