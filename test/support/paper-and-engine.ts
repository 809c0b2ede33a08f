/**
 * The paper exchange and an engine wired as one server process runs them: the engine places
 * orders on the paper exchange and stores its changes in the engine's batches. Both are started.
 */
import type { LoggedRecords, RecordWriter } from '../../src/engine/engine-store.ts';
import { Engine, type EnginePorts } from '../../src/engine/engine.ts';
import { engineHost, PaperTrading } from '../../src/engine/paper-trading.ts';
import type { PaperStateStore } from '../../src/exchanges/paper-state.ts';
import { PAPER_MARKETS } from '../../src/exchanges/paper/paper-markets.ts';
import { PaperVenue } from '../../src/exchanges/paper/paper-venue.ts';
import { ManualFeed } from '../../src/market-data/manual-feed.ts';

type Options = Omit<EnginePorts, 'companion' | 'exchangeFor' | 'batchOrders'> & { writers?: Record<string, RecordWriter | LoggedRecords> };

export async function startPaperAndEngine(paperStore: PaperStateStore, { writers = {}, ...ports }: Options): Promise<{ paper: PaperTrading; engine: Engine }> {
  const paper = new PaperTrading(new PaperVenue(PAPER_MARKETS), paperStore, new ManualFeed());
  const engine: Engine = new Engine({
    ...ports,
    companion: paper.storeThrough(engineHost(() => engine)),
    exchangeFor: (accountId) => paper.exchange(accountId),
    batchOrders: (work) => paper.batch(work),
  });
  for (const [kind, write] of Object.entries(writers)) engine.registerRecordWriter(kind, write);
  await engine.start();
  await paper.start(() => engine.settled());
  return { paper, engine };
}
