/**
 * What the database itself says was written: rows inserted, updated and deleted in the test's
 * schema (`pg_stat_user_tables`) and WAL bytes between two `pg_current_wal_lsn()`, the same
 * statistics on PGlite and on PostgreSQL. WAL is counted for the whole server, so on a
 * PostgreSQL others use at the same time it is an upper bound.
 */
import type { Database } from '../../src/store/database.ts';

export interface WriteMark {
  rows: Map<string, number>;
  lsn: string;
}

export interface Written {
  rows: number;
  walBytes: number;
  rowsByTable: Map<string, number>;
}

/** Every pooled connection's pending statistics are flushed first, so the counts are complete. */
export async function markWrites(db: Database): Promise<WriteMark> {
  await flushStatistics(db);
  const tables = await db.query<{ table: string; rows: string }>(
    `SELECT relname AS table, (n_tup_ins + n_tup_upd + n_tup_del)::text AS rows
     FROM pg_stat_user_tables WHERE schemaname = current_schema()`,
  );
  const [wal] = await db.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
  return { rows: new Map(tables.map((t) => [t.table, Number(t.rows)])), lsn: wal!.lsn };
}

/** `walUntil`: a position taken earlier, where the WAL counted ends (the rows are counted to now). */
export async function writtenSince(db: Database, before: WriteMark, walUntil?: string): Promise<Written> {
  const after = await markWrites(db);
  const [wal] = await db.query<{ bytes: string }>('SELECT pg_wal_lsn_diff($1::pg_lsn, $2::pg_lsn)::text AS bytes', [
    walUntil ?? after.lsn,
    before.lsn,
  ]);
  const rowsByTable = new Map<string, number>();
  for (const [table, rows] of after.rows) {
    const delta = rows - (before.rows.get(table) ?? 0);
    if (delta > 0) rowsByTable.set(table, delta);
  }
  const rows = [...rowsByTable.values()].reduce((sum, count) => sum + count, 0);
  if (process.env.BENCH_WAL_DETAIL && db.kind === 'postgres') await printWalDetail(db, before.lsn, after.lsn);
  return { rows, walBytes: Number(wal!.bytes), rowsByTable };
}

/**
 * With BENCH_WAL_DETAIL set, on PostgreSQL: the WAL between two marks by record type and relation,
 * read with pg_walinspect (PostgreSQL 15+), which shows what each table and index costs per fill.
 */
async function printWalDetail(db: Database, from: string, to: string): Promise<void> {
  try {
    await db.query('CREATE EXTENSION IF NOT EXISTS pg_walinspect SCHEMA public');
    // Only WAL already flushed can be read.
    const rows = await db.query<{ record: string; relation: string; records: string; bytes: string; images: string }>(
      `SELECT w.resource_manager || '/' || w.record_type AS record,
         coalesce(c.relname, '(other)') AS relation, count(*)::text AS records, sum(w.record_length)::text AS bytes,
         sum(w.fpi_length)::text AS images
       FROM public.pg_get_wal_records_info($1::pg_lsn, least($2::pg_lsn, pg_current_wal_flush_lsn())) w
       LEFT JOIN pg_class c ON c.relfilenode = substring(w.block_ref from 'rel \\d+/\\d+/(\\d+)')::oid
       GROUP BY 1, 2 ORDER BY sum(w.record_length) DESC LIMIT 30`,
      [from, to],
    );
    console.log("  WAL by record and relation (largest first; a page's first change after a checkpoint logs the whole page):");
    for (const row of rows) {
      console.log(`    ${row.bytes.padStart(10)} bytes (${row.images.padStart(9)} in page images) ${row.records.padStart(8)} records  ${row.record} ${row.relation}`);
    }
  } catch (error) {
    console.log(`  WAL detail unavailable: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export function describeWrites(written: Written, fills: number, ticks: number): string {
  const per = (value: number, count: number) => (count === 0 ? 'n/a' : (value / count).toFixed(1));
  const tables = [...written.rowsByTable]
    .sort((a, b) => b[1] - a[1])
    .map(([table, rows]) => `${table} ${per(rows, fills)}`)
    .join(', ');
  return (
    `  written per fill: ${per(written.rows, fills)} rows, ${per(written.walBytes, fills)} WAL bytes; ` +
    `per tick: ${per(written.rows, ticks)} rows, ${per(written.walBytes, ticks)} WAL bytes ` +
    `(${written.rows} rows, ${(written.walBytes / 1e6).toFixed(1)} MB WAL, ${fills} fills, ${ticks} ticks)\n` +
    `  rows per fill by table: ${tables}`
  );
}

/**
 * A backend sends its statistics at most once a second, and an idle one up to 10 s later. Asking
 * every pooled connection to send them at its next idle moment, all held at once so that each
 * connection is asked, makes them complete as soon as these transactions end.
 */
async function flushStatistics(db: Database): Promise<void> {
  const connections = db.kind === 'postgres' ? POOL_SIZE : 1;
  let arrived = 0;
  let release: () => void = () => {};
  const allArrived = new Promise<void>((resolve) => (release = resolve));
  await Promise.all(
    Array.from({ length: connections }, () =>
      db.transaction(async (tx) => {
        await tx.query('SELECT pg_stat_force_next_flush()');
        if (++arrived === connections) release();
        await allArrived;
      }),
    ),
  );
  await db.query('SELECT pg_stat_clear_snapshot()');
}

/** The pool size of `openPostgres`. */
const POOL_SIZE = 8;
