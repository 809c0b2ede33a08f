import { createHmac, timingSafeEqual, verify, type KeyObject } from 'node:crypto';
import { payloadCandidates, type SignedRequest } from './signature-payloads.ts';

/** What a key needs to check a signature: its HMAC secret or its registered RSA public key. */
export type SigningKey =
  | { scheme: 'hmac'; secret: KeyObject; strict: boolean }
  | { scheme: 'rsa'; publicKey: KeyObject; strict: boolean };

const HEX_SIGNATURE = /^[0-9a-fA-F]{64}$/;

export function verifySignature(key: SigningKey, request: SignedRequest, signature: string): boolean {
  const matches = signatureMatcher(key, signature);
  if (!matches) return false;
  for (const candidate of payloadCandidates(request)) {
    if ((candidate.coversBody || !key.strict) && matches(candidate.payload)) return true;
  }
  return false;
}

function signatureMatcher(key: SigningKey, signature: string): ((payload: Buffer) => boolean) | undefined {
  if (key.scheme === 'hmac') {
    if (!HEX_SIGNATURE.test(signature)) return undefined;
    const provided = Buffer.from(signature, 'hex');
    return (payload) => timingSafeEqual(createHmac('sha256', key.secret).update(payload).digest(), provided);
  }
  const provided = Buffer.from(signature.trim(), 'base64');
  if (provided.length === 0) return undefined;
  return (payload) => {
    try {
      return verify('sha256', payload, key.publicKey, provided);
    } catch {
      return false;
    }
  };
}
