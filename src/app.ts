/**
 * Composition root: opens storage, applies migrations and wires services and the HTTP server.
 * Nothing here listens; main.ts decides what runs.
 */
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { SecretBox } from './auth/secret-box.ts';
import type { Config } from './config/config.ts';
import type { ApiKeysService } from './services/api-keys.service.ts';
import type { UsersService } from './services/users.service.ts';
import { paperTrading } from './app-paper.ts';
import { engineHost, type PaperTrading } from './engine/paper-trading.ts';
import { Engine } from './engine/engine.ts';
import { QUARANTINED } from './engine/engine-store.ts';
import { tradingLog } from './engine/trading-log.ts';
import { AUTOMATION_KINDS } from './engine/kinds/index.ts';
import { gridBotKind } from './engine/kinds/grid-bot.kind.ts';
import { smartTradeKind } from './engine/kinds/smart-trade.kind.ts';
import { GridBotsService } from './services/grid-bots.service.ts';
import { SmartTradesService } from './services/smart-trades.service.ts';
import { TradesService } from './services/trades.service.ts';
import { gridProfitsLogged, SqlGridBotsRepository } from './store/grid-bots.repository.ts';
import type { MarketTick } from './domain/market/market-tick.ts';
import type { OrderUpdate } from './exchanges/exchange.ts';
import { SqlEngineRepository } from './store/engine.repository.ts';
import type { ExchangeConnector } from './exchanges/exchange-connector.ts';
import { connectorOnFirstUse } from './exchanges/connector-on-first-use.ts';
import { userServices } from './app-users.ts';
import { CandleBook } from './market-data/candle-book.ts';
import type { PriceFeed } from './market-data/price-feed.ts';
import { AccountOverviews } from './services/account-overview.ts';
import type { AccountsService } from './services/accounts.service.ts';
import { dcaBotKind } from './engine/kinds/dca-bot.kind.ts';
import { BotStatsService } from './services/bot-stats.service.ts';
import { DcaBotsService } from './services/dca-bots.service.ts';
import { DealsService, exchangePrices } from './services/deals.service.ts';
import { SqlDcaRepository, writeDcaRecords } from './store/dca.repository.ts';
import { MarketsService, PAPER_MARKET_CODE } from './services/markets.service.ts';
import type { Account, TradedVolumes } from './services/repositories.ts';
import { dec } from './shared/decimal.ts';
import { SqlTradedVolumes } from './store/traded-volumes.repository.ts';
import type { Database } from './store/database.ts';
import { openStorage } from './app-storage.ts';
import { BacktestJobs, type PrepareBacktest } from './backtest/backtest-jobs.ts';
import { SqlBacktestsRepository } from './store/backtests.repository.ts';
import { SignalActions } from './signals/signal-actions.ts';
import { SignalsService } from './signals/signals.service.ts';
import { SqlSignalsRepository } from './store/signals.repository.ts';
import { createLogger } from './logging.ts';
import { engineLeasing, type EngineLeasing } from './app-leases.ts';
import { paperFence } from './store/leases.repository.ts';
import { EnginesService } from './services/engines.service.ts';
import { localEngineRegistry, NO_LEASES } from './app-engines.ts';
import { bothWriters, OutboxHook } from './notifications/outbox-hook.ts';
import { DEFAULT_RETRY_DELAYS_MS, NotificationWorker } from './notifications/notification-worker.ts';
import { NotificationTargetsService } from './notifications/targets.service.ts';
import { SqlNotificationsRepository } from './store/notifications.repository.ts';
import { answerHeaders, engineCommands, type EngineCommands } from './app-commands.ts';
import { sharedTicks, type SharedTicks } from './app-ticks.ts';
import { catchUpAccounts } from './app-catch-up.ts';
import type { EngineLeases } from './engine/engine.ts';

export { createLogger };

export const VERSION = '0.1.0';

