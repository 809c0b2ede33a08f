/**
 * Laying a grid out at the current price: the line nearest the price waits, lines below it buy
 * and lines above it sell. Starting the bot sends the balancing order first when one side is
 * short; the limit orders follow once it has filled.
 */
import type { Side, StepContext } from '../automation.ts';
import type { TradingRules } from '../market/trading-rules.ts';
import { Decimal, ZERO } from '../../shared/decimal.ts';
import { gridMessages } from './grid-events.ts';
import { gridPrices, nearestIndex } from './grid-lines.ts';
import { buyAmount, syncOrders } from './grid-orders.ts';
import type { GridOutput } from './grid-output.ts';
import { type Amounts, requiredBalances, requiredFor } from './required-balances.ts';
import { balancingKey, type GridBotState, type GridLine, ownLines, shapeOf, sharedAmount } from './grid-bot-state.ts';

/** The account funds a start may use, and the taker fee the balancing order will pay. */
export interface Funding {
  funds: Amounts;
  feeRate: Decimal;
}

/** Fresh lines for the current settings; marked with sides when a price is given. */
export function layOut(state: GridBotState, rules: TradingRules, price: Decimal | undefined): GridLine[] {
  const prices = gridPrices(state.config, rules.priceStep);
  const waiting = price === undefined ? -1 : nearestIndex(prices, price);
  const lines: GridLine[] = [];
  prices.forEach((linePrice, index) => {
    const side = price === undefined || index === waiting ? null : index < waiting ? 'buy' : 'sell';
    lines.push({
      id: state.nextLineId + index,
      index,
      price: linePrice,
      side,
      placed: false,
      amount: sharedAmount(buyAmount(state.config, linePrice, rules), lines.at(-1)),
      order: 0,
      cost: null,
      refused: false,
      grown: false,
      partial: null,
    });
  });
  return lines;
}

/** Replaces the bot's lines; ids keep growing so old profit rows still name their own lines. */
export function replaceLines(state: GridBotState, lines: GridLine[]): void {
  ownLines(lines);
  state.lines = lines;
  state.nextLineId += lines.length;
  state.origin = shapeOf(state.config);
}

/** Starts the grid from the current price: balancing order first if needed, else the limit orders. */
export function startGrid(state: GridBotState, funding: Funding, ctx: StepContext, out: GridOutput): void {
  const { config } = state;
  const ticker = ctx.price(config.pair);
  if (!ticker) {
    out.log(gridMessages.noPrice(config.pair));
    state.error = gridMessages.noPrice(config.pair);
    state.status = 'disabled';
    return;
  }
  const rules = ctx.rules(config.pair);
  const price = ticker.last;
  state.priceStep = rules.priceStep;
  replaceLines(state, layOut(state, rules, price));
  const required = requiredFor(state.lines);
  const balancing = requiredBalances(state.lines, funding.funds, price, rules, funding.feeRate).balancing;
  state.startPrice = price;
  state.trailingUpEnded = false;
  state.growDownEnded = false;
  state.growUpEnded = false;
  state.error = null;
  state.reserve = spare(funding.funds, required, balancing, price);
  state.figures = {
    ...state.figures,
    investmentBase: required.base,
    investmentQuote: required.quote,
    capital: required.quote.plus(required.base.times(price)),
    profitAtStart: state.figures.profit,
    flowQuote: ZERO,
    flowBase: ZERO,
  };
  out.log(gridMessages.turnedOn());
  if (balancing) {
    state.seq += 1;
    state.balancing = { order: state.seq, side: balancing.side, amount: balancing.amount, partial: null };
    state.status = 'balancing';
    out.commands.push({
      type: 'place_order',
      key: balancingKey(state.seq),
      pair: config.pair,
      side: balancing.side,
      orderType: 'market',
      amount: balancing.amount,
      role: 'balancing',
    });
    out.log(gridMessages.balancingCreated(config, price, balancing.amount));
    return;
  }
  state.status = 'running';
  syncOrders(state, price, out);
}

/** What the account holds beyond the lines' needs once the balancing order (at about `price`) is done. */
function spare(funds: Amounts, required: Amounts, balancing: { side: Side; amount: Decimal } | null, price: Decimal): Amounts {
  const sign = balancing?.side === 'sell' ? -1 : 1;
  const base = funds.base.plus((balancing?.amount ?? ZERO).times(sign));
  const quote = funds.quote.minus((balancing?.amount ?? ZERO).times(price).times(sign));
  return { base: Decimal.max(ZERO, base.minus(required.base)), quote: Decimal.max(ZERO, quote.minus(required.quote)) };
}
