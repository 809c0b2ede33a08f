/** Builds the Fastify server: parsers, authentication, routes, errors. It never listens itself. */
import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { ApiKeysService } from '../services/api-keys.service.ts';
import type { UsersService } from '../services/users.service.ts';
import { registerDashboard } from './dashboard/dashboard.routes.ts';
import { registerAuthentication } from './plugins/authentication.ts';
import { registerBodyParsers } from './plugins/body-parsers.ts';
import { clientErrorHandler, frameworkErrorHandler, registerErrorHandling } from './plugins/error-handler.ts';
import { registerGracefulClose } from './plugins/graceful-close.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { registerRateLimit } from './plugins/rate-limit.ts';
import { parseQuery } from './request-input.ts';
import { registerRoutes } from './route.ts';
import type { PaperTrading } from '../engine/paper-trading.ts';
import type { AccountOverviews } from '../services/account-overview.ts';
import type { TradedVolumes } from '../services/repositories.ts';
import type { AccountsService } from '../services/accounts.service.ts';
import type { MarketsService } from '../services/markets.service.ts';
import type { BotStatsService } from '../services/bot-stats.service.ts';
import type { DcaBotsService } from '../services/dca-bots.service.ts';
import type { DealsService } from '../services/deals.service.ts';
import { botRoutes } from './routes/ver1/bots.routes.ts';
import { dealRoutes } from './routes/ver1/deals.routes.ts';
import type { GridBotsService } from '../services/grid-bots.service.ts';
import { adminRoutes } from './routes/ext/admin.routes.ts';
import { engineRoutes } from './routes/ext/engines.routes.ts';
import type { EnginesService } from '../services/engines.service.ts';
import { paperFeeRoutes } from './routes/ext/paper-fees.routes.ts';
import { backtestRoutes } from './routes/ext/backtests.routes.ts';
import { notificationRoutes } from './routes/ext/notifications.routes.ts';
import type { NotificationTargetsService } from '../notifications/targets.service.ts';
import type { BacktestJobs } from '../backtest/backtest-jobs.ts';
import { type PaperTicks, paperRoutes } from './routes/ext/paper.routes.ts';
import { paperCandleRoutes } from './routes/ext/paper-candles.routes.ts';
import type { CandleBook } from '../market-data/candle-book.ts';
import { accountRoutes } from './routes/ver1/accounts.routes.ts';
import { gridBotRoutes } from './routes/ver1/grid-bots.routes.ts';
import type { SmartTradesService } from '../services/smart-trades.service.ts';
import type { TradesService } from '../services/trades.service.ts';
import { smartTradeRoutes } from './routes/v2/smart-trades.routes.ts';
import { tradeRoutes } from './routes/ver1/trades.routes.ts';
import { marketDataRoutes } from './routes/ver1/market-data.routes.ts';
import { openApiRoutes } from './routes/openapi.routes.ts';
import { systemRoutes } from './routes/ver1/system.routes.ts';
import { userRoutes } from './routes/ver1/users.routes.ts';
import { attachStreamServer, type StreamServerOptions } from '../streams/stream-server.ts';
import type { SignalConfig } from '../config/config.ts';
import type { SignalsService } from '../signals/signals.service.ts';
import type { CommandForwarder } from '../services/engine-commands.ts';
import { signalPathRewrite, tradeSignalRoutes } from './routes/trade-signal.routes.ts';

export interface HttpDeps {
  engines: EnginesService;
  logger: Logger;
  apiKeys: ApiKeysService;
  users: UsersService;
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
  paper: PaperTrading;
  backtests: BacktestJobs;
  paperCandles: CandleBook;
  /** Applies paper ticks and waits until the automations have handled them. */
  applyPaperTicks: PaperTicks;
  rateLimitPerMinute: number;
  version: string;
  now(): Date;
  /** The websocket streams on the same port (docs/streams.md). */
  streams?: Omit<StreamServerOptions, 'now'>;
  signals: SignalsService;
  signalConfig: SignalConfig;
  notifications: NotificationTargetsService;
  /** With PostgreSQL: passes actions on accounts another engine runs to that engine. */
  commands?: CommandForwarder;
  /** Takes the account for this server's engine before trading on it outside any automation. */
  holdAccount(accountId: number): Promise<void>;
}

const BODY_LIMIT = 1024 * 1024;
/** Per client address, while the rate limit is on. */
const FAILED_AUTHENTICATIONS_PER_MINUTE = 20;

export async function buildHttpServer(deps: HttpDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger,
    bodyLimit: BODY_LIMIT,
    routerOptions: { querystringParser: parseQuery, ignoreTrailingSlash: true },
    requestIdHeader: 'x-request-id',
    clientErrorHandler,
    frameworkErrors: frameworkErrorHandler,
    genReqId: () => randomUUID(),
    rewriteUrl: (request) => signalPathRewrite(request.url ?? '/'),
    // Fastify's own request lines would log the query string, which can carry credentials.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'request_id' }),
  }) as unknown as FastifyInstance;
  // Parameters are validated after query and body are merged (see route.ts), not per part here.
  app.setValidatorCompiler(() => () => true);
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      { method: request.method, path: request.url.split('?')[0], status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      'request completed',
    );
  });

  registerErrorHandling(app, BODY_LIMIT, deps.commands);
  registerGracefulClose(app);
  registerBodyParsers(app);
  await registerRateLimit(app, deps.rateLimitPerMinute, deps.commands);
  await registerOpenApi(app, deps.version);
  registerAuthentication(app, {
    apiKeys: deps.apiKeys,
    users: deps.users,
    now: deps.now,
    failedAuthPerMinute: deps.rateLimitPerMinute === 0 ? 0 : FAILED_AUTHENTICATIONS_PER_MINUTE,
    ...(deps.commands ? { commands: deps.commands } : {}),
  });
  registerRoutes(app, [
    ...openApiRoutes(app),
    ...systemRoutes(deps.now),
    ...userRoutes(deps.users),
    ...adminRoutes(deps.users, deps.apiKeys),
    ...engineRoutes(deps.engines),
    ...paperRoutes(deps.paper, deps.applyPaperTicks, deps.now),
    ...paperFeeRoutes(deps.paper),
    ...backtestRoutes(deps.backtests),
    ...notificationRoutes(deps.notifications),
    ...paperCandleRoutes(deps.paper, deps.paperCandles),
    ...marketDataRoutes(deps.markets),
    ...accountRoutes(deps),
    ...botRoutes({ bots: deps.dcaBots, deals: deps.deals, botStats: deps.botStats, signals: deps.signals }),
    ...dealRoutes({ deals: deps.deals, accounts: deps.accounts, markets: deps.markets, bots: deps.dcaBots, smartTrades: deps.smartTrades }),
    ...gridBotRoutes(deps.gridBots),
    ...smartTradeRoutes(deps.smartTrades),
    ...tradeRoutes(deps.trades),
    ...tradeSignalRoutes(app, { signals: deps.signals, config: deps.signalConfig, now: deps.now }),
  ]);
  registerDashboard(app);
  if (deps.streams) {
    const streams = attachStreamServer(app.server, { ...deps.streams, now: deps.now });
    app.addHook('preClose', () => streams.close());
  }
  await app.ready();
  return app;
}
