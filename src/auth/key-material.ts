import { createHash, createPublicKey, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 64 alphanumeric characters, the shape of the reference service's keys and secrets. */
export function randomToken(length = 64): string {
  const bytes = randomBytes(length * 2);
  let token = '';
  for (const byte of bytes) {
    // 248 = 4 * 62: rejecting higher bytes keeps every character equally likely.
    if (byte < 248) token += ALPHANUMERIC[byte % 62];
    if (token.length === length) return token;
  }
  return token + randomToken(length - token.length);
}

/** Parses a PEM (SPKI or PKCS#1) RSA public key; throws with a readable message otherwise. */
export function parseRsaPublicKey(pem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch {
    throw new Error('not a PEM encoded public key');
  }
  if (key.asymmetricKeyType !== 'rsa') throw new Error('the public key must be an RSA key');
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < 2048) throw new Error('the RSA key must have at least 2048 bits');
  return key;
}

/** API keys are looked up by this hash; the key itself is never stored. */
export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}

/** An HMAC secret as a key object, imported once instead of on every signature check. */
export function hmacSecretKey(secret: string): KeyObject {
  return createSecretKey(Buffer.from(secret, 'utf8'));
}
