import fs from 'node:fs';
import path from 'node:path';
import { masterKeyFromText, newMasterKeyText } from '../auth/secret-box.ts';
import { ConfigError } from './config.ts';

/**
 * The key that seals secrets at rest: TRADELOOP_MASTER_KEY, else `master.key` in the data
 * directory, created (mode 0600) on first use. Losing it makes stored secrets unreadable.
 */
export function resolveMasterKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured !== undefined) return masterKeyFromText(configured);
  const file = path.join(dataDir, 'master.key');
  if (!fs.existsSync(file)) createOnce(file, `${newMasterKeyText()}\n`);
  const text = fs.readFileSync(file, 'utf8').trim();
  // An empty file would otherwise become the passphrase "" and seal secrets with a guessable key.
  if (text === '') {
    throw new ConfigError(`The master key file ${file} is empty; restore it or set TRADELOOP_MASTER_KEY`);
  }
  return masterKeyFromText(text);
}

/**
 * Written under a temporary name, then linked into place: no process ever reads a half-written
 * key, and processes starting together (shared PostgreSQL) all end up with the same key.
 */
function createOnce(file: string, content: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, content, { mode: 0o600 });
  try {
    fs.linkSync(temporary, file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Some mounted file systems have no hard links; an exclusive create is the next best thing.
    if (code !== 'EEXIST') fs.writeFileSync(file, content, { flag: 'wx', mode: 0o600 });
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}
