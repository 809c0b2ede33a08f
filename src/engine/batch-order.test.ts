import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EngineInput, StepResult } from '../domain/automation.ts';
import { dec } from '../shared/decimal.ts';
import { MemoryEngineStore } from '../store/memory/memory-engine-store.ts';
import { MemoryPaperStore } from '../store/memory/memory-paper-store.ts';
import type { AutomationKind } from './automation-kind.ts';
import type { EngineBatch } from './engine-store.ts';
import { trailKind } from '../../test/support/trail-kind.ts';
import { startPaperAndEngine } from '../../test/support/paper-and-engine.ts';

/** Places one limit buy below the first price it hears. */
const buyerKind: AutomationKind<{ placed: boolean }, { type: 'start' }> = {
  name: 'buyer_test',
  orderIdPrefix: 'u',
  step(state, input: EngineInput | { type: 'start' }): StepResult<{ placed: boolean }> {
    const result: StepResult<{ placed: boolean }> = { state, commands: [], events: [], records: [] };
    if (input.type !== 'tick' || state.placed) return result;
    result.state = { placed: true };
    result.commands.push({ type: 'place_order', key: 'b', pair: 'USDT_BTC', side: 'buy', orderType: 'limit', amount: dec('0.001'), price: input.price.minus(1000), role: 'entry' });
    return result;
  },
  watches: (state) => (state.placed ? [] : [{ pair: 'USDT_BTC', above: dec(0) }]),
  isRunning: () => true,
  toJson: (state) => state,
  fromJson: (json) => json as { placed: boolean },
};

const wakeLog: string[] = [];

/** Sells at market once the price falls to its stop: a crossing that orders. */
const stopperKind: AutomationKind<{ stop: string; sold: boolean }, { type: 'start' }> = {
  name: 'stopper_test',
  orderIdPrefix: 'p',
  step(state, input: EngineInput | { type: 'start' }): StepResult<{ stop: string; sold: boolean }> {
    const result: StepResult<{ stop: string; sold: boolean }> = { state, commands: [], events: [], records: [] };
    if (input.type === 'fill') wakeLog.push('stopped');
    if (input.type !== 'tick' || state.sold || input.price.gt(state.stop)) return result;
    wakeLog.push('stop');
    result.state = { ...state, sold: true };
    result.commands.push({ type: 'place_order', key: 's', pair: 'USDT_BTC', side: 'sell', orderType: 'market', amount: dec('0.001'), role: 'exit' });
    return result;
  },
  watches: (state) => (state.sold ? [] : [{ pair: 'USDT_BTC', below: dec(state.stop) }]),
  isRunning: () => true,
  toJson: (state) => state,
  fromJson: (json) => json as { stop: string; sold: boolean },
};

/** Follows the lowest price: a crossing that only moves its band. */
const followerKind: AutomationKind<{ low: string }, { type: 'start' }> = {
  name: 'follower_test',
  orderIdPrefix: 'f',
  step(state, input: EngineInput | { type: 'start' }): StepResult<{ low: string }> {
    const result: StepResult<{ low: string }> = { state, commands: [], events: [], records: [] };
    if (input.type !== 'tick' || input.price.gte(state.low)) return result;
    wakeLog.push('follow');
    result.state = { low: input.price.toFixed() };
    return result;
  },
  watches: (state) => [{ pair: 'USDT_BTC', below: dec(state.low).minus(1), trailing: { below: true } }],
  isRunning: () => true,
  toJson: (state) => state,
  fromJson: (json) => json as { low: string },
};

/** Notes the status each journal row is first stored with. */
class NotingStore extends MemoryEngineStore {
  readonly firstStatus = new Map<string, string>();

  override async save(batch: EngineBatch): Promise<void> {
    for (const order of batch.orders) if (!this.firstStatus.has(order.clientOrderId)) this.firstStatus.set(order.clientOrderId, order.status);
    await super.save(batch);
  }
}

const at = new Date(Date.UTC(2024, 0, 1));

async function startProcess() {
  const store = new NotingStore();
  const { paper, engine } = await startPaperAndEngine(new MemoryPaperStore(), {
    store,
    clock: () => at,
    logger: { warn: () => {}, error: (object) => assert.fail(JSON.stringify(object)) },
    kinds: [buyerKind, trailKind, stopperKind, followerKind],
  });
  const accountId = 1;
  await paper.openAccount(accountId, [
    { currency: 'USDT', free: dec('100000'), locked: dec(0) },
    { currency: 'BTC', free: dec('1'), locked: dec(0) },
  ]);
  /** Applies the prices as one batch of ticks, as a feed hands over those that came together. */
  const ticks = async (...prices: string[]) => {
    await paper.applyTicks(prices.map((price) => ({ pair: 'USDT_BTC', price: dec(price), at })));
    await engine.settled();
  };
  const stop = async () => {
    await paper.stop();
    await engine.stop();
  };
  return { store, engine, accountId, ticks, stop };
}

describe('A batch of the engine', () => {
  it('has ids at hand for one order of every automation the engine runs: a batch larger than any before still places its orders at once', async () => {
    const p = await startProcess();
    // More than a block of ids (1,024) less the low water mark (256): the engine had reserved only those.
    const bots = 900;
    for (let n = 0; n < bots; n += 1) await p.engine.create(buyerKind, { userId: 1, accountId: p.accountId, state: { placed: false } }, { type: 'start' });
    await p.ticks('60000');
    // Placed in memory while the batch was put together, so first stored open, never pending.
    assert.equal(p.store.firstStatus.size, bots);
    assert.deepEqual(new Set(p.store.firstStatus.values()), new Set(['open']));
    await p.stop();
  });

  it('steps an automation a tick woke before the next tick of the batch, which finds it by the band that step left', async () => {
    const p = await startProcess();
    const trail = await p.engine.create(trailKind, { userId: 1, accountId: p.accountId, state: { high: '60000', sold: false } }, { type: 'start' });
    // 66,000 raises its stop to 62,700; 61,000 is inside the band it watched before, below the one after.
    await p.ticks('66000', '61000');
    assert.deepEqual((await p.engine.get(trailKind, trail.id))!.state, { high: '66000', sold: true });
    assert.deepEqual((await p.engine.orders(trail.id)).map((order) => [order.key, order.status]), [['s', 'filled']]);
    await p.stop();
  });

  it('steps and places the automations a tick may make order before those it only makes trail', async () => {
    const p = await startProcess();
    // The follower's bound is the nearer: the tick reaches it first.
    await p.engine.create(followerKind, { userId: 1, accountId: p.accountId, state: { low: '60000' } }, { type: 'start' });
    await p.engine.create(stopperKind, { userId: 1, accountId: p.accountId, state: { stop: '57000', sold: false } }, { type: 'start' });
    wakeLog.length = 0;
    await p.ticks('56000');
    assert.deepEqual(wakeLog, ['stop', 'stopped', 'follow']);
    await p.stop();
  });
});
