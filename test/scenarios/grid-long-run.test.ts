/**
 * Trailing grids over three months of real 1h BTC candles (each walked open -> first extreme ->
 * second extreme -> close), run on the grid's state machine with the small exchange of its unit
 * tests: ticks announced before the fills they cause, resting orders filled at their price. Each
 * path runs twice: as the candles' four ticks an hour, and with every move split at each half
 * step of the grid, so that no tick passes more than one line. The two must end alike: the same
 * cycles, lines and (where no line fills at once in a gap) the same profit. The profit is also
 * set next to the reference's formula for each completed pair, q·(P' − P) − fee·q·P − fee·q·P':
 * with the buy's fee paid in BTC it must fall short by about fee·q·(P' − P) a pair, no more.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { intraCandlePath } from '../../src/domain/market/candle.ts';
import type { GridBotConfig } from '../../src/domain/grid-bot/grid-bot-config.ts';
import { GridHarness, gridConfig } from '../../src/domain/grid-bot/test-kit.ts';
import { candleDurationMs, MARKET_FIXTURES_DIR, readCandles } from '../../src/market-data/market-files.ts';
import { type Decimal, dec, ZERO } from '../../src/shared/decimal.ts';

const FILE = path.join(MARKET_FIXTURES_DIR, 'coinbase-BTCUSD-1h-2017-07_2019-10.csv.gz');
const FEE = dec('0.001');
const LOT = dec('0.00001');
const STEP = dec(50);
const QUOTE_PER_LINE = dec(100);

function pricePath(from: string, to: string): Decimal[] {
  const [start, end] = [Date.parse(from), Date.parse(to)];
  const candles = readCandles(FILE).filter((candle) => candle.time.getTime() >= start && candle.time.getTime() < end);
  return candles.flatMap((candle) => intraCandlePath(candle, candleDurationMs(FILE)).map((point) => point.price.toDecimalPlaces(2)));
}

/** The path with each move cut at every half step it passes. */
function finely(prices: Decimal[]): Decimal[] {
  const half = STEP.div(2);
  return prices.flatMap((price, index) => {
    const from = prices[index - 1];
    if (from === undefined) return [price];
    const [low, high] = from.lt(price) ? [from, price] : [price, from];
    const cuts: Decimal[] = [];
    for (let cut = low.div(half).floor().plus(1).times(half); cut.lt(high); cut = cut.plus(half)) cuts.push(cut);
    return [...(from.lt(price) ? cuts : cuts.reverse()), price];
  });
}

function run(config: GridBotConfig, prices: Decimal[]) {
  const h = new GridHarness(config, prices[0]!.toFixed()).start({ base: '1000', quote: '10000000' });
  for (const price of prices.slice(1)) h.moveTo(price.toFixed());
  const profit = h.records.reduce((sum, record) => sum.plus(record.profit), ZERO);
  const formula = h.records.reduce((sum, record) => {
    const low = record.linePrice;
    const q = QUOTE_PER_LINE.div(low).div(LOT).floor().times(LOT);
    return sum.plus(q.times(STEP).minus(FEE.times(q).times(low.times(2).plus(STEP))));
  }, ZERO);
  return {
    cycles: h.records.length,
    profit,
    formula,
    lines: h.state.lines.map((line) => `${line.price.toFixed()} ${line.side ?? '-'}`),
    range: [h.state.config.lowerPrice.toFixed(), h.state.config.upperPrice.toFixed(), h.state.config.gridsQuantity],
  };
}

const grid = (lower: number, overrides: Partial<GridBotConfig>) =>
  gridConfig({
    lowerPrice: dec(lower),
    upperPrice: dec(lower).plus(STEP.times(12)),
    gridsQuantity: 13,
    orderCurrencyType: 'quote',
    quantityPerGrid: QUOTE_PER_LINE,
    ...overrides,
  });

/** The grid over the candles' ticks and over the same path cut finely. */
function hourlyAndFine(config: GridBotConfig, from: string, to: string) {
  const prices = pricePath(from, to);
  return [run(config, prices), run(config, finely(prices))] as const;
}

describe('trailing grids over three months of 1h candles', () => {
  it('trailing up through the 2019 rise: as many cycles and the same profit whatever the ticks', () => {
    const [hourly, fine] = hourlyAndFine(grid(3800, { trailingUpEnabled: true }), '2019-04-01T00:00:00Z', '2019-07-01T00:00:00Z');
    assert.ok(hourly.cycles > 500, `${hourly.cycles} cycles`);
    assert.deepEqual([hourly.cycles, hourly.profit.toFixed(), hourly.lines, hourly.range], [fine.cycles, fine.profit.toFixed(), fine.lines, fine.range]);
    const shortfall = hourly.formula.minus(hourly.profit).div(hourly.formula);
    assert.ok(shortfall.gt(0) && shortfall.lt('0.003'), `profit ${hourly.profit.toFixed()} against the formula's ${hourly.formula.toFixed()}`);
  });

  it('trailing down through the 2018 fall: as many cycles and the same lines whatever the ticks', () => {
    const [hourly, fine] = hourlyAndFine(grid(6000, { trailingDownEnabled: true }), '2018-11-01T00:00:00Z', '2019-02-01T00:00:00Z');
    assert.ok(hourly.cycles > 100, `${hourly.cycles} cycles`);
    assert.deepEqual([hourly.cycles, hourly.lines, hourly.range], [fine.cycles, fine.lines, fine.range]);
  });
});
