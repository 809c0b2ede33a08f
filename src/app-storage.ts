/**
 * Opens the store for the server and the command line: the data directory (checked, locked for
 * PGlite), the master key, the database and its migrations. The embedded database is created in
 * a side directory and moved into place when whole, so a process stopped during its first start
 * leaves nothing half-made behind.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from './config/config.ts';
import { checkDataDir } from './config/data-dir.ts';
import { resolveMasterKey } from './config/master-key.ts';
import { lockDataDir } from './store/data-dir-lock.ts';
import type { Database } from './store/database.ts';
import { migrate } from './store/migrate.ts';
import { openPglite } from './store/pglite-database.ts';
import { shippedTemplate } from './store/pglite-template.ts';
import { openPostgres } from './store/postgres-database.ts';

export interface Storage {
  db: Database;
  masterKey: Buffer;
  /** Closes the database unless it was given, and releases the data directory. */
  close(): Promise<void>;
}

export async function openStorage(config: Config, logger: Logger, given?: Database): Promise<Storage> {
  checkDataDir(config.dataDir);
  const loose = fs.statSync(config.dataDir).mode & 0o077;
  if (loose !== 0) {
    logger.warn({ dataDir: config.dataDir }, `DATA_DIR can be read by other users of this machine; run: chmod 700 ${config.dataDir}`);
  }
  // The lock comes before anything else is written, so a process that is refused changes nothing.
  const usesPglite = given === undefined && config.databaseUrl === undefined;
  const releaseLock = usesPglite ? lockDataDir(config.dataDir) : () => {};
  let db = given;
  try {
    const masterKey = resolveMasterKey(config.masterKey, config.dataDir);
    db ??= config.databaseUrl === undefined ? await openEmbedded(config.dataDir, logger) : await openPostgres(config.databaseUrl);
    const applied = await migrate(db);
    if (applied.length > 0) logger.info({ migrations: applied, store: db.kind }, 'migrations applied');
    const opened = db;
    return {
      db: opened,
      masterKey,
      close: async () => {
        try {
          if (given === undefined) await opened.close();
        } finally {
          releaseLock();
        }
      },
    };
  } catch (error) {
    if (db !== undefined && given === undefined) await db.close().catch(() => undefined);
    releaseLock();
    throw error;
  }
}

async function openEmbedded(dataDir: string, logger: Logger): Promise<Database> {
  const directory = path.join(dataDir, 'pgdata');
  if (!fs.existsSync(directory)) {
    const template = shippedTemplate();
    logger.info(
      { directory },
      template === undefined
        ? 'creating the embedded database (first start only; initialising it takes 5 to 40 seconds)'
        : 'creating the embedded database from its template (first start only)',
    );
    const started = Date.now();
    const partial = `${directory}.partial`;
    fs.rmSync(partial, { recursive: true, force: true });
    await (await openPglite({ dataDir: partial, ...(template === undefined ? {} : { loadDataDir: template }) })).close();
    fs.renameSync(partial, directory);
    logger.info({ seconds: Math.round((Date.now() - started) / 100) / 10 }, 'embedded database created');
  }
  return openPglite({ dataDir: directory });
}