export interface Core {
  config: Config;
  logger: Logger;
  db: Database;
  users: UsersService;
  apiKeys: ApiKeysService;
  markets: MarketsService;
  accounts: AccountsService;
  overviews: AccountOverviews;
  tradedVolumes: TradedVolumes;
  dcaBots: DcaBotsService;
  deals: DealsService;
  botStats: BotStatsService;
  gridBots: GridBotsService;
  smartTrades: SmartTradesService;
  trades: TradesService;
  signals: SignalsService;
  notifications: NotificationTargetsService;
  /** Sends the outbox; `runPass` lets tests wait for one pass. */
  notificationWorker: NotificationWorker;
  paper: PaperTrading;
  /** One-minute candles of the paper market's prices since this process started. */
  paperCandles: CandleBook;
  engine: Engine;
  /** With PostgreSQL: this engine's identity and the accounts it holds (several may share it). */
  leasing: EngineLeasing | undefined;
  engines: EnginesService;
  /** With PostgreSQL and the manual feed: ticks posted to any server reach every engine. */
  ticks: SharedTicks | undefined;
  /** With PostgreSQL: actions passed to the engine that runs their account, and run for others. */
  commands: EngineCommands | undefined;
  backtests: BacktestJobs;
  /** Applies paper ticks and resolves once the engine has handled everything they caused. */
  applyPaperTicks(ticks: MarketTick[]): Promise<OrderUpdate[]>;
  /** Loads the paper exchange's state and starts its price feed (the server does, the CLI not). */
  startTrading(): Promise<void>;
  close(): Promise<void>;
}

export interface CoreOptions {
  logger?: Logger;
  /** The real-exchange connector; ccxt over the network by default. */
  connector?: ExchangeConnector;
  /** The paper market's price feed; chosen by PAPER_FEED by default. */
  feed?: PriceFeed;
  /** The clock that dates account valuations; the system clock by default. */
  now?: () => Date;
  /** An already open database (tests); otherwise opened from the config. */
  db?: Database;
  /** Pauses between attempts to deliver a notification; minutes apart by default. */
  notificationRetryDelaysMs?: readonly number[];
  /** How often the notification worker looks at the outbox; every second by default. */
  notificationPollMs?: number;
  /** How a backtest job starts its run; the runner by default. */
  prepareBacktest?: PrepareBacktest;
}

