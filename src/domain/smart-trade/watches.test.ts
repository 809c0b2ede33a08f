import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { dec } from '../../shared/decimal.ts';
import { encodeState } from './state-codec.ts';
import type { ConfigOptions } from './test-support/fixtures.ts';
import { aStep, aStopLoss, started } from './test-support/fixtures.ts';
import { smartTradeWatches } from './watches.ts';

const CONFIGS: Record<string, ConfigOptions> = {
  'trailing stop': { steps: [aStep('100', { percent: '30' })], stopLoss: aStopLoss({ percent: '5' }, { trailing: true, trailingPercent: dec('3') }) },
  'market steps and a stop': {
    steps: [aStep('40', { percent: '4' }, { orderType: 'market' }), aStep('60', { percent: '9' }, { orderType: 'market', priceType: 'bid' })],
    stopLoss: aStopLoss({ value: '93' }, { priceType: 'ask' }),
  },
  'trailing take profit with breakeven': {
    steps: [aStep('50', { percent: '3' }), aStep('50', { percent: '6' }, { trailingPercent: dec('1.5') })],
    stopLoss: aStopLoss({ percent: '4' }, { breakeven: true }),
  },
  'trailing entry': {
    entry: { orderType: 'conditional', conditional: { priceType: 'last', trigger: dec('97'), orderType: 'market', trailingPercent: dec('1') } },
    steps: [aStep('100', { percent: '5' }, { orderType: 'market' })],
    stopLoss: aStopLoss({ percent: '5' }),
  },
  'trailing short': { side: 'sell', steps: [aStep('100', { percent: '6' }, { trailingPercent: dec('1') })], stopLoss: aStopLoss({ percent: '4' }, { trailing: true }) },
};

const path = fc.array(fc.integer({ min: -300, max: 300 }), { minLength: 5, maxLength: 60 });

function run(options: ConfigOptions, moves: number[], everyTick: boolean) {
  const trade = started(options);
  trade.deliverEveryTick = everyTick;
  let price = dec(100);
  for (const move of moves) {
    price = price.plus(dec(move).div(100)).toDecimalPlaces(2);
    if (price.lt(50)) price = dec(50);
    trade.tick(price.toFixed(), { bid: price.minus('0.01').toFixed(), ask: price.plus('0.01').toFixed() });
  }
  return trade;
}

describe('SmartTrade watches', () => {
  for (const [name, options] of Object.entries(CONFIGS)) {
    it(`miss nothing: ${name} ends the same whether it hears every tick or only its crossings`, () => {
      fc.assert(
        fc.property(path, (moves) => {
          const watched = run(options, moves, false);
          const everything = run(options, moves, true);
          assert.deepEqual(encodeState(watched.state.orders), encodeState(everything.state.orders));
          assert.equal(watched.state.status, everything.state.status);
          assert.ok(watched.ticksDelivered <= everything.ticksDelivered);
        }),
        { numRuns: 60 },
      );
    });
  }

  for (const [name, options] of Object.entries(CONFIGS)) {
    it(`mark only bounds that order nothing as trailing: ${name}`, () => {
      fc.assert(
        fc.property(path, (moves) => {
          const trade = started(options);
          let price = dec(100);
          for (const move of moves) {
            price = price.plus(dec(move).div(100)).toDecimalPlaces(2);
            if (price.lt(50)) price = dec(50);
            const [low, high] = [price.minus('0.01'), price.plus('0.01')];
            const crossed = smartTradeWatches(trade.state).flatMap((watch) => [
              ...(watch.below?.gte(low) ? [watch.trailing?.below === true] : []),
              ...(watch.above?.lte(high) ? [watch.trailing?.above === true] : []),
            ]);
            const [resting, placed] = [trade.restingKeys().join(), trade.placed.length];
            trade.tick(price.toFixed(), { bid: low.toFixed(), ask: high.toFixed() });
            // Woken by trailing bounds alone, with no order of its own filled by the move: it orders nothing.
            if (crossed.length > 0 && crossed.every(Boolean) && trade.restingKeys().join() === resting) {
              const orders = trade.placed.slice(placed).filter((command) => command.type === 'place_order' || command.type === 'cancel_order');
              assert.deepEqual(orders, []);
            }
          }
        }),
        { numRuns: 60 },
      );
    });
  }

  it('a trailing stop in a flat market wakes nobody', () => {
    const trade = started(CONFIGS['trailing stop']!);
    const [watch] = smartTradeWatches(trade.state);
    assert.deepEqual([watch?.below?.toFixed(), watch?.above?.toFixed()], ['97', '100.01']);
    // Above, only the highest price moves: the stop trails it.
    assert.deepEqual(watch?.trailing, { below: false, above: true });
    for (let i = 0; i < 10; i += 1) trade.tick('100');
    assert.equal(trade.ticksDelivered, 0);
  });

  it('an ended trade watches nothing', () => {
    assert.deepEqual(smartTradeWatches(started({ instant: true }).state), []);
  });
});
