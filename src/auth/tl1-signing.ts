/**
 * TL1, the signing scheme a key can be created with instead of the 3Commas one (docs/signing.md).
 * The 3Commas payload covers neither the method nor, for most clients, the body, and carries no
 * time, so a captured signature for a read could be replayed as a write on the same path. A TL1
 * signature covers the method, the path and query exactly as sent, a SHA-256 digest of the body
 * and a timestamp, and is only accepted within WINDOW_SECONDS of the server's clock. Everything in
 * it is what WebCrypto offers a browser: SHA-256 digests, HMAC-SHA256, RSASSA-PKCS1-v1_5.
 */
import { createHash } from 'node:crypto';

export const TL1 = 'TL1';
export const TIMESTAMP_HEADER = 'signature-timestamp';
export const WINDOW_SECONDS = 30;

export interface Tl1Request {
  method: string;
  /** The request target exactly as received: path, then optionally ? and the raw query. */
  rawUrl: string;
  body: Buffer;
  timestamp: string;
}

/** The signed text: six lines, `TL1`, timestamp, method, path, query (without `?`), body digest (hex). */
export function tl1Payload(request: Tl1Request): string {
  const questionMark = request.rawUrl.indexOf('?');
  const path = questionMark === -1 ? request.rawUrl : request.rawUrl.slice(0, questionMark);
  const query = questionMark === -1 ? '' : request.rawUrl.slice(questionMark + 1);
  const digest = createHash('sha256').update(request.body).digest('hex');
  return [TL1, request.timestamp, request.method.toUpperCase(), path, query, digest].join('\n');
}

/** Why a timestamp is refused at `nowMs`, or undefined when it is within the window. */
export function timestampProblem(timestamp: string | undefined, nowMs: number): string | undefined {
  const nowSeconds = Math.floor(nowMs / 1000);
  if (timestamp === undefined) return 'The Signature-Timestamp header is missing; this key signs with TL1.';
  if (!/^\d{1,12}$/.test(timestamp)) return 'The Signature-Timestamp header must be Unix seconds.';
  const skew = Math.abs(Number(timestamp) - nowSeconds);
  if (skew > WINDOW_SECONDS) {
    return `The Signature-Timestamp is ${skew} s from the server's time (${nowSeconds}); at most ${WINDOW_SECONDS} s are allowed.`;
  }
  return undefined;
}
