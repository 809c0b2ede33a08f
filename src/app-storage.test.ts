import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { pino } from 'pino';
import { openTestDatabase } from '../test/support/database.ts';
import { openStorage } from './app-storage.ts';
import { loadConfig } from './config/config.ts';

const dirs: string[] = [];
after(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

async function warningsOpening(mode: number): Promise<string[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradeloop-storage-'));
  dirs.push(dataDir);
  fs.chmodSync(dataDir, mode);
  const lines: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line).msg) });
  const storage = await openStorage(loadConfig({ DATA_DIR: dataDir }), logger, await openTestDatabase());
  await storage.db.close();
  await storage.close();
  return lines;
}

describe(openStorage.name, () => {
  it('warns when other users of the machine can read the data directory, and says how to fix it', async () => {
    assert.deepEqual(await warningsOpening(0o700), []);
    const [warning] = await warningsOpening(0o755);
    assert.match(warning!, /^DATA_DIR can be read by other users of this machine; run: chmod 700 \/.*tradeloop-storage-/);
  });
});
