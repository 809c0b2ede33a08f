import { openCore, type Core } from '../app.ts';
import type { Config } from '../config/config.ts';
import { ExchangeError } from '../exchanges/exchange.ts';
import type { ExchangeConnector } from '../exchanges/exchange-connector.ts';
import { ManualFeed } from '../market-data/manual-feed.ts';
import { createLogger } from '../logging.ts';

/**
 * The core for commands that manage users and keys. They never reach a real exchange nor move
 * the paper market, so ccxt (seconds to load) stays unloaded and the paper feed is the idle one.
 * It logs to stderr: stdout carries the command's output (--json).
 */
export function openCliCore(config: Config): Promise<Core> {
  return openCore(config, {
    logger: createLogger(config.logLevel, 2, config.logFormat),
    connector: NO_REAL_EXCHANGES,
    feed: new ManualFeed(),
  });
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
