import fs from 'node:fs';
import path from 'node:path';
import type { Core } from '../app.ts';
import { PERMISSIONS } from '../auth/permissions.ts';
import { ApiError } from '../shared/errors.ts';
import { ADMIN_KEY_FILE } from './running-server.ts';

const KEY_NAME = 'admin (created on first start)';
/** Present from before the user `admin` is made until its key file is written. */
const PENDING_FILE = 'admin-key.pending';

/**
 * On first start with an empty database, creates the user `admin` with a key holding every
 * permission and writes it to DATA_DIR/admin-key.json (mode 0600). Only the path is logged.
 * A start stopped halfway (the user made, the file not yet written) leaves the pending mark, and
 * the next start finishes the work with a new key, revoking the one nobody ever saw.
 * When servers share one PostgreSQL and start together, only the one that creates `admin` does it.
 */
export async function bootstrapAdmin(core: Core): Promise<void> {
  const file = path.join(core.config.dataDir, ADMIN_KEY_FILE);
  const pending = path.join(core.config.dataDir, PENDING_FILE);
  if (fs.existsSync(pending)) {
    await finish(core, file, pending);
  } else if (await core.users.isEmpty()) {
    fs.writeFileSync(pending, '', { mode: 0o600 });
    try {
      await core.users.create('admin');
    } catch (error) {
      fs.rmSync(pending, { force: true });
      if (error instanceof ApiError && error.code === 'record_invalid') return;
      throw error;
    }
    await finish(core, file, pending);
  }
  if (fs.existsSync(file)) {
    core.logger.info({ file }, 'the admin API key (every permission) is in this file: store it somewhere safe, then delete the file');
  }
}

async function finish(core: Core, file: string, pending: string): Promise<void> {
  if (!(await core.users.findByName('admin'))) await core.users.create('admin');
  for (const key of await core.apiKeys.list()) {
    if (key.userName === 'admin' && key.name === KEY_NAME && key.revokedAt === null) await core.apiKeys.revoke(key.id);
  }
  const key = await core.apiKeys.create({
    userName: 'admin',
    name: KEY_NAME,
    permissions: PERMISSIONS.filter((permission) => permission !== 'NONE'),
  });
  const partial = `${file}.partial`;
  fs.writeFileSync(partial, `${JSON.stringify(key, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(partial, file);
  fs.rmSync(pending);
  core.logger.info({ file }, 'created user admin and an API key with every permission');
}
