/**
 * Replays, for paper accounts an engine just took, the ticks they missed because their last holder
 * stopped further back in the tick log than this engine had got: a private paper venue and engine
 * that run those accounts alone (all those left at the same tick together: a takeover brings
 * hundreds), from their stored state, write through the same fenced stores and are then thrown
 * away; the engine's own venue and automations load the result.
 * Their prices are the replayed ticks', so orders are placed and filled as they were then.
 */
import type { Logger } from 'pino';
import type { Config } from './config/config.ts';
import { paperTrading } from './app-paper.ts';
import type { EngineLeasing } from './app-leases.ts';
import type { MarketTick } from './domain/market/market-tick.ts';
import { Engine } from './engine/engine.ts';
import { AUTOMATION_KINDS } from './engine/kinds/index.ts';
import type { ExchangeConnector } from './exchanges/exchange-connector.ts';
import { CandleBook } from './market-data/candle-book.ts';
import { ManualFeed } from './market-data/manual-feed.ts';
import type { Database } from './store/database.ts';
import { SqlEngineRepository } from './store/engine.repository.ts';
import { paperFence } from './store/leases.repository.ts';

export interface CatchUpDeps {
  config: Config;
  db: Database;
  connector: ExchangeConnector;
  logger: Logger;
  leasing: EngineLeasing;
  clock: () => Date;
  /** Registers the record writers (profits, deal records, notices) an engine needs. */
  writeRecords(engine: Engine): void;
}

export function catchUpAccounts(deps: CatchUpDeps) {
  return async (accountIds: readonly number[], missed: readonly MarketTick[]): Promise<void> => {
    const { leasing } = deps;
    const these = new Set(accountIds);
    const only = (id: number) => these.has(id) && leasing.leases.owns(id);
    const paper = paperTrading(deps.config.paper, deps.db, deps.connector, deps.logger, new CandleBook(), new ManualFeed(), {
      ownership: { owns: only },
      fence: paperFence(leasing.identity.id, () => new Map([...leasing.leases.epochs()].filter(([id]) => these.has(id)))),
    });
    const engine = new Engine({
      store: new SqlEngineRepository(deps.db, leasing.guard),
      leases: { owns: only, accountIds: () => accountIds.filter(only), mayAct: (id) => only(id) && leasing.leases.mayAct(id), take: async (id) => only(id), lost: (id) => leasing.leases.lost(id) },
      exchangeFor: (id) => paper.exchange(id),
      batchOrders: (work) => paper.batch(work),
      clock: deps.clock,
      logger: deps.logger,
      kinds: AUTOMATION_KINDS,
    });
    deps.writeRecords(engine);
    await paper.start();
    await engine.start();
    try {
      for (const tick of missed) {
        await paper.applyTicks([tick]);
        await engine.settled();
      }
    } finally {
      await engine.stop();
      await paper.stop();
    }
  };
}
