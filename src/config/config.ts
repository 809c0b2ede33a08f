import path from 'node:path';

/** Typed configuration from environment variables, overridden by command-line flags. */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** A postgres:// URL switches storage from the embedded PGlite to PostgreSQL. */
  databaseUrl: string | undefined;
  masterKey: string | undefined;
  logLevel: string;
  /** Requests per minute per API key; 0 disables the limit. */
  rateLimitPerMinute: number;
  paper: PaperConfig;
}

export const FEED_KINDS = ['live', 'replay', 'synthetic', 'manual'] as const;

export interface PaperConfig {
  feed: (typeof FEED_KINDS)[number];
  /** How many times faster than real time the replay feed runs. */
  replaySpeed: number;
  /** The exchange whose public prices the live feed polls. */
  liveExchange: string;
  /** Starting balances of every new paper account, as currency and amount text. */
  balances: Array<{ currency: string; amount: string }>;
  /** Maker and taker fee as a fraction (0.001 = 0.1 %). */
  fee: string;
  /** Adverse price move of market orders, in basis points of the touch. */
  slippageBasisPoints: number;
}

export type Flags = Partial<Record<'host' | 'port' | 'data-dir' | 'database-url' | 'log-level', string>>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export function loadConfig(env: NodeJS.ProcessEnv, flags: Flags = {}): Config {
  const databaseUrl = setting(flags, env, 'database-url', 'DATABASE_URL');
  if (databaseUrl.value !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl.value)) {
    // The URL itself is not repeated: it may hold a password.
    throw new ConfigError(`${databaseUrl.name} must be a postgres:// or postgresql:// URL`);
  }
  const logLevel = setting(flags, env, 'log-level', 'LOG_LEVEL');
  if (logLevel.value !== undefined && !LOG_LEVELS.includes(logLevel.value)) {
    throw new ConfigError(`${logLevel.name} must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel.value}"`);
  }
  const port = setting(flags, env, 'port', 'PORT');
  return {
    host: setting(flags, env, 'host', 'HOST').value ?? '127.0.0.1',
    port: integer(port.name, port.value, 8080, 0, 65535),
    dataDir: path.resolve(setting(flags, env, 'data-dir', 'DATA_DIR').value ?? './data'),
    databaseUrl: databaseUrl.value,
    masterKey: nonEmpty(env.TRADELOOP_MASTER_KEY),
    logLevel: logLevel.value ?? 'info',
    rateLimitPerMinute: integer('RATE_LIMIT_PER_MINUTE', nonEmpty(env.RATE_LIMIT_PER_MINUTE), 100, 0, 1e9),
    paper: paperConfig(env),
  };
}

function paperConfig(env: NodeJS.ProcessEnv): PaperConfig {
  const feed = nonEmpty(env.PAPER_FEED) ?? 'live';
  if (!(FEED_KINDS as readonly string[]).includes(feed)) {
    throw new ConfigError(`PAPER_FEED must be one of ${FEED_KINDS.join(', ')}, got "${feed}"`);
  }
  const fee = nonEmpty(env.PAPER_FEE) ?? '0.001';
  if (!/^0(\.\d+)?$/.test(fee)) throw new ConfigError(`PAPER_FEE must be a fraction below 1, got "${fee}"`);
  return {
    feed: feed as PaperConfig['feed'],
    replaySpeed: integer('PAPER_REPLAY_SPEED', nonEmpty(env.PAPER_REPLAY_SPEED), 3600, 0, 1e9),
    liveExchange: nonEmpty(env.PAPER_LIVE_EXCHANGE) ?? 'binance',
    balances: paperBalances(nonEmpty(env.PAPER_BALANCES) ?? 'USDT:10000,BTC:0.1,ETH:2'),
    fee,
    slippageBasisPoints: integer('PAPER_SLIPPAGE_BPS', nonEmpty(env.PAPER_SLIPPAGE_BPS), 5, 0, 1000),
  };
}

function paperBalances(text: string): PaperConfig['balances'] {
  return text.split(',').map((part) => {
    const match = /^\s*([A-Z0-9]{1,20}):(\d+(\.\d+)?)\s*$/.exec(part);
    if (!match) {
      throw new ConfigError(`PAPER_BALANCES must look like "USDT:10000,BTC:0.1", got "${text}"`);
    }
    return { currency: match[1]!, amount: match[2]! };
  });
}

/** A flag wins over its variable; the name comes along so that errors point at what was set. */
function setting(flags: Flags, env: NodeJS.ProcessEnv, flag: keyof Flags, variable: string) {
  const fromFlag = nonEmpty(flags[flag]);
  return fromFlag !== undefined
    ? { name: `--${flag}`, value: fromFlag }
    : { name: variable, value: nonEmpty(env[variable]) };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function integer(name: string, text: string | undefined, fallback: number, min: number, max: number) {
  if (text === undefined) return fallback;
  // Digits only: Number() would also take "0x50", "1e3" or "8080.0".
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${text}"`);
  }
  return value;
}
