/**
 * The DCA bot state machine: one automation per bot, holding its active deals. Fills, closed
 * orders and timers go to the deal their key names (`d<deal no>…`); ticks go to the deals on the
 * pair and to the start conditions; user actions go through the bot's transitions table. Deals
 * that finished leave the state at the end of the step, after their last snapshot was recorded.
 */
import type { EngineInput, FillInput, OrderClosedInput, PriceWatch, StepContext, StepResult } from '../automation.ts';
import { cloneDataSharing } from '../../shared/clone-data.ts';
import { dec, type Decimal } from '../../shared/decimal.ts';
import { type DcaBotAction, type DcaBotState, SIGNAL_MARKS } from './dca-bot-state.ts';
import { assertBotAllows, type BotInput } from './dca-bot.transitions.ts';
import { copyDeal, type Deal, isFinished, isLong, type Leftover, PROFIT_STATUSES } from './deal.ts';
import { applyDealAction } from './deal-actions.ts';
import { dealOnTick, dealOnTimer, dealWatch } from './deal-exits.ts';
import { settleLateInput } from './deal-finish.ts';
import { hasCloseStrategy, hasStartIndicators, onCandleTick } from './candle-conditions.ts';
import { cooldownTimer, DealStartError, hasStrategy, startDeal, startNonstopDeals, startRefusal } from './deal-starts.ts';
import { dealOnFill, dealOnOrderClosed } from './deal-step.ts';
import { type DcaRecord, StepOutput } from './step-output.ts';
import { TransitionError } from '../automation.ts';

/** A bound every price is below: a watch with it hears every tick. */
const EVERY_TICK = dec('1e30');

const DEAL_KEY = /^d(\d+)[a-z]/;

export function stepBot(state: DcaBotState, input: EngineInput | DcaBotAction, context: StepContext): StepResult<DcaBotState, DcaRecord> {
  const bot = copyBot(state);
  const out = new StepOutput(context.now);
  // Checked first: a signal that took effect is done, whatever the bot's state is now.
  if (input.type === 'signal' && bot.signals?.some((mark) => mark.id === input.id)) return { state: bot, commands: [], events: [], records: [] };
  assertBotAllows(bot.enabled ? 'enabled' : 'disabled', inputName(input));
  switch (input.type) {
    case 'tick':
      for (const deal of bot.deals) if (deal.pair === input.pair) dealOnTick(deal, input, context, out);
      onCandleTick(bot, input, context, out);
      if (bot.enabled && bot.blocked[input.pair]) startNonstopDeals(bot, context, out);
      break;
    case 'fill':
    case 'order_closed': {
      const deal = dealOfKey(bot, input.key);
      const settling = deal ? undefined : dealOfKey(bot, input.key, bot.settling);
      if (deal && input.type === 'fill') dealOnFill(deal, input, context, out);
      else if (deal && input.type === 'order_closed') dealOnOrderClosed(deal, input, context, out);
      else if (settling) settleLate(bot, settling, input, context, out);
      break;
    }
    case 'timer': {
      const deal = dealOfKey(bot, input.key);
      if (deal) dealOnTimer(deal, input.key, context, out);
      else if (input.key.startsWith('cooldown:') && bot.enabled) startNonstopDeals(bot, context, out);
      break;
    }
    default:
      applyAction(bot, input, context, out);
  }
  settleFinished(bot, context, out);
  out.flushDeals({ botName: bot.config.name, accountId: bot.accountId, userId: bot.userId });
  return { state: bot, commands: out.commands, events: out.events, records: out.records };
}

/**
 * The state a step changes: a copy, but for the bot's settings and its deals' settings, which a
 * step replaces and never changes (the test harness freezes the states it steps to hold to that).
 */
function copyBot(state: DcaBotState): DcaBotState {
  const copy = cloneDataSharing(state, COPIED_APART);
  copy.deals = state.deals.map(copyDeal);
  copy.settling = state.settling.map(copyDeal);
  return copy;
}

/** Kept by a bot's copy as they are: its settings, and its deals, which are copied apart. */
const COPIED_APART: ReadonlySet<keyof DcaBotState> = new Set(['config', 'deals', 'settling']);

function inputName(input: EngineInput | DcaBotAction): BotInput {
  if (input.type === 'signal') return inputName(input.action);
  if (input.type !== 'start_deal') return input.type;
  return input.onlyForEnabled ? 'start_deal' : 'start_deal_and_enable';
}

function dealOfKey(bot: DcaBotState, key: string, among: Deal[] = bot.deals): Deal | undefined {
  const no = DEAL_KEY.exec(key)?.[1];
  return no === undefined ? undefined : among.find((deal) => deal.no === Number(no));
}

function settleLate(bot: DcaBotState, deal: Deal, input: FillInput | OrderClosedInput, context: StepContext, out: StepOutput): void {
  const usdBefore = dec(deal.usdProfit ?? 0);
  settleLateInput(deal, input, context, out);
  if (PROFIT_STATUSES.includes(deal.status)) {
    bot.finishedDealsProfitUsd = dec(bot.finishedDealsProfitUsd).plus(dec(deal.usdProfit ?? 0)).minus(usdBefore).toFixed();
  }
  if (deal.orders.length === 0) bot.settling = bot.settling.filter((d) => d !== deal);
}

