/**
 * One server process for the engine's storage tests: the paper exchange and the engine over one
 * database, with a fresh paper account holding 10,000 USDT, the price moved by hand, and what the
 * account holds on the exchange and in storage.
 */
import type { AnyAutomationKind } from '../../src/engine/automation-kind.ts';
import type { EngineStore, RecordWriter } from '../../src/engine/engine-store.ts';
import { Engine } from '../../src/engine/engine.ts';
import { PaperTrading } from '../../src/engine/paper-trading.ts';
import { PAPER_MARKETS } from '../../src/exchanges/paper/paper-markets.ts';
import { PaperVenue } from '../../src/exchanges/paper/paper-venue.ts';
import { ManualFeed } from '../../src/market-data/manual-feed.ts';
import { dec } from '../../src/shared/decimal.ts';
import type { Database } from '../../src/store/database.ts';
import { SqlPaperRepository } from '../../src/store/paper.repository.ts';

export interface PaperEngineOptions {
  kinds: readonly AnyAutomationKind[];
  /** The engine's clock, and the time of every tick. */
  at: Date;
  onStorageLost?: (error: Error) => void;
  writers?: Record<string, RecordWriter>;
  /** The engine stores the paper exchange's changes in its batches, as a server does. */
  storeThrough?: boolean;
}

export async function startPaperEngine(db: Database, userId: number, store: EngineStore, options: PaperEngineOptions) {
  const { at, onStorageLost } = options;
  const paper = new PaperTrading(new PaperVenue(PAPER_MARKETS), new SqlPaperRepository(db), new ManualFeed());
  const errors: string[] = [];
  const companion = options.storeThrough ? paper.storeThrough({ storeCompanion: () => engine.storeCompanion() }) : undefined;
  const engine: Engine = new Engine({
    store,
    ...(companion ? { companion } : {}),
    exchangeFor: (accountId) => paper.exchange(accountId),
    batchOrders: (work) => paper.batch(work),
    clock: () => at,
    logger: { warn: () => {}, error: (_object, message) => void errors.push(message) },
    kinds: options.kinds,
    storeRetryDelaysMs: [1, 1, 1, 1],
    ...(onStorageLost === undefined ? {} : { onStorageLost }),
  });
  for (const [kind, write] of Object.entries(options.writers ?? {})) engine.registerRecordWriter(kind, write);
  await engine.start();
  await paper.start(() => engine.settled());
  const [account] = await db.query<{ id: number }>(
    "INSERT INTO accounts (user_id, name, market_code) VALUES ($1, 'paper', 'paper_trading') RETURNING id",
    [userId],
  );
  const accountId = account!.id;
  await paper.openAccount(accountId, [{ currency: 'USDT', free: dec('10000'), locked: dec(0) }]);
  const tick = async (price: string) => {
    await paper.applyTicks([{ pair: 'USDT_BTC', price: dec(price), at }]);
    await engine.settled().catch(() => undefined);
  };
  const openOrders = async () => (await (await paper.exchange(accountId)).openOrders()).map((o) => o.clientOrderId).sort();
  const storedUsdt = async () => {
    const [row] = await db.query<{ free: string; locked: string }>(
      "SELECT free::text, locked::text FROM paper_balances WHERE account_id = $1 AND currency = 'USDT'",
      [accountId],
    );
    return [row?.free, row?.locked];
  };
  const stop = async () => {
    await paper.stop();
    await engine.stop().catch(() => undefined);
  };
  return { engine, accountId, tick, openOrders, storedUsdt, errors, stop };
}
