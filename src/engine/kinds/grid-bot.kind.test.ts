import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GridHarness, gridConfig } from '../../domain/grid-bot/test-kit.ts';
import { dec } from '../../shared/decimal.ts';
import { applyChanges, packChanges, type StateChange } from '../state-changes.ts';
import { gridBotKind } from './grid-bot.kind.ts';

const roundTrip = (state: Parameters<typeof gridBotKind.toJson>[0]) =>
  gridBotKind.fromJson(JSON.parse(JSON.stringify(gridBotKind.toJson(state))));

/** A grid that trails up, grows down and stops at 90: every part of its state moves. */
const moving = {
  orderCurrencyType: 'quote',
  quantityPerGrid: dec(100),
  trailingUpEnabled: true,
  lowerStopLoss: { enabled: true, price: dec(90), action: 'stop_bot_and_sell' },
  expansionDown: { enabled: true, stopPrice: dec(50) },
} as const;

describe('grid bot kind', () => {
  it('finds on its states what differs between their JSON, over fills, trailing, growth and a stop', () => {
    const h = new GridHarness(gridConfig(moving), 131).start();
    const states = [h.state];
    for (const price of [119, 141, 150, 128, 133, 104, 96, 89]) states.push(h.moveTo(price).state);
    const stored = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;
    for (const [i, base] of states.entries()) {
      for (const next of states.slice(i)) {
        const changes: StateChange[] = [];
        gridBotKind.changesBetween!(base, next, [], changes);
        assert.deepEqual(applyChanges(stored(gridBotKind.toJson(base)), stored(packChanges(changes)) as never), stored(gridBotKind.toJson(next)));
      }
    }
    assert.notEqual(states.at(-1)!.status, 'running');
    assert.notEqual(states.at(-1)!.config, states[0]!.config);
  });

  it('stores and restores a running grid exactly', () => {
    const config = gridConfig({ ...moving, maxActiveBuyLines: 3, note: 'n' });
    const h = new GridHarness(config, 131).start().moveTo(119).moveTo(141).moveTo(150);
    h.state.lines[0] = { ...h.state.lines[0]!, partial: { amount: dec('0.1'), quote: dec(11), feeBase: dec('0.0001'), feeQuote: dec(0) } };
    const restored = roundTrip(h.state);
    assert.deepEqual(restored, h.state);
    assert.equal(JSON.stringify(gridBotKind.toJson(restored)), JSON.stringify(gridBotKind.toJson(h.state)));
  });

  it('restores neighbouring lines of one amount on one decimal, as they ran', () => {
    const h = new GridHarness(gridConfig({ gridsQuantity: 9 }), 121).start();
    const restored = roundTrip(h.state);
    assert.deepEqual(restored.lines, h.state.lines);
    assert.equal(new Set(restored.lines.map((line) => line.amount)).size, 1);
  });

  it('stores a bot waiting for its balancing order and a stopped one', () => {
    const balancing = new GridHarness(gridConfig(), 121);
    const result = gridBotKind.step(
      balancing.state,
      { type: 'start', funds: { base: dec(0), quote: dec(1000) }, feeRate: dec('0.001') },
      balancing.context(),
    );
    assert.equal(result.state.status, 'balancing');
    assert.deepEqual(roundTrip(result.state), result.state);
    const stopped = new GridHarness(gridConfig(), 121).start().act({ type: 'disable' }).state;
    assert.deepEqual(roundTrip(stopped), stopped);
  });

  it('stores a stop loss waiting for its cancellations', () => {
    const h = new GridHarness(gridConfig({ lowerStopLoss: { enabled: true, price: dec(95), action: 'stop_bot_and_sell' } }), 121).start();
    h.resting.clear();
    h.moveTo(94);
    assert.equal(h.state.stop?.waiting.length, 4);
    assert.deepEqual(roundTrip(h.state), h.state);
  });

  it('reads a state stored before the grid kept its origin, carry, reserve, pending stop and error', () => {
    const h = new GridHarness(gridConfig(), 121).start().moveTo(109);
    const json = gridBotKind.toJson(h.state) as Record<string, unknown>;
    for (const key of ['origin', 'carry', 'reserve', 'stop', 'error']) delete json[key];
    json.lines = (json.lines as unknown[][]).map((line) => line.slice(0, 10));
    const restored = gridBotKind.fromJson(JSON.parse(JSON.stringify(json)));
    assert.deepEqual(restored.origin, { gridType: 'arithmetic', lowerPrice: dec(100), upperPrice: dec(140), gridsQuantity: 5 });
    assert.deepEqual([restored.carry.base.toFixed(), restored.reserve.quote.toFixed(), restored.stop, restored.error], ['0', '0', null, null]);
    assert.deepEqual(restored.lines, h.state.lines);
  });

  it('runs while enabled, watches its stop losses and primes the dollar pair of a non-dollar quote', () => {
    const config = gridConfig({ upperStopLoss: { enabled: true, price: dec(150), action: 'stop_bot' } });
    const h = new GridHarness(config, 121).start();
    assert.equal(gridBotKind.name, 'grid_bot');
    assert.equal(gridBotKind.orderIdPrefix, 'g');
    assert.equal(gridBotKind.isRunning(h.state), true);
    assert.deepEqual(gridBotKind.watches(h.state), [{ pair: 'USDT_BTC', above: dec(150) }]);
    assert.deepEqual(gridBotKind.pairs!(h.state), ['USDT_BTC']);
    assert.deepEqual(gridBotKind.pairs!({ ...h.state, config: { ...config, pair: 'BTC_ETH', base: 'ETH', quote: 'BTC' } }), ['BTC_ETH', 'USDT_BTC']);
    h.act({ type: 'disable' });
    assert.equal(gridBotKind.isRunning(h.state), false);
    assert.deepEqual(gridBotKind.watches(h.state), []);
  });
});