function applyAction(bot: DcaBotState, action: DcaBotAction, context: StepContext, out: StepOutput): void {
  switch (action.type) {
    case 'signal': {
      applyAction(bot, action.action, context, out);
      bot.signals = [...(bot.signals ?? []), { id: action.id, deals: out.touchedDeals() }].slice(-SIGNAL_MARKS);
      return;
    }
    case 'enable':
      if (!bot.enabled) out.log('Bot enabled');
      bot.enabled = true;
      bot.blocked = {};
      return startNonstopDeals(bot, context, out);
    case 'disable':
      if (bot.enabled) out.log('Bot disabled');
      bot.enabled = false;
      return;
    case 'update':
      bot.config = action.config;
      out.log('Bot settings updated');
      if (bot.enabled) startNonstopDeals(bot, context, out);
      return;
    case 'set_blacklist':
      bot.blacklist = action.pairs;
      return;
    case 'start_deal': {
      if (!bot.enabled) out.log('Bot enabled to start a deal');
      bot.enabled = true;
      const checks = { signals: !action.skipSignalChecks, openDeals: !action.skipOpenDealsChecks };
      const refusal = startRefusal(bot, action.pair, context, out.nowMs, checks);
      if (refusal) throw new DealStartError(refusal);
      if (!startDeal(bot, action.pair, context, out)) throw new DealStartError('no_price');
      return;
    }
    case 'panic_sell_all':
    case 'cancel_all':
      for (const deal of bot.deals) {
        if (action.type === 'panic_sell_all' && action.pair !== undefined && deal.pair !== action.pair) continue;
        const type = action.type === 'panic_sell_all' ? 'panic_sell' : 'cancel';
        try {
          applyDealAction(deal, { type }, context, out);
        } catch (error) {
          // Deals already closing at market are left to finish.
          if (!(error instanceof TransitionError)) throw error;
        }
      }
      return;
    case 'deal': {
      const deal = bot.deals.find((d) => d.id === action.dealId);
      if (!deal) throw new TransitionError('finished', action.action.type);
      return applyDealAction(deal, action.action, context, out);
    }
  }
}

/** Books finished deals into the bot's counters, then lets nonstop start their successors. */
function settleFinished(bot: DcaBotState, context: StepContext, out: StepOutput): void {
  const finished = bot.deals.filter(isFinished);
  if (finished.length === 0) return;
  bot.deals = bot.deals.filter((deal) => !isFinished(deal));
  bot.settling.push(...finished.filter((deal) => deal.orders.length > 0));
  for (const deal of finished) {
    bot.lastClosedAt[deal.pair] = deal.closedAt ?? out.nowMs;
    if (deal.leftover) addLeftover(bot, deal.pair, deal.leftover);
    if (PROFIT_STATUSES.includes(deal.status)) {
      bot.finishedDealsCount += 1;
      bot.finishedDealsProfitUsd = dec(bot.finishedDealsProfitUsd).plus(dec(deal.usdProfit ?? 0)).toFixed();
    }
    if (deal.status === 'stop_loss_finished' && deal.settings.stopLossType === 'stop_loss_and_disable_bot' && bot.enabled) {
      bot.enabled = false;
      out.log(`Bot disabled after deal #${deal.id} was closed by Stop Loss`);
    }
  }
  if (bot.enabled && hasStrategy(bot, 'nonstop')) {
    if (bot.config.cooldown > 0) for (const deal of finished) out.schedule(cooldownTimer(deal.pair), deal.closedAt! + bot.config.cooldown * 1000);
    startNonstopDeals(bot, context, out);
  }
}

function addLeftover(bot: DcaBotState, pair: string, leftover: Leftover): void {
  const held = bot.leftovers?.[pair];
  const sum = (a: string, b: string | undefined) => dec(a).plus(dec(b ?? 0)).toFixed();
  bot.leftovers = { ...bot.leftovers, [pair]: { base: sum(leftover.base, held?.base), value: sum(leftover.value, held?.value) } };
}

export function isBotRunning(state: DcaBotState): boolean {
  return state.enabled || state.deals.length > 0 || state.settling.length > 0;
}

export function botWatches(state: DcaBotState): PriceWatch[] {
  const bands = new Map<string, { below?: Decimal; above?: Decimal }>();
  const widen = (pair: string, below?: Decimal, above?: Decimal) => {
    const band = bands.get(pair) ?? {};
    if (below && (!band.below || below.gt(band.below))) band.below = below;
    if (above && (!band.above || above.lt(band.above))) band.above = above;
    bands.set(pair, band);
  };
  for (const deal of state.deals) {
    const { losing, winning } = dealWatch(deal);
    if (hasCloseStrategy(deal)) widen(deal.pair, EVERY_TICK);
    else if (isLong(deal)) widen(deal.pair, losing, winning);
    else widen(deal.pair, winning, losing);
  }
  if (state.enabled) {
    const indicators = hasStartIndicators(state);
    for (const pair of state.config.pairs) {
      const block = state.blocked[pair];
      if (indicators || block === 'no_price') widen(pair, EVERY_TICK);
      else if (block === 'above_range') widen(pair, dec(state.config.maxPrice!));
      else if (block === 'below_range') widen(pair, undefined, dec(state.config.minPrice!));
    }
  }
  return [...bands].map(([pair, band]) => ({ pair, ...band }));
}

/** The pairs whose prices the bot uses: its own, and BTC's dollar price for USD and BTC values. */
export function botPairs(state: DcaBotState): string[] {
  return [...new Set([...state.config.pairs, ...state.deals.map((deal) => deal.pair), 'USDT_BTC'])];
}
