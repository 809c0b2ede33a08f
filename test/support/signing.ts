/** Signs requests the way 3Commas clients do, for tests that act as a client. */
import { createHmac, sign, type KeyObject } from 'node:crypto';

export type Credentials =
  | { apiKey: string; secret: string }
  | { apiKey: string; privateKey: KeyObject };

export function signPayload(credentials: Credentials, payload: string | Buffer): string {
  if ('secret' in credentials) {
    return createHmac('sha256', credentials.secret).update(payload).digest('hex');
  }
  return sign('sha256', Buffer.from(payload), credentials.privateKey).toString('base64');
}
