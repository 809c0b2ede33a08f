/** Process entry: `tradeloop serve | users ... | keys ...`. Returns the exit code. */
import { parseArgs } from 'node:util';
import { checkPaperBalances, ConfigError, loadConfig, type Flags } from './config/config.ts';
import { checkDataDir } from './config/data-dir.ts';
import { checkListenAddress } from './config/listen-address.ts';
import { PAPER_MARKETS } from './exchanges/paper/paper-markets.ts';
import { ApiError } from './shared/errors.ts';
import { DataDirLockedError } from './store/data-dir-lock.ts';
import { DatabaseUnavailableError } from './store/postgres-database.ts';

const USAGE = `Usage:
  tradeloop serve [--host H] [--port P] [--data-dir D] [--database-url URL] [--log-level L] [--role all|api|engine]
  tradeloop users create NAME
  tradeloop keys create --user NAME --name LABEL --permissions P1,P2,... [--rsa-public-key FILE] [--strict] [--signing 3commas|tl1] [--json]
  tradeloop keys list [--json]
  tradeloop keys revoke ID
  tradeloop backtest --kind grid|dca|smart_trade --settings BOT.json --pair USDT_BTC --from DAY --to DAY [...] (backtest --help)
Environment: PORT, HOST, DATA_DIR, DATABASE_URL, TRADELOOP_MASTER_KEY, LOG_LEVEL, LOG_FORMAT, RATE_LIMIT_PER_MINUTE,
  PAPER_FEED, PAPER_REPLAY_SPEED, PAPER_REPLAY_FROM, PAPER_BALANCES, PAPER_FEE, PAPER_SLIPPAGE_BPS,
  SIGNAL_ALLOWED_IPS, SIGNAL_HMAC_SECRET, ENGINE_LEASE_SECONDS, TRADELOOP_ROLE`;

const OPTIONS = {
  host: { type: 'string' },
  port: { type: 'string' },
  'data-dir': { type: 'string' },
  'database-url': { type: 'string' },
  'log-level': { type: 'string' },
  role: { type: 'string' },
  user: { type: 'string' },
  name: { type: 'string' },
  permissions: { type: 'string' },
  'rsa-public-key': { type: 'string' },
  strict: { type: 'boolean' },
  signing: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export type CliValues = ReturnType<typeof parse>['values'];

function parse(argv: string[]) {
  return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
}

export async function main(argv: string[]): Promise<number> {
  // A backtest opens no store and takes its own flags.
  if (argv[0] === 'backtest') return (await import('./cli/backtest.command.ts')).runBacktestCommand(argv.slice(1));
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  const [command, ...rest] = parsed.positionals;
  if (parsed.values.help || command === undefined) {
    process.stdout.write(`${USAGE}\n`);
    return command === undefined && !parsed.values.help ? 2 : 0;
  }
  if (!['serve', 'users', 'keys'].includes(command)) {
    process.stderr.write(`Unknown command "${command}".\n\n${USAGE}\n`);
    return 2;
  }
  // Data files (database, keys) are for this user only, whatever the shell's umask.
  process.umask(0o077);
  try {
    const flags: Flags = {};
    for (const name of ['host', 'port', 'data-dir', 'database-url', 'log-level', 'role'] as const) {
      const value = parsed.values[name];
      if (value !== undefined) flags[name] = value;
    }
    const isServe = command === 'serve';
    const config = loadConfig(
      isServe ? process.env : { LOG_LEVEL: 'warn', ...process.env },
      flags,
    );
    // Settings are checked before any command loads its modules, which takes seconds.
    checkPaperBalances(config.paper.balances, [...new Set(PAPER_MARKETS.flatMap((market) => [market.base, market.quote]))]);
    checkDataDir(config.dataDir);
    // An engine process listens on no port: two started at once on one machine must not collide here.
    if (command === 'serve' && config.role !== 'engine') await checkListenAddress(config.host, config.port);
    // Each command loads only its own modules: the server's take seconds the CLI need not wait.
    switch (command) {
      case 'serve':
        return await (await import('./cli/serve.command.ts')).runServe(config);
      case 'users':
        return await (await import('./cli/users.command.ts')).runUsersCommand(config, rest, parsed.values);
      default:
        return await (await import('./cli/keys.command.ts')).runKeysCommand(config, rest, parsed.values);
    }
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    if (error instanceof DataDirLockedError || error instanceof DatabaseUnavailableError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    if (error instanceof ApiError) {
      const detail = error.attributes ? ` ${JSON.stringify(error.attributes)}` : '';
      process.stderr.write(`${error.description ?? error.code}${detail}\n`);
      return 1;
    }
    throw error;
  }
}

export { USAGE };
