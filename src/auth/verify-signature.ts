import { createHmac, timingSafeEqual, verify, type KeyObject } from 'node:crypto';
import { payloadCandidates, type SignedRequest } from './signature-payloads.ts';

/** What a key needs to check a signature: its HMAC secret or its registered RSA public key. */
export type SigningKey =
  | { scheme: 'hmac'; secret: Buffer; strict: boolean }
  | { scheme: 'rsa'; publicKey: KeyObject; strict: boolean };

const HEX_SIGNATURE = /^[0-9a-fA-F]{64}$/;

export function verifySignature(key: SigningKey, request: SignedRequest, signature: string): boolean {
  const candidates = payloadCandidates(request).filter((c) => c.coversBody || !key.strict);
  if (key.scheme === 'hmac') {
    if (!HEX_SIGNATURE.test(signature)) return false;
    const provided = Buffer.from(signature, 'hex');
    return candidates.some((candidate) =>
      timingSafeEqual(createHmac('sha256', key.secret).update(candidate.payload).digest(), provided),
    );
  }
  const provided = Buffer.from(signature.trim(), 'base64');
  if (provided.length === 0) return false;
  return candidates.some((candidate) => {
    try {
      return verify('sha256', candidate.payload, key.publicKey, provided);
    } catch {
      return false;
    }
  });
}
