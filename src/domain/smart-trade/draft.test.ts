/**
 * A tick step shares all but the trade's stop loss with the state it was given until it changes
 * them (its position or a take-profit step) or orders. Random trades (entries plain, conditional
 * and trailing; limit, market and trailing targets; stops plain, trailing, at breakeven and with a
 * timeout) follow random price paths, and every step is checked twice: the state it was given,
 * frozen, is never written to (a write throws), and stepping a copy that shares nothing gives the
 * same state, commands, events and records.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Decimal, dec } from '../../shared/decimal.ts';
import type { EngineInput, StepContext } from '../automation.ts';
import { Draft } from './draft.ts';
import { newSmartTrade, stepSmartTrade } from './smart-trade.ts';
import type { SmartTradeAction, SmartTradeState } from './smart-trade.types.ts';
import { aConfig, aStep, aStopLoss, MARKET, SMART_TRADE_MACHINE, type ConfigOptions } from './test-support/fixtures.ts';
import { Harness } from './test-support/harness.ts';

const isPart = (value: unknown): value is object =>
  value !== null && typeof value === 'object' && !(value instanceof Decimal) && !(value instanceof Date);

function deepFreeze<T>(value: T): T {
  if (!isPart(value) || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const field of Object.values(value)) deepFreeze(field);
  return value;
}

/** A copy sharing no object with `value` but its decimals and dates, which are never changed. */
function unshared<T>(value: T): T {
  if (!isPart(value)) return value;
  if (Array.isArray(value)) return value.map(unshared) as T;
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, unshared(field)])) as T;
}

const checkedStep = (state: SmartTradeState, input: EngineInput | SmartTradeAction, ctx: StepContext) => {
  const result = stepSmartTrade(deepFreeze(state), input, ctx);
  assert.deepStrictEqual(result, stepSmartTrade(unshared(state), input, ctx), `the ${input.type} step differs on an unshared state`);
  return result;
};

const trades = fc
  .record({
    side: fc.constantFrom<'buy' | 'sell'>('buy', 'sell'),
    entry: fc.constantFrom('market', 'conditional', 'trailing'),
    targets: fc.constantFrom('none', 'limit', 'market', 'trailing', 'two'),
    stop: fc.constantFrom('none', 'plain', 'trailing', 'breakeven', 'timeout'),
  })
  .map(({ side, entry, targets, stop }): ConfigOptions => {
    const up = side === 'buy' ? 1 : -1;
    const at = (percent: number) => String(100 + up * percent);
    return {
      side,
      ...(entry === 'market'
        ? {}
        : {
            entry: {
              orderType: 'conditional',
              conditional: {
                priceType: 'last',
                trigger: dec(at(-3)),
                orderType: 'market',
                ...(entry === 'trailing' ? { trailingPercent: dec(1) } : {}),
              },
            },
          }),
      steps: {
        none: [],
        limit: [aStep('100', { percent: '6' })],
        market: [aStep('100', { percent: '5' }, { orderType: 'market' })],
        trailing: [aStep('100', { percent: '4' }, { orderType: 'market', trailingPercent: dec(2) })],
        two: [aStep('50', { value: at(5) }), aStep('50', { percent: '9' }, { orderType: 'market', trailingPercent: dec(1) })],
      }[targets],
      ...(stop === 'none'
        ? {}
        : {
            stopLoss: aStopLoss(
              { percent: '4' },
              { trailing: stop === 'trailing', breakeven: stop === 'breakeven', ...(stop === 'timeout' ? { timeoutSeconds: 3 } : {}) },
            ),
          }),
    };
  });

/** Prices in cents around 100, a second apart. */
const paths = fc.array(fc.integer({ min: 8_500, max: 11_500 }), { minLength: 1, maxLength: 40 });

describe('SmartTrade draft: tick steps share what they do not change', () => {
  it('never writes to the state a step was given, and steps as on a state that shares nothing', () => {
    fc.assert(
      fc.property(trades, paths, (options, path) => {
        const trade = new Harness<SmartTradeState, SmartTradeAction>({ ...SMART_TRADE_MACHINE, step: checkedStep }, newSmartTrade(aConfig(options), MARKET));
        trade.deliverEveryTick = true;
        trade.act({ type: 'start' });
        for (const cents of path) trade.tick(dec(cents).div(100).toFixed());
      }),
      { numRuns: 300 },
    );
  });

  it('refuses to order on orders it still shares', () => {
    const state = newSmartTrade(aConfig(), MARKET);
    const ctx: StepContext = { now: new Date(0), rules: () => { throw new Error('unused'); }, price: () => undefined };
    const tick = new Draft(state, ctx, true);
    assert.throws(() => tick.place('position', 1, 'buy', 'market', dec(1)), /owning the trade's orders/);
    assert.equal(tick.state.orders, state.orders);
    tick.own();
    assert.notEqual(tick.state.orders, state.orders);
    tick.place('position', 1, 'buy', 'market', dec(1));
    assert.equal(state.orders.length, 0);
  });
});
