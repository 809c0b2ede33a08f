import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EngineInput, StepResult } from '../domain/automation.ts';
import { PAPER_MARKETS } from '../exchanges/paper/paper-markets.ts';
import { PaperVenue } from '../exchanges/paper/paper-venue.ts';
import { ManualFeed } from '../market-data/manual-feed.ts';
import { dec, ZERO } from '../shared/decimal.ts';
import { MemoryEngineStore } from '../store/memory/memory-engine-store.ts';
import { MemoryPaperStore } from '../store/memory/memory-paper-store.ts';
import type { AutomationKind } from './automation-kind.ts';
import type { EngineBatch } from './engine-store.ts';
import { Engine } from './engine.ts';
import { PaperTrading } from './paper-trading.ts';

/** Wakes below a price, notes every tick it hears and the last price its context knew when asked. */
interface Watcher {
  below: string;
  heard: string[];
  known: string | null;
  done: boolean;
}
type WatcherAction = { type: 'look' } | { type: 'finish' };

const encoded: Watcher[] = [];
const watcherKind: AutomationKind<Watcher, WatcherAction> = {
  name: 'watcher_test',
  orderIdPrefix: 'w',
  step(state, input: EngineInput | WatcherAction, context): StepResult<Watcher> {
    const next = { ...state, heard: [...state.heard] };
    if (input.type === 'tick') next.heard.push(input.price.toFixed());
    if (input.type === 'look') next.known = context.price('USDT_BTC')?.last.toFixed() ?? null;
    if (input.type === 'finish') next.done = true;
    return { state: next, commands: [], events: [], records: [] };
  },
  watches: (state) => [{ pair: 'USDT_BTC', below: dec(state.below) }],
  isRunning: (state) => !state.done,
  toJson: (state) => {
    encoded.push(state);
    return state;
  },
  fromJson: (json) => json as Watcher,
};

class CountingEngineStore extends MemoryEngineStore {
  saves: EngineBatch[] = [];
  override async save(batch: EngineBatch): Promise<void> {
    this.saves.push(batch);
    return super.save(batch);
  }
}

class CountingPaperStore extends MemoryPaperStore {
  saves = 0;
  override async save(changes: Parameters<MemoryPaperStore['save']>[0]): Promise<void> {
    this.saves += 1;
    return super.save(changes);
  }
}

const at = (minute: number) => new Date(Date.UTC(2024, 0, 1, 0, minute));

async function start() {
  const paperStore = new CountingPaperStore();
  const paper = new PaperTrading(new PaperVenue(PAPER_MARKETS), paperStore, new ManualFeed());
  const store = new CountingEngineStore();
  let now = at(0);
  const engine = new Engine({
    store,
    exchangeFor: (accountId) => paper.exchange(accountId),
    batchOrders: (work) => paper.batch(work),
    clock: () => now,
    logger: { warn: () => {}, error: () => {} },
    kinds: [watcherKind],
  });
  await engine.start();
  await paper.openAccount(1, [{ currency: 'USDT', free: dec(1000), locked: ZERO }]);
  const tick = async (price: string, minute: number) => {
    now = at(minute);
    await paper.applyTicks([{ pair: 'USDT_BTC', price: dec(price), at: at(minute) }]);
    await engine.settled();
  };
  return { engine, store, paper, paperStore, tick };
}

describe('Engine: ticks that wake nothing', () => {
  it('stores nothing for a tick that crosses no band, yet later steps see its price; a crossing tick is stepped and stored', async () => {
    const { engine, store, tick } = await start();
    await tick('60000', 1);
    const bot = await engine.create(watcherKind, { userId: 1, accountId: 1, state: { below: '50000', heard: [], known: null, done: false } }, { type: 'look' });
    assert.equal((await engine.get(watcherKind, bot.id))!.state.known, '60000');
    const saves = store.saves.length;

    await tick('61000', 2);
    await tick('55000', 3);
    assert.equal(store.saves.length, saves, 'no batch is stored for ticks no automation hears');
    await engine.act(watcherKind, bot.id, { type: 'look' });
    assert.equal((await engine.get(watcherKind, bot.id))!.state.known, '55000');

    await tick('49000', 4);
    assert.deepEqual((await engine.get(watcherKind, bot.id))!.state.heard, ['49000']);
    assert.equal(store.saves.length, saves + 2);
    assert.equal(store.saves.at(-1)!.automations[0]!.updatedAt.getTime(), at(4).getTime());
    await engine.stop();
  });

  it('answers a tick the venue refuses with a rejected promise, and takes the next one', async () => {
    const { engine, paper, tick } = await start();
    const refused = paper.applyTicks([{ pair: 'USDT_NOPE', price: dec(1), at: at(1) }]);
    await assert.rejects(refused, /Unknown pair/);
    await tick('60000', 2);
    assert.equal(paper.ticker('USDT_BTC')?.last.toFixed(), '60000');
    await engine.stop();
  });

  it('visits paper storage only for ticks that change something', async () => {
    const { engine, paperStore, tick } = await start();
    const saves = paperStore.saves;
    await tick('60000', 1);
    await tick('60100', 2);
    assert.equal(paperStore.saves, saves);
    await engine.stop();
  });

  it('hands an in-process store each state to encode when read, not encoded every batch', async () => {
    const { engine, store, tick } = await start();
    await tick('60000', 1);
    const bot = await engine.create(watcherKind, { userId: 1, accountId: 1, state: { below: '50000', heard: [], known: null, done: false } }, { type: 'look' });
    encoded.length = 0;
    await tick('49000', 2);
    await tick('48000', 3);
    assert.equal(encoded.length, 0);
    assert.ok(store.saves.at(-1)!.automations[0]!.encode);
    await engine.act(watcherKind, bot.id, { type: 'finish' });
    const stored = await store.get(watcherKind.name, bot.id);
    assert.deepEqual((stored!.state as { v: Watcher }).v, { below: '50000', heard: ['49000', '48000'], known: '60000', done: true });
    assert.deepEqual((await engine.get(watcherKind, bot.id))!.state.heard, ['49000', '48000']);
    await engine.stop();
  });
});
