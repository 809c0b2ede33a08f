import { createHmac, timingSafeEqual, verify, type KeyObject } from 'node:crypto';
import { payloadCandidates, type PayloadCandidate, type SignedRequest } from './signature-payloads.ts';
import { timestampProblem, tl1Payload } from './tl1-signing.ts';

/** Which payloads a key accepts: the 3Commas clients' (see signature-payloads.ts) or TL1 only. */
export type SigningScheme = '3commas' | 'tl1';

/** What a key needs to check a signature: its HMAC secret or its registered RSA public key. */
export type SigningKey =
  | { scheme: 'hmac'; secret: KeyObject; strict: boolean; signing: SigningScheme }
  | { scheme: 'rsa'; publicKey: KeyObject; strict: boolean; signing: SigningScheme };

export interface RequestToVerify extends SignedRequest {
  method: string;
  /** The Signature-Timestamp header, which TL1 signatures cover. */
  timestamp: string | undefined;
}

/** A refusal says why, for the client, and which payloads were tried, for the debug log. */
export type Verdict = { ok: true } | { ok: false; reason: string; tried: string[] };

const HEX_SIGNATURE = /^[0-9a-fA-F]{64}$/;
const ACCEPTED: Verdict = { ok: true };
const refused = (reason: string, tried: string[] = []): Verdict => ({ ok: false, reason, tried });

export function verifyRequest(key: SigningKey, request: RequestToVerify, signature: string | undefined, nowMs: number): Verdict {
  if (signature === undefined) return refused('The Signature header is missing.');
  const matches = signatureMatcher(key, signature);
  if (!matches) return refused(key.scheme === 'hmac' ? 'It must be 64 hex digits (HMAC-SHA256).' : 'It must be Base64 (RSA-SHA256).');
  return key.signing === 'tl1' ? verifyTl1(request, matches, nowMs) : verify3Commas(key, request, matches);
}

function verifyTl1(request: RequestToVerify, matches: (payload: Buffer) => boolean, nowMs: number): Verdict {
  const problem = timestampProblem(request.timestamp, nowMs);
  if (problem) return refused(problem);
  const payload = tl1Payload({ ...request, timestamp: request.timestamp! });
  return matches(Buffer.from(payload, 'utf8')) ? ACCEPTED : refused('It does not match the TL1 payload of this request.', [payload]);
}

function verify3Commas(key: SigningKey, request: SignedRequest, matches: (payload: Buffer) => boolean): Verdict {
  let bodyLeftOut = false;
  for (const candidate of payloadCandidates(request)) {
    if (!matches(candidate.payload)) continue;
    if (candidate.coversBody || !key.strict) return ACCEPTED;
    bodyLeftOut = true;
  }
  // Only a refusal pays for describing the candidates.
  const tried = [...payloadCandidates(request)].map((candidate) => described(candidate, request.body.length));
  return bodyLeftOut
    ? refused('It leaves out the body, which this strict key does not accept.', tried)
    : refused('It matches none of the payloads 3Commas clients sign.', tried);
}

function described(candidate: PayloadCandidate, bodyBytes: number): string {
  return candidate.includesBody ? `${candidate.head}<body, ${bodyBytes} bytes>` : candidate.head;
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

/**
 * Checks a signature over a fixed text (the websocket channels sign `/deals`, `/smart_trades`):
 * HMAC hex or RSA Base64 as for requests, whatever payload scheme the key uses for requests.
 */
export function verifySignedText(key: SigningKey, text: string, signature: string): boolean {
  const matches = signatureMatcher(key, signature);
  return matches !== undefined && matches(Buffer.from(text, 'utf8'));
}
