import net from 'node:net';
import path from 'node:path';
import type { LogFormat } from '../logging.ts';
import { DEFAULT_STREAM_LIMITS, type StreamLimits } from '../streams/connection-limits.ts';

/** Typed configuration from environment variables, overridden by command-line flags. */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** A postgres:// URL switches storage from the embedded PGlite to PostgreSQL. */
  databaseUrl: string | undefined;
  masterKey: string | undefined;
  logLevel: string;
  /** `auto`: readable lines on a terminal, JSON lines otherwise. */
  logFormat: LogFormat;
  /** Requests per minute per API key; 0 disables the limit. */
  rateLimitPerMinute: number;
  paper: PaperConfig;
  signals: SignalConfig;
  /** How long an engine's lease on an account lasts unrenewed (PostgreSQL only; docs/scaling.md). */
  engineLeaseSeconds: number;
  /** `all` serves the API and runs an engine; `api` and `engine` one of them (PostgreSQL only). */
  role: Role;
  notifications: NotificationConfig;
  /** Websocket connections allowed in all, per client address and per API key (docs/streams.md). */
  streamLimits: StreamLimits;
}

/** Notifications (docs/notifications.md). */
export interface NotificationConfig {
  /** Telegram's Bot API; another base URL serves a self-hosted Bot API server (or a test stub). */
  telegramApiUrl: string;
}

export const ROLES = ['all', 'api', 'engine'] as const;
export type Role = (typeof ROLES)[number];

/** TradingView signals (docs/signals.md). */
export interface SignalConfig {
  /** Sender addresses accepted; empty accepts any (the token in the body is always checked). */
  allowedIps: string[];
  /** When set, each signal must carry `Signature`: the hex HMAC-SHA256 of its body with this secret. */
  hmacSecret: string | undefined;
}

export const FEED_KINDS = ['live', 'replay', 'synthetic', 'manual'] as const;

export interface PaperConfig {
  feed: (typeof FEED_KINDS)[number];
  /** How many times faster than real time the replay feed runs. */
  replaySpeed: number;
  /** Where the replayed period of the shipped data starts; the most recent year when unset. */
  replayFrom: Date | undefined;
  /** The exchange whose public prices the live feed polls. */
  liveExchange: string;
  /** Starting balances of every new paper account, as currency and amount text. */
  balances: Array<{ currency: string; amount: string }>;
  /** Maker and taker fee as a fraction (0.001 = 0.1 %). */
  fee: string;
  /** Adverse price move of market orders, in basis points of the touch. */
  slippageBasisPoints: number;
}

