/**
 * When a bot may open a deal, and opening it. Limits: max_active_deals in all, per pair
 * allowed_deals_on_same_pair on a multi-pair bot (max_active_deals on a single-pair one), the
 * blacklist (multi-pair bots), cooldown after the pair's last deal closed, min/max price, and
 * disable_after_deals_count. Start conditions: `manual` never starts a deal by itself, `nonstop`
 * starts one whenever the limits allow, indicator conditions when all of them hold on the candle
 * that just closed (candle-conditions.ts).
 */
import type { StepContext } from '../automation.ts';
import { parsePair } from '../market/pair.ts';
import { dec } from '../../shared/decimal.ts';
import { type DcaBotState, isMultiPair } from './dca-bot-state.ts';
import { type Deal, newDeal, takeOverLeftover } from './deal.ts';
import { closeTimeoutTimer } from './deal-finish.ts';
import { placeBaseOrder } from './deal-orders.ts';
import type { StepOutput } from './step-output.ts';

export type StartRefusal =
  | 'max_active_deals'
  | 'pair_limit'
  | 'deals_count'
  | 'blacklisted'
  | 'cooldown'
  | 'no_price'
  | 'below_range'
  | 'above_range';

/** A start_new_deal request the bot's limits refuse. */
export class DealStartError extends Error {
  override readonly name = 'DealStartError';

  constructor(readonly reason: StartRefusal) {
    super(`A new deal cannot start: ${reason.replaceAll('_', ' ')}`);
  }
}

export const cooldownTimer = (pair: string) => `cooldown:${pair}`;

export interface StartChecks {
  signals: boolean;
  openDeals: boolean;
}

export const hasStrategy = (state: DcaBotState, strategy: string) => state.config.strategyList.some((c) => c.strategy === strategy);

function perPairLimit(state: DcaBotState): number {
  return isMultiPair(state) ? (state.config.allowedDealsOnSamePair ?? 1) : state.config.maxActiveDeals;
}

export function startRefusal(state: DcaBotState, pair: string, context: StepContext, nowMs: number, checks: StartChecks): StartRefusal | undefined {
  const { config } = state;
  if (checks.openDeals) {
    if (state.deals.length >= config.maxActiveDeals) return 'max_active_deals';
    if (state.deals.filter((deal) => deal.pair === pair).length >= perPairLimit(state)) return 'pair_limit';
  }
  if (config.disableAfterDealsCount !== null && state.dealsCounter >= config.disableAfterDealsCount) return 'deals_count';
  const last = context.price(pair)?.last;
  if (!last || last.lte(0)) return 'no_price';
  if (!checks.signals) return undefined;
  if (isMultiPair(state) && state.blacklist.includes(pair)) return 'blacklisted';
  const closed = state.lastClosedAt[pair];
  if (closed !== undefined && nowMs < closed + config.cooldown * 1000) return 'cooldown';
  if (config.minPrice !== null && last.lt(dec(config.minPrice))) return 'below_range';
  if (config.maxPrice !== null && last.gt(dec(config.maxPrice))) return 'above_range';
  return undefined;
}

/** Opens a deal on `pair` with its base order; undefined when the pair has no price. */
export function startDeal(state: DcaBotState, pair: string, context: StepContext, out: StepOutput): Deal | undefined {
  if (!context.nextId) throw new Error('Opening a DCA deal needs deal ids from the engine (StepContext.nextId)');
  const parsed = parsePair(pair);
  if (!parsed) throw new Error(`Not a pair: ${pair}`);
  const deal = newDeal({
    id: context.nextId(),
    no: state.nextDealNo,
    pair: parsed.code,
    base: parsed.base,
    quote: parsed.quote,
    settings: state.config.deal,
    at: out.nowMs,
  });
  if (!placeBaseOrder(deal, context, out)) return undefined;
  const leftover = state.leftovers?.[deal.pair];
  if (leftover) {
    takeOverLeftover(deal, leftover);
    const { [deal.pair]: _taken, ...rest } = state.leftovers!;
    state.leftovers = rest;
  }
  state.nextDealNo += 1;
  state.dealsCounter += 1;
  state.deals.push(deal);
  delete state.blocked[pair];
  const timeout = deal.settings.closeDealsTimeout;
  if (timeout !== null && timeout > 0) out.schedule(closeTimeoutTimer(deal), out.nowMs + timeout * 1000);
  const limit = state.config.disableAfterDealsCount;
  if (limit !== null && state.dealsCounter >= limit && state.enabled) {
    state.enabled = false;
    out.log(`Bot disabled: ${limit} deals were started (disable_after_deals_count)`);
  }
  return deal;
}

/**
 * Starts what the nonstop condition allows, one deal per pair per round, pairs with the fewest
 * active deals first (ties in the bot's order), so a multi-pair bot spreads its deals.
 */
export function startNonstopDeals(state: DcaBotState, context: StepContext, out: StepOutput): void {
  if (!hasStrategy(state, 'nonstop')) return;
  const active = (pair: string) => state.deals.filter((deal) => deal.pair === pair).length;
  let started = true;
  while (started && state.enabled) {
    started = false;
    const pairs = state.config.pairs.map((pair, index) => ({ pair, index, count: active(pair) }));
    pairs.sort((a, b) => a.count - b.count || a.index - b.index);
    for (const { pair } of pairs) {
      if (!state.enabled) break;
      const refusal = startRefusal(state, pair, context, out.nowMs, { signals: true, openDeals: true });
      if (refusal === undefined && startDeal(state, pair, context, out)) started = true;
      else noteRefusal(state, pair, refusal ?? 'no_price', out);
    }
  }
}

function noteRefusal(state: DcaBotState, pair: string, refusal: StartRefusal, out: StepOutput): void {
  if (refusal === 'above_range' || refusal === 'below_range' || refusal === 'no_price') {
    state.blocked[pair] = refusal;
    return;
  }
  delete state.blocked[pair];
  if (refusal === 'cooldown') out.schedule(cooldownTimer(pair), state.lastClosedAt[pair]! + state.config.cooldown * 1000);
}
