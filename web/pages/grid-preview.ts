/**
 * The lines a grid would start with and what they need, computed in the browser with the
 * server's own grid code (src/domain), so the preview cannot drift from what the bot will do.
 */
import { dec, type Decimal, floorToStep } from '../../src/shared/decimal.ts';
import { gridPrices, linesAreDistinct, nearestIndex } from '../../src/domain/grid-bot/grid-lines.ts';

export interface PreviewInput {
  lower: string;
  upper: string;
  grids: string;
  perGrid: string;
  gridType: 'arithmetic' | 'geometric';
  price: string;
  priceStep: string;
  lotStep: string;
}

export interface PreviewLine {
  price: string;
  side: 'buy' | 'sell' | null;
}

export interface Preview {
  lines: PreviewLine[];
  base: string;
  quote: string;
}

const DECIMAL = /^\d+(\.\d+)?$/;

/** The preview, or why there is none yet. */
export function gridPreview(input: PreviewInput): Preview | string {
  if (![input.lower, input.upper, input.perGrid, input.price].every((value) => DECIMAL.test(value))) {
    return 'Enter the range and the amount per line to see the lines.';
  }
  const grids = Number(input.grids);
  if (!Number.isInteger(grids) || grids < 2 || grids > 201) return 'The number of lines must be 2 to 201.';
  const lower = dec(input.lower);
  const upper = dec(input.upper);
  if (lower.isZero() || !upper.gt(lower)) return 'The upper price must be above the lower price.';
  const prices = gridPrices({ gridType: input.gridType, lowerPrice: lower, upperPrice: upper, gridsQuantity: grids }, dec(input.priceStep));
  if (!linesAreDistinct(prices)) return 'The range is too narrow for that many lines at this market’s price step.';
  const amount = floorToStep(dec(input.perGrid), dec(input.lotStep));
  const waiting = nearestIndex(prices, dec(input.price));
  let base: Decimal = dec(0);
  let quote: Decimal = dec(0);
  const lines = prices.map((price, index): PreviewLine => {
    const side = index === waiting ? null : index < waiting ? 'buy' : 'sell';
    if (side === 'buy') quote = quote.plus(amount.times(price));
    if (side === 'sell') base = base.plus(amount);
    return { price: price.toFixed(), side };
  });
  return { lines, base: base.toFixed(), quote: quote.toFixed() };
}