export type Flags = Partial<Record<'host' | 'port' | 'data-dir' | 'database-url' | 'log-level' | 'role', string>>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const LOG_FORMATS = ['auto', 'pretty', 'json'];

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
  const logFormat = nonEmpty(env.LOG_FORMAT) ?? 'auto';
  if (!LOG_FORMATS.includes(logFormat)) {
    throw new ConfigError(`LOG_FORMAT must be one of ${LOG_FORMATS.join(', ')}, got "${logFormat}"`);
  }
  const host = setting(flags, env, 'host', 'HOST');
  // Only addresses: resolving a name could wait on a DNS server that is not there.
  if (host.value !== undefined && host.value !== 'localhost' && net.isIP(host.value) === 0) {
    throw new ConfigError(
      `${host.name} must be an IP address of this machine or localhost (127.0.0.1, ::1, or 0.0.0.0 for every interface), got "${host.value}"`,
    );
  }
  const port = setting(flags, env, 'port', 'PORT');
  const role = setting(flags, env, 'role', 'TRADELOOP_ROLE');
  if (role.value !== undefined && !(ROLES as readonly string[]).includes(role.value)) {
    throw new ConfigError(`${role.name} must be one of ${ROLES.join(', ')}, got "${role.value}"`);
  }
  if (role.value !== undefined && role.value !== 'all' && databaseUrl.value === undefined) {
    throw new ConfigError(`${role.name} ${role.value} needs DATABASE_URL: the embedded database serves one process, which runs both the API and the engine`);
  }
  return {
    host: host.value ?? '127.0.0.1',
    port: integer(port.name, port.value, 8080, 0, 65535),
    dataDir: path.resolve(setting(flags, env, 'data-dir', 'DATA_DIR').value ?? './data'),
    databaseUrl: databaseUrl.value,
    masterKey: nonEmpty(env.TRADELOOP_MASTER_KEY),
    logLevel: logLevel.value ?? 'info',
    logFormat: logFormat as LogFormat,
    rateLimitPerMinute: integer('RATE_LIMIT_PER_MINUTE', nonEmpty(env.RATE_LIMIT_PER_MINUTE), 100, 0, 1e9),
    paper: paperConfig(env),
    signals: signalConfig(env),
    engineLeaseSeconds: integer('ENGINE_LEASE_SECONDS', nonEmpty(env.ENGINE_LEASE_SECONDS), 15, 1, 3600),
    role: (role.value ?? 'all') as Role,
    streamLimits: {
      total: integer('STREAM_MAX_CONNECTIONS', nonEmpty(env.STREAM_MAX_CONNECTIONS), DEFAULT_STREAM_LIMITS.total, 1, 1e7),
      perAddress: integer('STREAM_MAX_CONNECTIONS_PER_ADDRESS', nonEmpty(env.STREAM_MAX_CONNECTIONS_PER_ADDRESS), DEFAULT_STREAM_LIMITS.perAddress, 1, 1e7),
      perKey: integer('STREAM_MAX_CONNECTIONS_PER_KEY', nonEmpty(env.STREAM_MAX_CONNECTIONS_PER_KEY), DEFAULT_STREAM_LIMITS.perKey, 1, 1e7),
    },
    notifications: { telegramApiUrl: httpUrl('TELEGRAM_API_URL', nonEmpty(env.TELEGRAM_API_URL)) ?? 'https://api.telegram.org' },
  };
}

function httpUrl(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new ConfigError(`${name} must be an http:// or https:// URL, got "${value}"`);
  return value;
}

function signalConfig(env: NodeJS.ProcessEnv): SignalConfig {
  const allowedIps = (nonEmpty(env.SIGNAL_ALLOWED_IPS) ?? '').split(',').map((ip) => ip.trim()).filter((ip) => ip !== '');
  const invalid = allowedIps.filter((ip) => net.isIP(ip) === 0);
  if (invalid.length > 0) throw new ConfigError(`SIGNAL_ALLOWED_IPS must list IP addresses separated by commas, got "${invalid.join(', ')}"`);
  return { allowedIps, hmacSecret: nonEmpty(env.SIGNAL_HMAC_SECRET) };
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
    replayFrom: date('PAPER_REPLAY_FROM', nonEmpty(env.PAPER_REPLAY_FROM)),
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

/** Refuses starting balances in currencies that no paper market trades: they could never be used. */
export function checkPaperBalances(balances: PaperConfig['balances'], tradedCurrencies: readonly string[]): void {
  const unknown = balances.filter((balance) => !tradedCurrencies.includes(balance.currency)).map((balance) => balance.currency);
  if (unknown.length > 0) {
    throw new ConfigError(
      `PAPER_BALANCES names ${unknown.join(', ')}, which no paper market trades; use ${tradedCurrencies.join(', ')}`,
    );
  }
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

function date(name: string, text: string | undefined): Date | undefined {
  if (text === undefined) return undefined;
  const value = /^\d{4}-\d{2}-\d{2}(T[\d:.]+Z)?$/.test(text) ? new Date(text) : undefined;
  // The round trip refuses days a month does not have, which Date would roll over.
  if (value === undefined || Number.isNaN(value.getTime()) || value.toISOString().slice(0, 10) !== text.slice(0, 10)) {
    throw new ConfigError(`${name} must be a date such as 2024-03-01 (UTC), got "${text}"`);
  }
  return value;
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
