/**
 * A grid ends the same whether a move arrives as one tick or as many: random paths are run once
 * with one tick per move and once with every move split at random points on the way, and with
 * the tick announced before or after the fills it causes. Lines, sides, amounts, profit cycles,
 * the reported range, the trailing stop loss, the stop loss's market order and the base the bot
 * traded must agree. Quote balances may differ: a growth line the price has already passed fills
 * at once at the price, where a slower move fills it at the line.
 *
 * A split move reaches an armed stop loss only at its end, so the stop acts at the same price.
 * Left out: growth and trailing towards an armed stop loss, and max active lines with a stop loss.
 * A move that reaches the stop in one tick stops the bot before it would have grown or placed the
 * lines its window held back, while a slower move grows, or places and fills them, on its way.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { type Decimal, dec } from '../../shared/decimal.ts';
import type { GridBotConfig, StopLossAction } from './grid-bot-config.ts';
import { GridHarness, gridConfig } from './test-kit.ts';

const cents = (value: number) => dec(value).div(100);

const stopLoss = (enabled: boolean, price: number, action: StopLossAction) => ({ enabled, price: dec(price), action });

const settings = fc
  .record({
    quote: fc.boolean(),
    trailingUp: fc.boolean(),
    trailingDown: fc.boolean(),
    expansionUp: fc.boolean(),
    expansionDown: fc.boolean(),
    maxBuys: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
    maxSells: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
    lower: fc.constantFrom<StopLossAction | null>(null, 'stop_bot', 'stop_bot_and_sell'),
    upper: fc.constantFrom<StopLossAction | null>(null, 'stop_bot', 'stop_bot_and_buy'),
  })
  .map((s): GridBotConfig => {
    const trailingUp = s.trailingUp && s.quote && s.upper === null;
    const growsDown = s.lower === null;
    const windows = s.lower === null && s.upper === null;
    return gridConfig({
      orderCurrencyType: s.quote ? 'quote' : 'base',
      quantityPerGrid: s.quote ? dec(100) : dec(1),
      trailingUpEnabled: trailingUp,
      trailingDownEnabled: s.trailingDown && growsDown,
      expansionDown: { enabled: s.expansionDown && growsDown, stopPrice: dec(60) },
      expansionUp: { enabled: s.expansionUp && s.upper === null, stopPrice: dec(190) },
      maxActiveBuyLines: windows ? s.maxBuys : null,
      maxActiveSellLines: windows ? s.maxSells : null,
      lowerStopLoss: stopLoss(s.lower !== null, 85, s.lower ?? 'stop_bot'),
      upperStopLoss: stopLoss(s.upper !== null, 165, s.upper ?? 'stop_bot'),
    });
  });

/** Moves in cents, each with the points it passes on the way when split (strictly between its ends). */
const path = fc.array(
  fc.record({ to: fc.integer({ min: 5_000, max: 20_000 }), cuts: fc.array(fc.integer({ min: 1, max: 999 }), { maxLength: 6 }) }),
  { minLength: 1, maxLength: 12 },
);

function beyondStop({ lowerStopLoss, upperStopLoss }: GridBotConfig, price: Decimal): boolean {
  return (lowerStopLoss.enabled && price.lte(lowerStopLoss.price!)) || (upperStopLoss.enabled && price.gte(upperStopLoss.price!));
}

function run(config: GridBotConfig, moves: Array<{ to: number; cuts: number[] }>, split: boolean, order: 'tick-first' | 'fills-first') {
  const h = new GridHarness(config, 121, '0.001', order).start({ base: '100', quote: '100000' });
  let at = 12_100;
  for (const { to, cuts } of moves) {
    const points = split ? [...new Set(cuts)].sort((a, b) => a - b).map((cut) => cents(at + Math.round(((to - at) * cut) / 1000))) : [];
    for (const point of points) if (!beyondStop(h.state.config, point)) h.moveTo(point.toFixed());
    h.moveTo(cents(to).toFixed());
    at = to;
  }
  return h;
}

function outcome(h: GridHarness) {
  const { state } = h;
  return {
    status: state.status,
    lines: state.lines.map((line) => `${line.price.toFixed()} ${line.side ?? '-'} ${line.amount.toFixed()}${line.placed ? '*' : ''}`),
    cycles: state.figures.profitsCount,
    range: [state.config.lowerPrice.toFixed(), state.config.upperPrice.toFixed(), state.config.gridsQuantity],
    lowerStop: state.config.lowerStopLoss.price?.toFixed(),
    markets: h.commands.flatMap((c) => (c.type === 'place_order' && c.orderType === 'market' ? [`${c.side} ${c.amount.toFixed()}`] : [])),
    base: h.base.toFixed(),
    carry: state.carry.base.toFixed(),
  };
}

describe('grid bot: gaps', () => {
  it('ends the same whether each move arrives as one tick or many, ticks before or after their fills', () => {
    fc.assert(
      fc.property(settings, path, (config, moves) => {
        const gap = outcome(run(config, moves, false, 'tick-first'));
        assert.deepEqual(outcome(run(config, moves, true, 'tick-first')), gap);
        assert.deepEqual(outcome(run(config, moves, true, 'fills-first')), gap);
        assert.deepEqual(outcome(run(config, moves, false, 'fills-first')), gap);
      }),
      { numRuns: 300 },
    );
  });
});
