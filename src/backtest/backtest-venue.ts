/**
 * Everything a backtest trades on, wired as the server wires it: the real engine with every
 * automation kind, the real paper venue and paper runtime, the real services (so settings are
 * checked exactly as over HTTP), over the in-memory stores and a clock that the market moves.
 * Nothing here touches the network or a database.
 */
import { randomBytes } from 'node:crypto';
import { SecretBox } from '../auth/secret-box.ts';
import type { MarketTick } from '../domain/market/market-tick.ts';
import { Engine, type EngineLogger } from '../engine/engine.ts';
import { dcaBotKind } from '../engine/kinds/dca-bot.kind.ts';
import { gridBotKind } from '../engine/kinds/grid-bot.kind.ts';
import { smartTradeKind } from '../engine/kinds/smart-trade.kind.ts';
import { AUTOMATION_KINDS } from '../engine/kinds/index.ts';
import { engineHost, PaperTrading } from '../engine/paper-trading.ts';
import type { ExchangeConnector } from '../exchanges/exchange-connector.ts';
import type { Balance, Exchange } from '../exchanges/exchange.ts';
import { fixedSlippage } from '../exchanges/paper/fill-models.ts';
import { PAPER_MARKETS } from '../exchanges/paper/paper-markets.ts';
import { PaperVenue } from '../exchanges/paper/paper-venue.ts';
import { ManualFeed } from '../market-data/manual-feed.ts';
import { AccountsService } from '../services/accounts.service.ts';
import { DcaBotsService } from '../services/dca-bots.service.ts';
import { GridBotsService } from '../services/grid-bots.service.ts';
import { MarketsService } from '../services/markets.service.ts';
import type { Account } from '../services/repositories.ts';
import { SmartTradesService } from '../services/smart-trades.service.ts';
import type { Decimal } from '../shared/decimal.ts';
import { MemoryAccountsRepository } from '../store/memory/memory-accounts.repository.ts';
import { MemoryDcaStore } from '../store/memory/memory-dca-store.ts';
import { MemoryEngineStore } from '../store/memory/memory-engine-store.ts';
import { MemoryGridProfits } from '../store/memory/memory-grid-profits.ts';
import { MemoryPaperStore } from '../store/memory/memory-paper-store.ts';

export interface VenueOptions {
  balances: readonly Balance[];
  /** Maker and taker fee as a fraction. */
  fee: Decimal;
  slippageBasisPoints: number;
  logger: EngineLogger;
}

/** A backtest has no real exchanges: only the paper market exists. */
export const NO_EXCHANGES: ExchangeConnector = {
  describe: async () => [],
  markets: async () => [],
  tickers: async () => [],
  connect: async (marketCode) => {
    throw new Error(`A backtest cannot connect to ${marketCode}`);
  },
};

export const BACKTEST_USER_ID = 1;

export interface BacktestVenue {
  account: Account;
  engine: Engine;
  gridBots: GridBotsService;
  dcaBots: DcaBotsService;
  smartTrades: SmartTradesService;
  paperStore: MemoryPaperStore;
  gridProfits: MemoryGridProfits;
  deals: MemoryDcaStore;
  venue: PaperVenue;
  /** The market time: the time of the last tick applied. */
  now(): Date;
  /**
   * Applies one tick. Undefined when it was taken at once (nothing to store, no automation woken,
   * as for most ticks); otherwise resolves once the engine has handled and stored what it caused.
   */
  applyTick(tick: MarketTick): Promise<void> | undefined;
  /** The backtest account's exchange. */
  exchange(): Promise<Exchange>;
  close(): Promise<void>;
}

export async function openBacktestVenue(options: VenueOptions, start: Date): Promise<BacktestVenue> {
  let now = start;
  const clock = () => now;
  const gridProfits = new MemoryGridProfits();
  const deals = new MemoryDcaStore((botId) => engineStore.events(botId, { limit: Number.MAX_SAFE_INTEGER, offset: 0 }));
  // A backtest notifies nobody: SmartTrades' records (stop losses, ends) are not kept.
  const engineStore = new MemoryEngineStore({ [gridBotKind.name]: gridProfits.write, [dcaBotKind.name]: deals.write, [smartTradeKind.name]: () => undefined });
  const paperStore = new MemoryPaperStore();
  const fees = { maker: options.fee, taker: options.fee };
  const venue = new PaperVenue(PAPER_MARKETS, { fees, slippage: fixedSlippage(options.slippageBasisPoints) });
  const paper = new PaperTrading(venue, paperStore, new ManualFeed());
  const markets = new MarketsService(paper, NO_EXCHANGES);
  const secretBox = new SecretBox(randomBytes(32));
  const accounts = new AccountsService(new MemoryAccountsRepository(clock), markets, paper, NO_EXCHANGES, secretBox, options.balances);
  // Orders are placed in memory while the engine's batch is put together, as in the server.
  const companion = paper.storeThrough(engineHost(() => engine));
  const engine: Engine = new Engine({
    store: engineStore,
    companion,
    exchangeFor: (accountId) => accounts.exchangeForId(accountId),
    batchOrders: (work) => paper.batch(work),
    clock,
    logger: options.logger,
    kinds: AUTOMATION_KINDS,
  });
  const account = await accounts.createPaperAccount(BACKTEST_USER_ID);
  await engine.start();
  return {
    account,
    engine,
    gridBots: new GridBotsService(engine, accounts, markets, gridProfits, async () => options.fee),
    dcaBots: new DcaBotsService(engine, deals, accounts, markets),
    smartTrades: new SmartTradesService(engine, accounts, markets),
    paperStore,
    gridProfits,
    deals,
    venue,
    now: clock,
    applyTick: (tick) => {
      now = tick.at;
      const { stored } = paper.applyTicksAtOnce([tick]);
      if (!stored && engine.idle) return undefined;
      return stored ? stored.then(() => engine.settled()) : engine.settled();
    },
    exchange: () => accounts.exchangeForId(account.id),
    close: () => engine.stop(),
  };
}
