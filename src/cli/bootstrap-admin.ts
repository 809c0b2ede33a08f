import fs from 'node:fs';
import path from 'node:path';
import type { Core } from '../app.ts';
import { PERMISSIONS } from '../auth/permissions.ts';
import { ApiError } from '../shared/errors.ts';

/**
 * On first start with an empty database, creates the user `admin` with a key holding every
 * permission and writes it to DATA_DIR/admin-key.json (mode 0600). Only the path is logged.
 * When servers share one PostgreSQL and start together, only the one that creates `admin` does it.
 */
export async function bootstrapAdmin(core: Core): Promise<void> {
  if (!(await core.users.isEmpty())) return;
  try {
    await core.users.create('admin');
  } catch (error) {
    if (error instanceof ApiError && error.code === 'record_invalid') return;
    throw error;
  }
  const key = await core.apiKeys.create({
    userName: 'admin',
    name: 'admin (created on first start)',
    permissions: PERMISSIONS.filter((permission) => permission !== 'NONE'),
  });
  const file = path.join(core.config.dataDir, 'admin-key.json');
  fs.rmSync(file, { force: true });
  fs.writeFileSync(file, `${JSON.stringify(key, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  core.logger.info({ file }, 'created user admin and an API key with every permission');
}