export async function openCore(config: Config, options: CoreOptions = {}): Promise<Core> {
  const logger = options.logger ?? createLogger(config.logLevel, 1, config.logFormat);
  const storage = await openStorage(config, logger, options.db);
  const db = storage.db;
  try {
    const secretBox = new SecretBox(storage.masterKey);
    const connector =
      options.connector ?? connectorOnFirstUse(async () => new (await import('./exchanges/ccxt/ccxt-connector.ts')).CcxtConnector());
    const paperCandles = new CandleBook();
    // Several servers may share PostgreSQL: each account is run by the one engine holding its
    // lease. The embedded store belongs to one process (its data directory is locked).
    const leasing =
      db.kind === 'postgres'
        ? engineLeasing(db, config.engineLeaseSeconds, config.role, logger, (accountId) => {
            ticks?.forget(accountId);
            void engine.dropAccount(accountId);
            void paper.drop(accountId);
          })
        : undefined;
    // An API process runs no automation: its engine only reads, and refuses actions.
    const runsEngine = config.role !== 'api';
    // With leases, an account's paper state is its holder's: others read it afresh and never write it.
    const paper = paperTrading(
      config.paper,
      db,
      connector,
      logger,
      paperCandles,
      options.feed,
      leasing
        ? {
            ownership: { owns: (accountId) => runsEngine && leasing.leases.owns(accountId) && (ticks?.loaded(accountId) ?? true) },
            // An account taken but not yet reached in the tick log is not written either.
            fence: paperFence(leasing.identity.id, () => new Map([...leasing.leases.epochs()].filter(([accountId]) => ticks?.loaded(accountId) ?? true))),
          }
        : undefined,
    );
    const markets = new MarketsService(paper, connector);
    const { accountsRepository, accounts, users, apiKeys } = userServices(config, db, secretBox, paper, markets, connector);
    const notificationStore = new SqlNotificationsRepository(db);
    const outboxHook = new OutboxHook(notificationStore, async (accountId) => {
      const account = await accountsRepository.findById(accountId);
      return account && { userId: account.userId, name: account.name, marketCode: account.marketCode, exchange: (await markets.find(account.marketCode))?.name ?? account.marketCode };
    });
    const writeRecords = (target: Engine) => {
      target.registerRecordWriter(QUARANTINED, outboxHook.quarantineWriter());
      target.registerRecordWriter(smartTradeKind.name, outboxHook.smartTradeWriter());
      target.registerRecordWriter(gridBotKind.name, { ...gridProfitsLogged, write: outboxHook.gridWriter() });
      target.registerRecordWriter(dcaBotKind.name, bothWriters(writeDcaRecords, outboxHook.dcaWriter()));
    };
    // Servers sharing PostgreSQL with the manual feed share its ticks through the tick log.
    const ticks: SharedTicks | undefined =
      leasing && paper.feedKind === 'manual'
        ? sharedTicks({
            db,
            engineId: leasing.identity.id,
            leaseMs: config.engineLeaseSeconds * 1000,
            runsEngine,
            logger,
            apply: async (tick, applied) => {
              // The venue applies a tick at once, and tells the engine of its price and fills as it
              // does: the engine's next batch holds what the tick caused, and stores it as applied.
              const { updates, stored } = paper.applyTicksAtOnce([tick]);
              applied();
              // The follower waits for storage before it records its position (`stored`), and a
              // batch that failed to store fails that wait.
              stored?.catch(() => undefined);
              await engine.stepped();
              return { fills: updates.filter((update) => update.fill).length };
            },
            stored: () => engine.stored(),
            load: (accountIds) => runTaken(accountIds),
            holds: (accountId) => leasing.leases.owns(accountId),
            catchUp: catchUpAccounts({ config, db, connector, logger, leasing, clock: options.now ?? (() => new Date()), writeRecords }),
          })
        : undefined;
    // A taken account's paper state is read as its last holder stored it, then its automations.
    const runTaken = async (accountIds: readonly number[]) => {
      for (const accountId of accountIds) await paper.drop(accountId);
      // Their automations and live orders are read alongside their paper state.
      const ahead = engine.readAhead(accountIds);
      await paper.readAccounts(accountIds);
      await engine.loadAccounts(accountIds, ahead);
    };
    /** Runs accounts this engine just took, once the tick log allows (app-ticks.ts). */
    const loadTaken = async (accountIds: readonly number[]) => {
      const ready = ticks ? await ticks.ready(accountIds) : accountIds;
      if (ready.length > 0) await runTaken(ready);
    };
    const engineLeases: EngineLeases | undefined = leasing && runsEngine
      ? {
          owns: (accountId) => leasing.leases.owns(accountId),
          accountIds: () => leasing.leases.accountIds(),
          mayAct: (accountId) => leasing.leases.mayAct(accountId),
          lost: (accountId) => leasing.leases.lost(accountId),
          take: async (accountId) => {
            const had = leasing.leases.owns(accountId);
            if (!(await leasing.leases.take(accountId))) return false;
            // What this process read of the account while another held it is not its state now.
            if (!had) await paper.drop(accountId);
            return !ticks || (await ticks.ready([accountId])).length === 1;
          },
        }
      : undefined;
    // The paper exchange's changes are stored in the engine's batches, so a paper order the engine
    // placed has one record, its journal row (docs/architecture.md); with leases, they are fenced
    // inside the batch's transaction. An API process runs no batches: it writes nothing of the
    // paper accounts engines hold, and opens new ones in transactions of its own.
    const companion = runsEngine ? paper.storeThrough(engineHost(() => engine)) : undefined;
    const engine: Engine = new Engine({
      store: new SqlEngineRepository(db, leasing?.guard),
      ...(companion ? { companion } : {}),
      ...(leasing ? { leases: engineLeases ?? NO_LEASES } : {}),
      ...(ticks?.follower ? { position: ticks.position } : {}),
      exchangeFor: (accountId) => accounts.exchangeForId(accountId),
      batchOrders: (work) => paper.batch(work),
      clock: options.now ?? (() => new Date()),
      logger,
      kinds: AUTOMATION_KINDS,
      // The engine stopped rather than run ahead of its storage: a supervisor restarts the
      // server, which reloads everything from the database.
      onStorageLost: (error) => {
        logger.fatal({ err: error }, 'storage lost; exiting');
        process.exit(75);
      },
    });
    engine.onCommitted(tradingLog(logger));
    const commands = leasing
      ? engineCommands({
          db,
          leaseMs: config.engineLeaseSeconds * 1000,
          logger,
          ...(runsEngine
            ? {
                engine: {
                  engineId: leasing.identity.id,
                  leases: leasing.leases,
                  takeAccount: async (accountId: number) => {
                    if (!(await leasing.leases.take(accountId))) return false;
                    await loadTaken([accountId]);
                    return true;
                  },
                },
              }
            : {}),
        })
      : undefined;
    engine.onConnectionChange((accountId, change) => {
      outboxHook.noteConnection(accountId, change).catch((error: unknown) => logger.error({ err: error, accountId }, 'a connection notification could not be stored'));
    });
    writeRecords(engine);
    const gridBotsRepository = new SqlGridBotsRepository(db);
    // Balancing orders are grossed up by the taker fee: the paper account's own, else the paper
    // default; on real exchanges the lowest-tier 0.1 % the reference assumes too.
    const takerFee = async (account: Account) =>
      account.marketCode === PAPER_MARKET_CODE
        ? ((await gridBotsRepository.paperTakerFee(account.id)) ?? dec(config.paper.fee))
        : dec('0.001');
    const gridBots = new GridBotsService(engine, accounts, markets, gridBotsRepository, takerFee);
    const dcaStore = new SqlDcaRepository(db);
    const dcaPrices = exchangePrices(accounts, markets);
    const dcaBots = new DcaBotsService(engine, dcaStore, accounts, markets);
    const deals = new DealsService(dcaStore, engine, dcaPrices, accounts);
    const botStats = new BotStatsService(dcaStore, engine, dcaPrices, accounts, options.now ?? (() => new Date()));
    const backtests = new BacktestJobs({
      store: new SqlBacktestsRepository(db),
      now: options.now ?? (() => new Date()),
      logger,
      ...(options.prepareBacktest ? { prepare: options.prepareBacktest } : {}),
    });
    const signals = new SignalsService(
      new SqlSignalsRepository(db),
      engine,
      new SignalActions(dcaBots, deals, accounts, markets),
      options.now ?? (() => new Date()),
      logger,
      db.kind === 'pglite',
    );
    const sender = { telegramApiUrl: config.notifications.telegramApiUrl, now: options.now ?? (() => new Date()) };
    const notifications = new NotificationTargetsService(notificationStore, secretBox, outboxHook, sender);
    const notificationWorker = new NotificationWorker(notificationStore, secretBox, {
      ...sender,
      retryDelaysMs: options.notificationRetryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
      pollMs: options.notificationPollMs ?? 1000,
      exclusive: db.kind === 'pglite',
      logger,
    });
    let trading = false;
    return {
      config,
      logger,
      db,
      users,
      apiKeys,
      markets,
      accounts,
      overviews: new AccountOverviews(accounts, markets, options.now ?? (() => new Date())),
      tradedVolumes: new SqlTradedVolumes(db),
      dcaBots,
      deals,
      botStats,
      gridBots,
      smartTrades: new SmartTradesService(engine, accounts, markets),
      trades: new TradesService(engine, accounts, markets),
      signals,
      notifications,
      notificationWorker,
      paper,
      paperCandles,
      engine,
      leasing,
      engines: new EnginesService(leasing?.registry ?? localEngineRegistry(config.role, () => engine.accountIds())),
      commands,
      ticks,
      backtests,
      applyPaperTicks: async (ticks) => {
        // Each tick is a market event of its own: the automations answer it, their orders placed,
        // before the next one moves the market, so a path gives the same result in one request as
        // in several. Its batches are stored meanwhile (`Engine.stepped`), all before the answer.
        const applied: Array<Promise<OrderUpdate[]>> = [];
        for (const tick of ticks) {
          const applying = paper.applyTicks([tick]);
          applying.catch(() => undefined);
          applied.push(applying);
          await engine.stepped();
        }
        const updates = (await Promise.all(applied)).flat();
        await engine.settled();
        return updates;
      },
      startTrading: async () => {
        // Notices are written from the engine's first batch; the engine resumes before the
        // market moves, so no market event after the restart passes it by.
        if (runsEngine) await outboxHook.start();
        await ticks?.follower?.init();
        await leasing?.start(loadTaken);
        if (runsEngine) await engine.start();
        // An API process runs no paper feed: prices move the paper venue of the engines.
        if (runsEngine) await paper.start(() => engine.settled());
        await ticks?.follower?.start();
        await backtests.resume();
        if (runsEngine) {
          await signals.start();
          notificationWorker.start();
        }
        trading = true;
        logger.info({ feed: paper.feedKind }, 'paper exchange and engine running');
      },
      close: async () => {
        try {
          await backtests.close();
          await commands?.close();
          if (trading) {
            await notificationWorker.stop();
            await outboxHook.stop();
            await signals.stop();
            if (runsEngine) await paper.stop();
            await engine.stop();
            await leasing?.stop(ticks?.handBack);
          }
        } finally {
          await storage.close();
        }
      },
    };
  } catch (error) {
    await storage.close().catch(() => undefined);
    throw error;
  }
}

