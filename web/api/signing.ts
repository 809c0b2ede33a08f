/**
 * Request signatures made in the browser with WebCrypto (docs/signing.md). TL1 keys sign the
 * method, path, query, body digest and a timestamp. Default (3Commas) keys sign the path, `?` and
 * query followed by the body, as the reference examples do: a payload that covers the body, so
 * strict keys accept it too.
 */
export type SigningScheme = 'tl1' | '3commas';

const encoder = new TextEncoder();
const hex = (buffer: ArrayBuffer) => [...new Uint8Array(buffer)].map((byte) => byte.toString(16).padStart(2, '0')).join('');

const importKey = (secret: string) =>
  crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);

const keys = new Map<string, ReturnType<typeof importKey>>();

function hmacKey(secret: string): ReturnType<typeof importKey> {
  let key = keys.get(secret);
  if (!key) {
    key = importKey(secret);
    keys.set(secret, key);
  }
  return key;
}

async function hmacHex(secret: string, text: string): Promise<string> {
  return hex(await crypto.subtle.sign('HMAC', await hmacKey(secret), encoder.encode(text)));
}

export interface SignedRequest {
  method: string;
  /** Path as sent, /public/api included. */
  path: string;
  /** Query as sent, without the `?`; empty when there is none. */
  query: string;
  body: string;
}

export async function signatureHeaders(
  scheme: SigningScheme,
  apiKey: string,
  secret: string,
  request: SignedRequest,
  nowSeconds: number,
): Promise<Record<string, string>> {
  if (scheme === '3commas') {
    // The reference's own examples: `P?Q` + body, or `P?` + body when there is a body and no query.
    const target = request.query !== '' ? `${request.path}?${request.query}` : request.body !== '' ? `${request.path}?` : request.path;
    return { Apikey: apiKey, Signature: await hmacHex(secret, target + request.body) };
  }
  const timestamp = String(nowSeconds);
  const digest = hex(await crypto.subtle.digest('SHA-256', encoder.encode(request.body)));
  const text = ['TL1', timestamp, request.method.toUpperCase(), request.path, request.query, digest].join('\n');
  return { Apikey: apiKey, 'Signature-Timestamp': timestamp, Signature: await hmacHex(secret, text) };
}
