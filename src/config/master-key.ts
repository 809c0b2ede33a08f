import fs from 'node:fs';
import path from 'node:path';
import { masterKeyFromText, newMasterKeyText } from '../auth/secret-box.ts';

/**
 * The key that seals secrets at rest: TRADELOOP_MASTER_KEY, else `master.key` in the data
 * directory, created (mode 0600) on first use. Losing it makes stored secrets unreadable.
 */
export function resolveMasterKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured !== undefined) return masterKeyFromText(configured);
  const file = path.join(dataDir, 'master.key');
  try {
    fs.writeFileSync(file, `${newMasterKeyText()}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return masterKeyFromText(fs.readFileSync(file, 'utf8').trim());
}
