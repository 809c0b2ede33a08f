/**
 * The real HTTP server on a loopback port, wired as in production (src/app.ts) but on a fresh
 * test database (PGlite, or a throwaway schema when DATABASE_URL is set), with logging silenced
 * and the rate limit off so that it does not cap the measured rate.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp, createLogger, openCore, type Core } from '../../src/app.ts';
import { loadConfig } from '../../src/config/config.ts';
import type { Database } from '../../src/store/database.ts';
import { openTestDatabase } from '../../test/support/database.ts';

export interface BenchServer {
  core: Core;
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  close(): Promise<void>;
}

export async function startBenchServer(): Promise<BenchServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradeloop-bench-'));
  const config = loadConfig({ RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'silent', DATA_DIR: dataDir });
  const db = await openTestDatabase();
  try {
    const core = await openCore(config, { db, logger: createLogger('silent') });
    const app = await buildApp(core);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (address === null || typeof address === 'string') throw new Error('the server has no TCP port');
    return {
      core,
      baseUrl: `http://127.0.0.1:${address.port}`,
      close: async () => {
        await app.close();
        await core.close();
        await removeStorage(db, dataDir);
      },
    };
  } catch (error) {
    await removeStorage(db, dataDir);
    throw error;
  }
}

async function removeStorage(db: Database, dataDir: string): Promise<void> {
  await db.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
