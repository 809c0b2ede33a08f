/**
 * What the `users` and `keys` commands do, in one shape for both ways to do it: on the store
 * directly, or through the running server that holds the data directory.
 */
import type { Config } from '../config/config.ts';
import { presentApiKey } from '../http/presenters/admin.presenter.ts';
import type { CreateApiKeyInput, CreatedApiKey } from '../services/api-keys.service.ts';
import { DataDirLockedError } from '../store/data-dir-lock.ts';
import { openCliCore } from './open-cli-core.ts';
import { runningServerUrl, serverAdmin } from './running-server.ts';

export type ListedApiKey = ReturnType<typeof presentApiKey>;

export interface AdminActions {
  createUser(name: string): Promise<{ id: number; name: string }>;
  createKey(input: CreateApiKeyInput): Promise<CreatedApiKey>;
  listKeys(): Promise<ListedApiKey[]>;
  /** Fails with the catalogue's not_found when no active key has this id. */
  revokeKey(id: number): Promise<void>;
  close(): Promise<void>;
}

export async function openAdmin(config: Config): Promise<AdminActions> {
  // A server noted in the data directory is asked first: with PGlite the store would refuse this
  // process, and with PostgreSQL the server holds the master key the secrets are sealed with.
  const url = await runningServerUrl(config.dataDir);
  if (url !== undefined) return serverAdmin(config.dataDir, url);
  let core: Awaited<ReturnType<typeof openCliCore>>;
  try {
    core = await openCliCore(config);
  } catch (error) {
    // The server may have noted its address only after this command looked.
    const late = error instanceof DataDirLockedError ? await runningServerUrl(config.dataDir) : undefined;
    if (late === undefined) throw error;
    return serverAdmin(config.dataDir, late);
  }
  return {
    createUser: async (name) => {
      const user = await core.users.create(name);
      return { id: user.id, name: user.name };
    },
    createKey: (input) => core.apiKeys.create(input),
    listKeys: async () => (await core.apiKeys.list()).map(presentApiKey),
    revokeKey: (id) => core.apiKeys.revoke(id),
    close: () => core.close(),
  };
}
