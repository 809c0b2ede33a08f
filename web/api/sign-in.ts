/**
 * Signing in checks the key against the server and learns how it signs: TL1 first (the scheme
 * the dashboard should use), then the default 3Commas payloads. RSA keys cannot sign here.
 */
import { ApiClient, type Mode, publicGet, type Session } from './client.ts';
import { ApiError } from './errors.ts';
import type { SigningScheme } from './signing.ts';
import { DEFAULT_REFRESH_MS } from '../lib/use-poll.ts';

interface PermissionsInfo {
  permissions: string[];
  signature_type: string;
  signing: SigningScheme;
}

const RSA_REFUSED =
  'RSA keys cannot sign in here: the dashboard signs with HMAC in the browser. Create an HMAC key for it, preferably with TL1 signing (npx tradeloop keys create ... --signing tl1).';

export async function signIn(apiKey: string, secret: string): Promise<Session> {
  if (apiKey.trim() === '' || secret.trim() === '') throw new ApiError('Enter both the API key and its secret.', 0, 'missing');
  if (secret.includes('-----BEGIN')) throw new ApiError(RSA_REFUSED, 0, 'rsa_key');
  const { server_time: serverTime } = await publicGet<{ server_time: number }>('/ver1/time');
  const clockOffset = serverTime - Math.floor(Date.now() / 1000);
  for (const scheme of ['tl1', '3commas'] as const) {
    const session: Session = { apiKey: apiKey.trim(), secret: secret.trim(), scheme, permissions: [], mode: 'paper', refreshMs: DEFAULT_REFRESH_MS, clockOffset };
    const client = new ApiClient(session);
    let info: PermissionsInfo;
    try {
      info = await client.get<PermissionsInfo>('/ver1/users/permissions_info');
    } catch (error) {
      if (error instanceof ApiError && error.code === 'signature_invalid') continue;
      throw error;
    }
    if (info.signature_type !== 'hmac') throw new ApiError(RSA_REFUSED, 0, 'rsa_key');
    const signedIn = { ...session, scheme: info.signing, permissions: info.permissions };
    return { ...signedIn, mode: await currentMode(new ApiClient(signedIn), info.permissions) };
  }
  throw new ApiError(
    'The secret does not match this key: neither a TL1 nor a 3Commas signature made with it was accepted.',
    401,
    'signature_invalid',
  );
}

async function currentMode(client: ApiClient, permissions: string[]): Promise<Mode> {
  if (!permissions.includes('ACCOUNTS_READ')) return 'paper';
  return (await client.get<{ mode: Mode }>('/ver1/users/current_mode', { mode: null })).mode;
}
