import pg from 'pg';
import type { Database, Sql } from './database.ts';
import { named } from './statement-error.ts';

const typeParsers = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';
}

/** PostgreSQL through a pg pool; `searchPath` isolates test runs in their own schema. */
export async function openPostgres(url: string, searchPath?: string): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 8,
    types: typeParsers,
    ...(searchPath === undefined ? {} : { options: `-c search_path=${searchPath}` }),
  });
  // Without a listener, an idle connection that the server closes (a restart) would crash the
  // process; the pool drops that client by itself and the next query reports any lasting problem.
  pool.on('error', () => undefined);
  try {
    const probe = await pool.connect();
    probe.release();
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DatabaseUnavailableError(
      `Cannot connect to PostgreSQL at ${describeUrl(url)}: ${(error as Error).message}`,
    );
  }
  return new PostgresDatabase(pool);
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

class PostgresDatabase implements Database {
  readonly kind = 'postgres';

  constructor(private readonly pool: pg.Pool) {}

  async query<Row extends object>(text: string, params: unknown[] = []): Promise<Row[]> {
    return named(text, async () => (await this.pool.query(text, params)).rows as Row[]);
  }

  async exec(text: string): Promise<void> {
    await this.pool.query(text);
  }

  async transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work({
        query: <Row extends object>(text: string, params: unknown[] = []) =>
          named(text, async () => (await client.query(text, params)).rows as Row[]),
      });
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
