/**
 * The profit and investment figures of the grid bot entity, from what the fills added up to and
 * the current price. Nothing is estimated from line prices:
 * - current_profit: the sum of the profit rows (completed buy -> sell pairs, fees included);
 * - investment_*: what the lines needed at the last start (zero while the bot is off);
 * - current_profit_loss: the grid's holdings now against the investment at the start price, i.e.
 *   flowQuote + flowBase·P + investmentBase·(P − startPrice), where the flows are what the line
 *   and stop-loss fills moved since the start (the balancing order only sets the investment up);
 * - unrealized_profit_loss: the part of that not yet booked as profit.
 */
import { type Decimal, ZERO } from '../../shared/decimal.ts';
import { type GridBotState, type GridLine, isEnabled } from './grid-bot-state.ts';

export interface GridFiguresView {
  currentProfit: Decimal;
  currentProfitUsd: Decimal;
  totalProfitsCount: number;
  boughtVolume: Decimal;
  soldVolume: Decimal;
  profitPercentage: Decimal;
  investmentBase: Decimal;
  investmentQuote: Decimal;
  unrealizedProfitLoss: Decimal;
  currentProfitLoss: Decimal | null;
  currentProfitLossPercent: Decimal | null;
}

const percentOf = (part: Decimal, whole: Decimal) => (whole.isZero() ? ZERO : part.div(whole).times(100));

export function gridFigures(state: GridBotState, currentPrice: Decimal | undefined): GridFiguresView {
  const figures = state.figures;
  const running = isEnabled(state) && state.startPrice !== null;
  let profitLoss: Decimal | null = null;
  if (running && currentPrice !== undefined) {
    profitLoss = figures.flowQuote
      .plus(figures.flowBase.times(currentPrice))
      .plus(figures.investmentBase.times(currentPrice.minus(state.startPrice!)));
  }
  return {
    currentProfit: figures.profit,
    currentProfitUsd: figures.profitUsd,
    totalProfitsCount: figures.profitsCount,
    boughtVolume: figures.boughtVolume,
    soldVolume: figures.soldVolume,
    profitPercentage: percentOf(figures.profit, figures.capital),
    investmentBase: running ? figures.investmentBase : ZERO,
    investmentQuote: running ? figures.investmentQuote : ZERO,
    unrealizedProfitLoss: profitLoss === null ? ZERO : profitLoss.minus(profitSinceStart(state)),
    currentProfitLoss: profitLoss,
    currentProfitLossPercent: profitLoss === null ? null : percentOf(profitLoss, figures.capital),
  };
}

/** Profit booked since the last start (the profit history spans every start). */
function profitSinceStart(state: GridBotState): Decimal {
  return state.figures.profit.minus(state.figures.profitAtStart);
}

/**
 * The lines in the order the reference lists them: the waiting line(s) first, then sells from the
 * highest price down, then buys from the lowest price up.
 */
export function presentedLines(state: GridBotState): GridLine[] {
  const waiting = state.lines.filter((line) => line.side === null);
  const sells = state.lines.filter((line) => line.side === 'sell').reverse();
  const buys = state.lines.filter((line) => line.side === 'buy');
  return [...waiting, ...sells, ...buys];
}
