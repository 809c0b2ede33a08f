/**
 * The database's raw write limit for what a replay wrote: rows of the same shapes (copied from the
 * rows the run left in its tables) inserted in batches of the run's size (each table's rows per
 * stored batch, one transaction a batch, its statements sent together as the engine's are) into
 * empty copies of the tables (their indexes included, as non-unique ones; their foreign keys
 * not), with nothing else running. A row the run updated counts as one inserted here: the limit
 * is stated in rows written, whatever the write.
 */
import type { Database } from '../../src/store/database.ts';
import type { ReplayResult } from './engine-replay.ts';
import type { Written } from './write-stats.ts';

interface RawWriteLimit {
  rowsPerSecond: number;
  rowsPerBatch: number;
  batches: number;
}

/** At most this many rows are inserted: enough for a steady rate, and a bounded wait. */
const MAX_ROWS = 150_000;

interface Column {
  name: string;
  type: string;
}

async function rawWriteLimit(db: Database, written: Written, storedBatches: number): Promise<RawWriteLimit> {
  const tables = [...written.rowsByTable].filter(([, rows]) => rows > 0);
  const perBatch = new Map(tables.map(([table, rows]) => [table, Math.max(1, Math.round(rows / Math.max(1, storedBatches)))]));
  const rowsPerBatch = [...perBatch.values()].reduce((sum, rows) => sum + rows, 0);
  const batches = Math.max(1, Math.min(storedBatches, Math.floor(MAX_ROWS / rowsPerBatch)));
  const sources = new Map<string, { columns: Column[]; rows: string[][] }>();
  for (const [table] of tables) {
    const columns = await insertableColumns(db, table);
    const wanted = perBatch.get(table)! * batches;
    const rows = await db.query<{ values: string[] }>(
      `SELECT ARRAY[${columns.map((c) => `${quoted(c.name)}::text`).join(', ')}] AS values FROM ${quoted(table)} LIMIT $1`,
      [wanted],
    );
    if (rows.length === 0) continue;
    sources.set(table, { columns, rows: rows.map((row) => row.values) });
    await copyTable(db, table);
  }
  try {
    const started = performance.now();
    for (let batch = 0; batch < batches; batch += 1) {
      await db.transaction(async (tx) => {
        for (const [table, { columns, rows }] of sources) {
          const count = perBatch.get(table)!;
          // A table with fewer rows than the run wrote (balances, updated in place) lends them again.
          const slice = Array.from({ length: count }, (_, index) => rows[(batch * count + index) % rows.length]!);
          await tx.write(
            `INSERT INTO ${scratch(table)} (${columns.map((c) => quoted(c.name)).join(', ')})
             SELECT ${columns.map((c, index) => `u.c${index}::${c.type}`).join(', ')}
             FROM unnest(${columns.map((_, index) => `$${index + 1}::text[]`).join(', ')}) AS u (${columns.map((_, index) => `c${index}`).join(', ')})`,
            columns.map((_, index) => slice.map((row) => row[index] ?? null)),
          );
        }
      });
    }
    const seconds = (performance.now() - started) / 1000;
    return { rowsPerSecond: (rowsPerBatch * batches) / seconds, rowsPerBatch, batches };
  } finally {
    for (const table of sources.keys()) await db.exec(`DROP TABLE IF EXISTS ${scratch(table)}`);
  }
}

/**
 * An empty copy of the table with its indexes, as non-unique ones: rows lent again (see above)
 * would break a unique key, and a unique index costs about what another does to insert into.
 */
async function copyTable(db: Database, table: string): Promise<void> {
  await db.exec(`DROP TABLE IF EXISTS ${scratch(table)}`);
  await db.exec(
    `CREATE TABLE ${scratch(table)} (LIKE ${quoted(table)} INCLUDING DEFAULTS INCLUDING GENERATED INCLUDING IDENTITY INCLUDING STORAGE)`,
  );
  const indexes = await db.query<{ definition: string }>(
    `SELECT pg_get_indexdef(indexrelid) AS definition FROM pg_index
     WHERE indrelid = ${IN_SCHEMA}`,
    [table],
  );
  for (const { definition } of indexes) {
    await db.exec(definition.replace(/^CREATE (UNIQUE )?INDEX \S+ ON \S+ /, `CREATE INDEX ON ${scratch(table)} `));
  }
}

/** The columns a row is inserted with: identity and generated columns make their own values. */
async function insertableColumns(db: Database, table: string): Promise<Column[]> {
  return db.query<Column>(
    `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type
     FROM pg_attribute a
     WHERE a.attrelid = ${IN_SCHEMA}
       AND a.attnum > 0 AND NOT a.attisdropped AND a.attidentity = '' AND a.attgenerated = ''
     ORDER BY a.attnum`,
    [table],
  );
}

/** The table named by $1 in the run's schema. */
const IN_SCHEMA = "(quote_ident(current_schema()) || '.' || quote_ident($1))::regclass";
const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
const scratch = (table: string) => quoted(`raw_limit_${table}`);

/** A stored replay's durable fills per second next to the limit measured now for its rows, as one line. */
export async function describeLimit(replayed: Pick<ReplayResult, 'fills' | 'ms' | 'written' | 'storedBatches' | 'world'>): Promise<string> {
  const { fills, written } = replayed;
  const limit = await rawWriteLimit(replayed.world.db, written, replayed.storedBatches);
  const durable = fills / (replayed.ms / 1000);
  const rowsPerFill = written.rows / fills;
  const limitFills = limit.rowsPerSecond / rowsPerFill;
  return (
    `  durable ${Math.round(durable)} fills/s; the raw limit for the same rows (${rowsPerFill.toFixed(1)} a fill, ` +
    `${limit.rowsPerBatch} a batch, ${limit.batches} batches, nothing else running): ${Math.round(limit.rowsPerSecond)} rows/s, ` +
    `${Math.round(limitFills)} fills/s; ${(durable / limitFills).toFixed(2)} of the limit (goal ≥ 0.5)`
  );
}
