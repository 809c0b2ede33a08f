/**
 * Steps share unchanged lines with the state they were given (copy on write). Every step of random
 * runs, with trailing, growth, active windows, stop losses and stops, is checked twice: the state
 * it was given is unchanged afterwards, and stepping a copy that shares nothing (every line its
 * own, as each step made them before) gives the same state, commands, events and records.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Decimal, dec } from '../../shared/decimal.ts';
import type { GridBotConfig, StopLossAction } from './grid-bot-config.ts';
import { stepGridBot } from './grid-bot.ts';
import { draft, type GridLine, newGridBot, writable } from './grid-bot-state.ts';
import { layOut } from './grid-plan.ts';
import { GridHarness, gridConfig, RULES } from './test-kit.ts';

/** A copy sharing no object with `value` but its decimals and dates, which are never changed. */
function unshared<T>(value: T): T {
  if (value === null || typeof value !== 'object' || value instanceof Decimal || value instanceof Date) return value;
  if (Array.isArray(value)) return value.map(unshared) as T;
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, unshared(field)])) as T;
}

const checkedStep: typeof stepGridBot = (state, input, ctx) => {
  const before = unshared(state);
  const result = stepGridBot(state, input, ctx);
  assert.deepStrictEqual(state, before, `the ${input.type} step changed the state it was given`);
  assert.deepStrictEqual(result, stepGridBot(unshared(before), input, ctx), `the ${input.type} step differs on an unshared state`);
  return result;
};

const stopLoss = (enabled: boolean, price: number, action: StopLossAction) => ({ enabled, price: dec(price), action });

const settings = fc
  .record({
    quote: fc.boolean(),
    lines: fc.integer({ min: 3, max: 9 }),
    trailingUp: fc.boolean(),
    expansionUp: fc.boolean(),
    expansionDown: fc.boolean(),
    maxBuys: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
    maxSells: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
    lower: fc.constantFrom<StopLossAction | null>(null, 'stop_bot', 'stop_bot_and_sell'),
    upper: fc.constantFrom<StopLossAction | null>(null, 'stop_bot', 'stop_bot_and_buy'),
  })
  .map(
    (s): GridBotConfig =>
      gridConfig({
        gridsQuantity: s.lines,
        orderCurrencyType: s.quote ? 'quote' : 'base',
        quantityPerGrid: s.quote ? dec(100) : dec(1),
        trailingUpEnabled: s.trailingUp && s.quote,
        expansionDown: { enabled: s.expansionDown, stopPrice: dec(60) },
        expansionUp: { enabled: s.expansionUp && !(s.trailingUp && s.quote), stopPrice: dec(190) },
        maxActiveBuyLines: s.maxBuys,
        maxActiveSellLines: s.maxSells,
        lowerStopLoss: stopLoss(s.lower !== null, 85, s.lower ?? 'stop_bot'),
        upperStopLoss: stopLoss(s.upper !== null, 165, s.upper ?? 'stop_bot'),
      }),
  );

/** Prices in cents, with now and then the user turning the bot off and on again. */
const moves = fc.array(fc.oneof(fc.integer({ min: 5_000, max: 20_000 }), fc.constant<'restart'>('restart')), { minLength: 1, maxLength: 25 });

describe('grid bot state: copy on write', () => {
  it('never changes the state a step was given, and steps as on a state that shares nothing', () => {
    fc.assert(
      fc.property(settings, moves, (config, path) => {
        const h = new GridHarness(config, 121);
        h.step = checkedStep;
        h.start({ base: '100', quote: '100000' });
        for (const move of path) {
          if (move !== 'restart') h.moveTo(dec(move).div(100).toFixed());
          else if (h.state.status === 'running') h.act({ type: 'disable' });
          else if (h.state.status === 'disabled') h.act({ type: 'enable', funds: { base: dec(100), quote: dec(100_000) }, feeRate: h.fee });
        }
      }),
      { numRuns: 200 },
    );
  });

  it('copies a line once per step, in its place, and leaves the given state its own line', () => {
    const h = new GridHarness(gridConfig(), 121).start();
    const given = h.state;
    const next = draft(given);
    const line = next.lines[1]!;
    const copy = writable(next, line);
    assert.notEqual(copy, line);
    assert.equal(next.lines[1], copy);
    assert.equal(writable(next, copy), copy);
    copy.placed = !line.placed;
    assert.equal(given.lines[1], line);
    assert.equal(next.lines[0], given.lines[0]);
    assert.throws(() => writable(next, line), /not a line of this grid/);
  });
});

describe('grid bot state: lines share equal amounts', () => {
  /** How many decimal objects the lines' amounts are, and how many values. */
  const amounts = (lines: readonly GridLine[]) => {
    const held = lines.map((line) => line.amount);
    return { objects: new Set(held).size, values: new Set(held.map((amount) => amount.toFixed())).size };
  };

  it('lays out neighbouring lines of one amount on one decimal', () => {
    // 10 USDT a line at about 60,000 USDT: 0.00016 or 0.00017 BTC once down to the lot step.
    const config = gridConfig({ lowerPrice: dec(58_000), upperPrice: dec(62_000), gridsQuantity: 40, orderCurrencyType: 'quote', quantityPerGrid: dec(10) });
    const lines = layOut(newGridBot(config, RULES.priceStep), RULES, dec(60_000));
    assert.deepEqual(amounts(lines), { objects: 2, values: 2 });
  });

  it('gives a line turned to buy or sell the decimal of a neighbour of the same amount', () => {
    const h = new GridHarness(gridConfig({ gridsQuantity: 9 }), 121, '0').start();
    for (const price of [105, 121, 135, 121, 105, 121]) h.moveTo(price);
    assert.deepEqual(amounts(h.state.lines), { objects: 1, values: 1 });
  });
});
