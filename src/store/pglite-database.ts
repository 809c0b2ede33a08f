import fs from 'node:fs';
import path from 'node:path';
import { PGlite, types } from '@electric-sql/pglite';
import type { Database, Sql } from './database.ts';
import { named } from './statement-error.ts';

/** Identity ids stay far below 2^53, so int8 columns come back as numbers; numeric stays text. */
const parsers = { [types.INT8]: (value: string) => Number(value), [types.NUMERIC]: (v: string) => v };

/**
 * PostgreSQL's default 128 MB of shared buffers is taken and cleared at every start: 0.6 s of CPU
 * and 40,000 page faults more than 32 MB costs, at each server start, command and test database.
 * PGlite reads its files through the operating system, whose cache holds what the buffers do not:
 * the 1,000-grid benchmark ran as fast with either (bench/README.md). The WAL buffers keep the
 * 4 MB that 128 MB of shared buffers gave them.
 */
const SHARED_BUFFERS = '32MB';

export async function openPglite(options: { dataDir?: string; loadDataDir?: Blob }): Promise<Database> {
  const db = await PGlite.create({
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
    ...(options.loadDataDir === undefined ? {} : { loadDataDir: options.loadDataDir }),
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`, '-c', 'wal_buffers=4MB'],
    parsers,
  });
  if (options.dataDir !== undefined) ownerOnly(options.dataDir);
  return new PgliteDatabase(db);
}

/**
 * PGlite's initdb gives its files mode 0666 whatever the umask; the data is the user's alone.
 * Files PGlite creates later follow the process umask, which the command line sets to 077.
 */
function ownerOnly(directory: string): void {
  const entries = fs.readdirSync(directory, { withFileTypes: true, recursive: true });
  for (const file of [directory, ...entries.map((entry) => path.join(entry.parentPath, entry.name))]) {
    const mode = fs.statSync(file).mode & 0o777;
    if ((mode & 0o077) !== 0) fs.chmodSync(file, mode & 0o700);
  }
}

/**
 * PGlite runs in this thread and answers through promises alone, so a chain of statements (an
 * engine catching up on a burst of fills) would never give timers and sockets a turn: HTTP
 * replies and heartbeats would wait until it ends. A statement started after this long without
 * one first lets the event loop turn.
 */
const TURN_EVERY_MS = 10;

class PgliteDatabase implements Database {
  readonly kind = 'pglite';
  private lastTurn = performance.now();

  constructor(readonly db: PGlite) {}

  async query<Row extends object>(text: string, params: unknown[] = []): Promise<Row[]> {
    await this.turn();
    return named(text, async () => (await this.db.query<Row>(text, params)).rows);
  }

  async write(text: string, params: unknown[] = []): Promise<void> {
    await this.query(text, params);
  }

  async exec(text: string): Promise<void> {
    await this.turn();
    await this.db.exec(text);
  }

  async transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    await this.turn();
    return this.db.transaction((tx) => {
      const query = <Row extends object>(text: string, params: unknown[] = []) => named(text, async () => (await tx.query<Row>(text, params)).rows);
      // In this process a statement costs no round trip: there is nothing to gain by holding it.
      return work({ query, write: async (text, params) => void (await query(text, params)) });
    });
  }

  private async turn(): Promise<void> {
    if (performance.now() - this.lastTurn < TURN_EVERY_MS) return;
    await new Promise((resolve) => setImmediate(resolve));
    this.lastTurn = performance.now();
  }

  async dump(): Promise<Blob> {
    return this.db.dumpDataDir('none');
  }

  async close(): Promise<void> {
    await this.db.close();
  }
}

export function isPgliteDatabase(db: Database): db is Database & { dump(): Promise<Blob> } {
  return db instanceof PgliteDatabase;
}
