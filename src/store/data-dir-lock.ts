import fs from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {
  override readonly name = 'DataDirLockedError';
}

/**
 * Locks this process holds. Its own pid in a lock file it does not hold is stale: left by an
 * earlier process that had the same pid (pid 1 in a container that restarted).
 */
const held = new Set<string>();

/**
 * PGlite has no cross-process lock, and two processes writing one data directory corrupt it.
 * The lock file holds the owner's pid; a lock whose process is gone (after a crash) is taken over.
 * Known limit: two processes taking over the same stale lock at the same instant can both succeed.
 */
export function lockDataDir(dataDir: string): () => void {
  const lockPath = path.join(path.resolve(dataDir), 'tradeloop.lock');
  if (held.has(lockPath)) {
    throw new DataDirLockedError(`The data directory ${dataDir} is already open in this process.`);
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    if (createWithPid(lockPath)) {
      held.add(lockPath);
      return () => {
        if (held.delete(lockPath)) releaseIfOwned(lockPath);
      };
    }
    const owner = Number(readOrEmpty(lockPath));
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
      throw new DataDirLockedError(
        `The data directory ${dataDir} is in use by another Tradeloop process (pid ${owner}). ` +
          'Stop it first, or while it runs manage keys through the /public/api/ext/ API.',
      );
    }
    fs.rmSync(lockPath, { force: true });
  }
  throw new DataDirLockedError(`Could not take the lock ${lockPath}`);
}

/**
 * Creates the lock file with the pid already in it (written aside, then linked into place), so that
 * another process never reads an empty lock file and takes it for a stale one. False if it exists.
 */
function createWithPid(lockPath: string): boolean {
  const temporary = `${lockPath}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, String(process.pid), { mode: 0o600 });
  try {
    fs.linkSync(temporary, lockPath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    // Some mounted file systems have no hard links; an exclusive create is the next best thing.
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx', mode: 0o600 });
      return true;
    } catch (fallbackError) {
      if ((fallbackError as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw fallbackError;
    }
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}

function releaseIfOwned(lockPath: string): void {
  if (readOrEmpty(lockPath) === String(process.pid)) fs.rmSync(lockPath, { force: true });
}

function readOrEmpty(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
