/**
 * The command line's way to a server that holds the data directory: the server notes its
 * address in DATA_DIR/server.json, and the command acts through the ext/ admin API with the
 * admin key from DATA_DIR/admin-key.json, signed as any client signs.
 */
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../config/config.ts';
import { ApiError } from '../shared/errors.ts';
import type { AdminActions } from './admin-actions.ts';

export const SERVER_FILE = 'server.json';
export const ADMIN_KEY_FILE = 'admin-key.json';

/**
 * The URL of the server running with this data directory, if one is. A note left by a server
 * that was killed (its pid since reused, or nothing listening) is passed over.
 */
export async function runningServerUrl(dataDir: string): Promise<string | undefined> {
  try {
    const noted = JSON.parse(fs.readFileSync(path.join(dataDir, SERVER_FILE), 'utf8'));
    process.kill(noted.pid, 0);
    const ping = await fetch(`${noted.url}/public/api/ver1/ping`);
    return ping.ok ? String(noted.url) : undefined;
  } catch {
    return undefined;
  }
}

export function serverAdmin(dataDir: string, url: string): AdminActions {
  const keyFile = path.join(dataDir, ADMIN_KEY_FILE);
  let key: { api_key: string; secret: string };
  try {
    key = JSON.parse(fs.readFileSync(keyFile, 'utf8'));
  } catch {
    throw new ConfigError(
      `The server at ${url} holds the data directory; the command line acts through its API with the admin key in ${keyFile}, ` +
        'which is missing. Put the key back there, or stop the server first.',
    );
  }
  // The answers are the ext/ API's documented shapes.
  const call = async (method: string, route: string, body?: unknown): Promise<any> => {
    const target = `/public/api${route}`;
    const text = body === undefined ? '' : JSON.stringify(body);
    const response = await fetch(`${url}${target}`, {
      method,
      headers: {
        APIKEY: key.api_key,
        Signature: createHmac('sha256', key.secret).update(target + text).digest('hex'),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: text }),
    });
    const answer = (await response.json()) as any;
    if (!response.ok) throw new ApiError(response.status, answer.error, answer.error_description, answer.error_attributes);
    return answer;
  };
  return {
    createUser: async (name) => {
      const user = await call('POST', '/ext/users', { name });
      return { id: user.id, name: user.name };
    },
    createKey: (input) =>
      call('POST', '/ext/api_keys', {
        user: input.userName,
        name: input.name,
        permissions: input.permissions,
        strict: input.strict ?? false,
        ...(input.signing === undefined ? {} : { signing: input.signing }),
        ...(input.rsaPublicKeyPem === undefined ? {} : { rsa_public_key: input.rsaPublicKeyPem }),
      }),
    listKeys: () => call('GET', '/ext/api_keys'),
    revokeKey: async (id) => void (await call('DELETE', `/ext/api_keys/${id}`)),
    close: async () => {},
  };
}
