import pg from 'pg';
import { StorageUnavailableError } from '../shared/errors.ts';
import type { Database, NotifyHandlers, Sql } from './database.ts';
import { PostgresListener } from './postgres-listener.ts';
import { inlineParams } from './inline-params.ts';
import { parseTimestamptz } from './timestamptz.ts';
import { named } from './statement-error.ts';

const typeParsers = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8) return (value: string) => Number(value);
    if (oid === pg.types.builtins.TIMESTAMPTZ && format !== 'binary') return parseTimestamptz;
    return pg.types.getTypeParser(oid, format);
  },
};

export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';
}

/** PostgreSQL through a pg pool; `searchPath` isolates test runs in their own schema. */
export async function openPostgres(
  url: string,
  searchPath?: string,
  reconnectDelaysMs: readonly number[] = RECONNECT_DELAYS_MS,
): Promise<Database> {
  const connection: pg.ClientConfig = {
    connectionString: url,
    types: typeParsers,
    // Names this server's connections in pg_stat_activity (per schema when one is given).
    application_name: searchPath === undefined ? 'tradeloop' : `tradeloop/${searchPath}`,
    ...(searchPath === undefined ? {} : { options: `-c search_path=${searchPath}` }),
  };
  const pool = new pg.Pool({ ...connection, max: 8 });
  // Without listeners, a connection that the server closes (a restart, a failover, an operator's
  // pg_terminate_backend) would crash the process: the pool's for idle clients, each client's own
  // for one held by a transaction. The pool drops a broken client; its work is retried on another.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  try {
    const probe = await pool.connect();
    probe.release();
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DatabaseUnavailableError(
      `Cannot connect to PostgreSQL at ${describeUrl(url)}: ${(error as Error).message}`,
    );
  }
  return new PostgresDatabase(pool, connection, reconnectDelaysMs);
}

/** Host, port and database only: the URL may hold a password. */
function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

/** Waits between attempts while the server is away: about 12.7 s in all, then the caller hears of it. */
const RECONNECT_DELAYS_MS = [50, 100, 200, 400, 800, 1600, 3200, 6400];

/**
 * SQLSTATE classes and driver errors that mean the connection, not the statement, failed:
 * 08 connection exceptions, 57P01-57P03 shutdowns and terminations, and the driver's own errors
 * (no SQLSTATE) for a socket that closed or could not open.
 */
export function isConnectionLost(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^(08|57P0[123])/.test(code)) return true;
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return true;
  const message = error instanceof Error ? error.message : '';
  return typeof code !== 'string' && /connection|terminated|not queryable|ECONNRE/i.test(message);
}

/** Runs `work` again on a new connection while the connection is what fails. */
async function reconnecting<T>(delays: readonly number[], work: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (!isConnectionLost(error)) throw error;
      const delay = delays[attempt];
      if (delay === undefined) throw new StorageUnavailableError('The database is unreachable', { cause: error });
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

class PostgresDatabase implements Database {
  readonly kind = 'postgres';

  private readonly listeners = new Set<PostgresListener>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly connection: pg.ClientConfig,
    private readonly reconnectDelaysMs: readonly number[],
  ) {}

  async listen(channel: string, handlers: NotifyHandlers): Promise<() => Promise<void>> {
    const listener = new PostgresListener(this.connection, channel, handlers);
    await listener.start();
    this.listeners.add(listener);
    return async () => {
      this.listeners.delete(listener);
      await listener.stop();
    };
  }

  async query<Row extends object>(text: string, params: unknown[] = []): Promise<Row[]> {
    return named(text, () => reconnecting(this.reconnectDelaysMs, async () => (await this.pool.query(text, params)).rows as Row[]));
  }

  async exec(text: string): Promise<void> {
    await reconnecting(this.reconnectDelaysMs, () => this.pool.query(text));
  }

  async write(text: string, params: unknown[] = []): Promise<void> {
    await this.query(text, params);
  }

  /**
   * A transaction whose connection is lost is run again from the start on a new one: the work
   * must be repeatable (the engine's batches are, by design). Statement errors inside stay named.
   *
   * Its statements go as simple queries with their parameters written in (inline-params.ts):
   * `BEGIN`, the writes queued since the last read and the read itself travel in one round trip,
   * and the last writes with `COMMIT`. An engine batch of eight statements costs one round trip
   * instead of ten (two with leases): with the database on another machine, most of its wait.
   */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    return reconnecting(this.reconnectDelaysMs, async () => {
      const client = await this.pool.connect();
      let lost: unknown;
      let begun = false;
      const queued: string[] = [];
      /** Sends BEGIN if not sent yet, the queued writes and `last`; answers the rows of `last`. */
      const send = async <Row extends object>(last: string): Promise<Row[]> => {
        const statements = [...queued.splice(0), last];
        const text = (begun ? '' : 'BEGIN;\n') + statements.join(';\n');
        begun = true;
        // PostgreSQL does not say which statement of several failed: the error names the first.
        return named(statements[0]!, async () => {
          try {
            const results = (await client.query(text)) as unknown as pg.QueryResult | pg.QueryResult[];
            return (Array.isArray(results) ? results.at(-1)! : results).rows as Row[];
          } catch (error) {
            if (isConnectionLost(error)) lost = error;
            throw error;
          }
        });
      };
      const inlined = (text: string, params: unknown[]) => named(text, async () => inlineParams(text, params));
      const tx: Sql = {
        query: async (text, params = []) => send(await inlined(text, params)),
        write: async (text, params = []) => void queued.push(await inlined(text, params)),
      };
      try {
        const result = await work(tx);
        if (begun || queued.length > 0) await send('COMMIT');
        return result;
      } catch (error) {
        lost ??= isConnectionLost(error) ? error : undefined;
        if (lost === undefined && begun) await client.query('ROLLBACK').catch(() => undefined);
        throw lost ?? error;
      } finally {
        // A client whose connection broke is destroyed, not handed to the next caller.
        client.release(lost !== undefined);
      }
    });
  }

  async close(): Promise<void> {
    await Promise.all([...this.listeners].map((listener) => listener.stop()));
    await this.pool.end();
  }
}
