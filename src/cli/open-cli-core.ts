import { paperTrading } from '../app-paper.ts';
import { openStorage } from '../app-storage.ts';
import { userServices } from '../app-users.ts';
import { SecretBox } from '../auth/secret-box.ts';
import type { Config } from '../config/config.ts';
import { ExchangeError } from '../exchanges/exchange.ts';
import type { ExchangeConnector } from '../exchanges/exchange-connector.ts';
import { createLogger } from '../logging.ts';
import { CandleBook } from '../market-data/candle-book.ts';
import { ManualFeed } from '../market-data/manual-feed.ts';
import type { ApiKeysService } from '../services/api-keys.service.ts';
import { MarketsService } from '../services/markets.service.ts';
import type { UsersService } from '../services/users.service.ts';

export interface CliCore {
  users: UsersService;
  apiKeys: ApiKeysService;
  close(): Promise<void>;
}

/**
 * What the commands that manage users and keys open: the store, and the users, keys and paper
 * accounts on it as the server composes them (`app-users.ts`), without the engine, the bots'
 * domains or the API: a quarter of the server's modules, so a command starts sooner. They never
 * reach a real exchange nor move the paper market. It logs to stderr: stdout carries the
 * command's output (--json).
 */
export async function openCliCore(config: Config): Promise<CliCore> {
  const logger = createLogger(config.logLevel, 2, config.logFormat);
  const storage = await openStorage(config, logger);
  const paper = paperTrading(config.paper, storage.db, NO_REAL_EXCHANGES, logger, new CandleBook(), new ManualFeed());
  const markets = new MarketsService(paper, NO_REAL_EXCHANGES);
  const { users, apiKeys } = userServices(config, storage.db, new SecretBox(storage.masterKey), paper, markets, NO_REAL_EXCHANGES);
  return { users, apiKeys, close: () => storage.close() };
}

const refuse = (): never => {
  throw new ExchangeError('unavailable', 'real exchanges are reached by the server, not by the command line');
};

const NO_REAL_EXCHANGES: ExchangeConnector = {
  describe: async () => [],
  markets: async () => refuse(),
  tickers: async () => refuse(),
  connect: async () => refuse(),
};