/** Runs the commands of this engine's accounts through the API `app` serves (or would serve). */
export async function serveCommands(core: Core, app: FastifyInstance): Promise<void> {
  await core.commands?.serveWith(async (request) => {
    const reply = await app.inject({
      method: request.method as 'POST',
      url: request.url,
      payload: Buffer.from(request.body, 'base64'),
      headers: request.headers,
    });
    return { status: reply.statusCode, headers: answerHeaders(reply.headers), body: reply.body };
  });
}

export interface AppOptions {
  /** The websocket heartbeat (and key re-check) interval; ActionCable's 3 s by default. */
  streamHeartbeatMs?: number;
}

export async function buildApp(core: Core, now: () => Date = () => new Date(), options: AppOptions = {}): Promise<FastifyInstance> {
  // Loaded here, not at the top: the command line opens the core without the HTTP server.
  const { buildHttpServer } = await import('./http/server.ts');
  const { streamsFor } = await import('./streams/streams-for.ts');
  return buildHttpServer({
    streams: streamsFor(core, options.streamHeartbeatMs),
    logger: core.logger,
    users: core.users,
    apiKeys: core.apiKeys,
    engines: core.engines,
    markets: core.markets,
    accounts: core.accounts,
    holdAccount: (accountId) => core.engine.holdAccount(accountId),
    overviews: core.overviews,
    tradedVolumes: core.tradedVolumes,
    dcaBots: core.dcaBots,
    deals: core.deals,
    botStats: core.botStats,
    gridBots: core.gridBots,
    smartTrades: core.smartTrades,
    trades: core.trades,
    signals: core.signals,
    signalConfig: core.config.signals,
    notifications: core.notifications,
    paper: core.paper,
    backtests: core.backtests,
    paperCandles: core.paperCandles,
    applyPaperTicks: async (ticks) => (core.ticks ? core.ticks.post(ticks) : (await core.applyPaperTicks(ticks)).filter((update) => update.fill).length),
    ...(core.commands ? { commands: core.commands } : {}),
    rateLimitPerMinute: core.config.rateLimitPerMinute,
    version: VERSION,
    now,
  });
}
