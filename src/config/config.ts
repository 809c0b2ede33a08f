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
}

export type Flags = Partial<Record<'host' | 'port' | 'data-dir' | 'database-url' | 'log-level', string>>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export function loadConfig(env: NodeJS.ProcessEnv, flags: Flags = {}): Config {
  const databaseUrl = flags['database-url'] ?? nonEmpty(env.DATABASE_URL);
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  const logLevel = flags['log-level'] ?? nonEmpty(env.LOG_LEVEL) ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  }
  return {
    host: flags.host ?? nonEmpty(env.HOST) ?? '127.0.0.1',
    port: integer('PORT', flags.port ?? env.PORT, 8080, 0, 65535),
    dataDir: path.resolve(flags['data-dir'] ?? nonEmpty(env.DATA_DIR) ?? './data'),
    databaseUrl,
    masterKey: nonEmpty(env.TRADELOOP_MASTER_KEY),
    logLevel,
    rateLimitPerMinute: integer('RATE_LIMIT_PER_MINUTE', env.RATE_LIMIT_PER_MINUTE, 100, 0, 1e9),
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function integer(name: string, raw: string | undefined, fallback: number, min: number, max: number) {
  const text = nonEmpty(raw);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${text}"`);
  }
  return value;
}
