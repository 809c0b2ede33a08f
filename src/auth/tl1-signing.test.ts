import assert from 'node:assert/strict';
import { createHash, createHmac, generateKeyPairSync, sign } from 'node:crypto';
import { describe, it } from 'node:test';
import { hmacSecretKey } from './key-material.ts';
import { tl1Payload } from './tl1-signing.ts';
import { type RequestToVerify, type SigningKey, verifyRequest } from './verify-signature.ts';

const SECRET = 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j';
const NOW_MS = 1_767_225_600_000;
const NOW = String(NOW_MS / 1000);
const key: SigningKey = { scheme: 'hmac', secret: hmacSecretKey(SECRET), strict: false, signing: 'tl1' };
const hmac = (text: string) => createHmac('sha256', SECRET).update(text).digest('hex');
const GRID = '/public/api/ver1/grid_bots/7';
const get = (overrides: Partial<RequestToVerify> = {}): RequestToVerify => ({
  method: 'GET', rawUrl: GRID, body: Buffer.alloc(0), timestamp: NOW, ...overrides,
});
const verdict = (request: RequestToVerify, signature: string, nowMs = NOW_MS) => {
  const result = verifyRequest(key, request, signature, nowMs);
  return result.ok ? 'accepted' : result.reason;
};

describe('the TL1 payload', () => {
  it('is six lines: scheme, timestamp, method, path, query and the hex SHA-256 of the body', () => {
    const body = Buffer.from('{"note":"x"}');
    const text = tl1Payload({ method: 'post', rawUrl: `${GRID}/note?a=1&b[]=2`, body, timestamp: NOW });
    const digest = createHash('sha256').update(body).digest('hex');
    assert.equal(text, `TL1\n${NOW}\nPOST\n${GRID}/note\na=1&b[]=2\n${digest}`);
  });

  it('matches the vectors docs/signing.md publishes', () => {
    const remove = tl1Payload({ method: 'DELETE', rawUrl: GRID, body: Buffer.alloc(0), timestamp: '1767225600' });
    assert.equal(remove, `TL1\n1767225600\nDELETE\n${GRID}\n\ne3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855`);
    assert.equal(hmac(remove), '90cf04a88fed9f542e19f7ade7b28eeb0f8f5a6d23d9faa6e7ee1e99ee02f268');
    const note = tl1Payload({ method: 'POST', rawUrl: `${GRID}/note`, body: Buffer.from('{"note":"hello"}'), timestamp: '1767225600' });
    assert.equal(hmac(note), '90cec58e14f133b49d1a59cf4168b507b21544a4eefaa2632557b53b8456e76a');
  });

  it('can be signed with WebCrypto alone, as a browser would', async () => {
    const { subtle } = globalThis.crypto;
    const encode = (text: string) => new TextEncoder().encode(text);
    const hex = (bytes: ArrayBuffer) => Buffer.from(bytes).toString('hex');
    const body = '{"note":"hello"}';
    const text = ['TL1', NOW, 'POST', `${GRID}/note`, '', hex(await subtle.digest('SHA-256', encode(body)))].join('\n');
    const secret = await subtle.importKey('raw', encode(SECRET), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const signature = hex(await subtle.sign('HMAC', secret, encode(text)));
    const request = get({ method: 'POST', rawUrl: `${GRID}/note`, body: Buffer.from(body) });
    assert.equal(verdict(request, signature), 'accepted');
  });
});

describe('a TL1 key', () => {
  const signed = (request: RequestToVerify) => hmac(tl1Payload({ ...request, timestamp: request.timestamp! }));

  it('accepts its own signature within 30 s of the server clock', () => {
    assert.equal(verdict(get(), signed(get())), 'accepted');
    assert.equal(verdict(get(), signed(get()), NOW_MS + 30_000), 'accepted');
    assert.equal(verdict(get(), signed(get()), NOW_MS - 30_000), 'accepted');
  });

  it('refuses a GET signature used for a DELETE, another query or another body', () => {
    const signature = signed(get());
    const mismatch = 'It does not match the TL1 payload of this request.';
    assert.equal(verdict(get({ method: 'DELETE' }), signature), mismatch);
    assert.equal(verdict(get({ rawUrl: `${GRID}?x=1` }), signature), mismatch);
    const post = get({ method: 'POST', body: Buffer.from('{"a":1}') });
    assert.equal(verdict({ ...post, body: Buffer.from('{"a":2}') }, signed(post)), mismatch);
  });

  it('refuses a missing, malformed or stale timestamp', () => {
    assert.match(verdict(get({ timestamp: undefined }), signed(get())), /Signature-Timestamp header is missing/);
    assert.match(verdict(get({ timestamp: '1.5' }), signed(get())), /must be Unix seconds/);
    assert.match(verdict(get(), signed(get()), NOW_MS + 31_000), /is 31 s from the server's time .* at most 30 s/);
  });

  it('refuses every 3Commas payload', () => {
    for (const legacy of [GRID, `${GRID}?`]) assert.equal(verdict(get(), hmac(legacy)), 'It does not match the TL1 payload of this request.');
  });

  it('verifies RSA keys the same way', () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const rsa: SigningKey = { scheme: 'rsa', publicKey, strict: false, signing: 'tl1' };
    const text = tl1Payload({ ...get(), timestamp: NOW });
    const signature = sign('sha256', Buffer.from(text), privateKey).toString('base64');
    assert.equal(verifyRequest(rsa, get(), signature, NOW_MS).ok, true);
    assert.equal(verifyRequest(rsa, get({ method: 'DELETE' }), signature, NOW_MS).ok, false);
  });
});
