import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from './config.ts';

/** Kernel file systems: writes there fail late and strangely, or hang. */
const PSEUDO_FILE_SYSTEMS = ['/proc', '/sys', '/dev'];

/**
 * Makes sure DATA_DIR is a directory this process can write (creating it, mode 0700), before
 * anything is opened in it, so a wrong setting is one clear line instead of a failure deep in
 * the database.
 */
export function checkDataDir(dataDir: string): void {
  const fail = (problem: string) =>
    new ConfigError(`DATA_DIR (--data-dir) ${dataDir} ${problem}; set it to a directory this user can write, such as ./data`);
  const resolved = path.resolve(dataDir);
  if (PSEUDO_FILE_SYSTEMS.some((root) => resolved === root || resolved.startsWith(`${root}/`))) {
    throw fail('is on a kernel file system');
  }
  if (fs.existsSync(resolved) && !fs.statSync(resolved).isDirectory()) throw fail('is a file, not a directory');
  try {
    fs.mkdirSync(resolved, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw fail(`cannot be created (${(error as NodeJS.ErrnoException).code})`);
  }
  // A probe file, because permission bits say nothing for root or on a read-only mount.
  const probe = path.join(resolved, `.write-check-${process.pid}`);
  try {
    fs.writeFileSync(probe, '');
    fs.rmSync(probe);
  } catch (error) {
    throw fail(`is not writable (${(error as NodeJS.ErrnoException).code})`);
  }
}
