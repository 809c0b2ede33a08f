/**
 * Keeps the exchange in line with the grid: every line with a side has its order, except lines
 * outside the active windows (max_active_buy_lines below the waiting line, max_active_sell_lines
 * above it), whose orders are cancelled and held back until the window slides to them.
 */
import type { TradingRules } from '../market/trading-rules.ts';
import { compact, type Decimal, floorQuotientToStep, floorToStep, ZERO } from '../../shared/decimal.ts';
import type { GridBotConfig } from './grid-bot-config.ts';
import { gridMessages } from './grid-events.ts';
import type { GridOutput } from './grid-output.ts';
import { balancingKey, type GridBotState, type GridLine, lineKey, stopKey, writable } from './grid-bot-state.ts';

/** The base amount of a buy on a line (kept by the line, so compact): quote mode spends at most quantity_per_grid of quote. */
export function buyAmount(config: GridBotConfig, price: Decimal, rules: TradingRules): Decimal {
  const amount = config.orderCurrencyType === 'quote' ? floorQuotientToStep(config.quantityPerGrid, price, rules.lotStep) : floorToStep(config.quantityPerGrid, rules.lotStep);
  return compact(amount);
}

/** Whether an order of `amount` at `price` passes the market's minimums. */
export function meetsMinimums(amount: Decimal, price: Decimal, rules: TradingRules, market = false): boolean {
  const minTotal = market ? rules.minMarketTotal : rules.minTotal;
  return amount.gt(0) && amount.gte(rules.minLotSize) && amount.times(price).gte(minTotal);
}

/**
 * Which lines should have an order now: every buy and sell line that was not refused, within the
 * windows. A window holds the lines of its side nearest the waiting line, so it is a range of
 * positions: buys from `lowestBuy` up, sells up to `highestSell`.
 */
function windows(state: GridBotState): { lowestBuy: number; highestSell: number } {
  const { lines, config } = state;
  let lowestBuy = 0;
  if (config.maxActiveBuyLines !== null) {
    let buys = 0;
    lowestBuy = lines.length;
    for (let i = lines.length - 1; i >= 0 && buys < config.maxActiveBuyLines; i -= 1) {
      const line = lines[i]!;
      if (line.side !== 'buy' || line.refused) continue;
      buys += 1;
      lowestBuy = i;
    }
  }
  let highestSell = lines.length - 1;
  if (config.maxActiveSellLines !== null) {
    let sells = 0;
    highestSell = -1;
    for (let i = 0; i < lines.length && sells < config.maxActiveSellLines; i += 1) {
      const line = lines[i]!;
      if (line.side !== 'sell' || line.refused) continue;
      sells += 1;
      highestSell = i;
    }
  }
  return { lowestBuy, highestSell };
}

const isWanted = (line: GridLine, index: number, { lowestBuy, highestSell }: ReturnType<typeof windows>) =>
  !line.refused && ((line.side === 'buy' && index >= lowestBuy) || (line.side === 'sell' && index <= highestSell));

/** Cancels orders that left the windows, then places the missing ones nearest the price first. */
export function syncOrders(state: GridBotState, current: Decimal | undefined, out: GridOutput): void {
  const want = windows(state);
  const toPlace: GridLine[] = [];
  const { lines } = state;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    const wanted = isWanted(line, i, want);
    if (line.placed && !wanted) cancelLine(state, line, out);
    else if (!line.placed && wanted) toPlace.push(line);
  }
  if (toPlace.length === 0) return;
  const reference = current ?? state.startPrice ?? ZERO;
  if (toPlace.length > 1) toPlace.sort((a, b) => a.price.minus(reference).abs().cmp(b.price.minus(reference).abs()));
  for (const line of toPlace) placeLine(state, line, current, out);
}

export function placeLine(state: GridBotState, shared: GridLine, current: Decimal | undefined, out: GridOutput): void {
  const { config } = state;
  const line = writable(state, shared);
  state.seq += 1;
  line.order = state.seq;
  line.placed = true;
  line.partial = null;
  out.commands.push({
    type: 'place_order',
    key: lineKey(state.seq),
    pair: config.pair,
    side: line.side!,
    orderType: 'limit',
    amount: line.amount,
    price: line.price,
    role: 'grid_line',
  });
  out.log(gridMessages.limitCreated(config, line.side!, line.price, line.amount, current));
}

export function cancelLine(state: GridBotState, line: GridLine, out: GridOutput, quiet = false): void {
  if (!line.placed) return;
  out.commands.push({ type: 'cancel_order', key: lineKey(line.order) });
  writable(state, line).placed = false;
  if (!quiet && line.side) out.log(gridMessages.limitCancelled(state.config, line.side, line.price, line.amount));
}

/** Cancels every order of the bot (lines, balancing, stop loss) and logs one line for them. */
export function cancelEverything(state: GridBotState, out: GridOutput): void {
  let count = 0;
  for (const line of state.lines) {
    if (!line.placed) continue;
    cancelLine(state, line, out, true);
    count += 1;
  }
  if (state.balancing) out.commands.push({ type: 'cancel_order', key: balancingKey(state.balancing.order) });
  if (state.stopOrder) out.commands.push({ type: 'cancel_order', key: stopKey(state.stopOrder.order) });
  count += Number(state.balancing !== null) + Number(state.stopOrder !== null);
  state.balancing = null;
  state.stopOrder = null;
  if (count > 0) out.log(gridMessages.ordersCancelled(count));
}
