/**
 * The replay of engine-replay.ts with no storage at all: the engine and the paper exchange over
 * the in-memory stores that backtests use. What is left is the CPU of the engine, the automations'
 * steps and the paper venue, which is the figure `fills/s on one core` is about.
 */
import type { MarketTick } from '../../src/domain/market/market-tick.ts';
import type { AnyAutomationKind } from '../../src/engine/automation-kind.ts';
import { Engine } from '../../src/engine/engine.ts';
import { engineHost, PaperTrading } from '../../src/engine/paper-trading.ts';
import type { Balance } from '../../src/exchanges/exchange.ts';
import { PAPER_MARKETS } from '../../src/exchanges/paper/paper-markets.ts';
import { PaperVenue } from '../../src/exchanges/paper/paper-venue.ts';
import { ManualFeed } from '../../src/market-data/manual-feed.ts';
import type { Decimal } from '../../src/shared/decimal.ts';
import { MemoryEngineStore, type RecordSink } from '../../src/store/memory/memory-engine-store.ts';
import { MemoryPaperStore } from '../../src/store/memory/memory-paper-store.ts';
import { heapGrowth, timedReplay, type TimedReplay } from './engine-replay.ts';

export interface MemoryWorld {
  engine: Engine;
  userId: number;
  prices: Map<string, Decimal>;
  openAccount(balances: Balance[]): Promise<number>;
}

export interface MemoryScenario {
  kinds: readonly AnyAutomationKind[];
  sinks?: Record<string, RecordSink>;
  setup(world: MemoryWorld): Promise<void>;
}

export async function replayInMemory(
  batches: readonly MarketTick[][],
  scenario?: MemoryScenario,
): Promise<TimedReplay & { setupHeapBytes: number; world: MemoryWorld }> {
  const paper = new PaperTrading(new PaperVenue(PAPER_MARKETS), new MemoryPaperStore(), new ManualFeed());
  const companion = paper.storeThrough(engineHost(() => engine));
  const engine: Engine = new Engine({
    store: new MemoryEngineStore(scenario?.sinks ?? {}),
    companion,
    exchangeFor: (accountId) => paper.exchange(accountId),
    batchOrders: (work) => paper.batch(work),
    clock: () => new Date(),
    logger: { warn: () => {}, error: (object, message) => console.error(message, object) },
    kinds: scenario?.kinds ?? [],
  });
  await engine.start();
  await paper.start(() => engine.settled());
  let lastAccountId = 0;
  const world: MemoryWorld = {
    engine,
    userId: 1,
    prices: new Map(batches[0]!.map((tick) => [tick.pair, tick.price])),
    openAccount: async (balances) => {
      const id = ++lastAccountId;
      await paper.openAccount(id, balances);
      return id;
    },
  };
  await paper.applyTicks(batches[0]!);
  await engine.settled();
  const setupHeapBytes = await heapGrowth(async () => {
    if (scenario) await scenario.setup(world);
  });
  const timed = await timedReplay(paper, engine, batches);
  await paper.stop();
  await engine.stop();
  return { ...timed, setupHeapBytes, world };
}
