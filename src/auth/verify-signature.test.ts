import assert from 'node:assert/strict';
import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
import { describe, it } from 'node:test';
import { hmacSecretKey } from './key-material.ts';
import { payloadCandidates, strictlyReencoded } from './signature-payloads.ts';
import { type SigningKey, verifyRequest } from './verify-signature.ts';

// The reference documentation's own example secret and signatures (docs/signing.md).
const DOC_SECRET = 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j';
const CHANGE_MODE = '/public/api/ver1/users/change_mode';
const hmacKey = (strict = false): SigningKey => ({
  scheme: 'hmac',
  secret: hmacSecretKey(DOC_SECRET),
  strict,
  signing: '3commas',
});
/** A 3Commas signature check: neither the method nor a timestamp counts. */
const verifySignature = (key: SigningKey, signed: { rawUrl: string; body: Buffer }, signature: string) =>
  verifyRequest(key, { ...signed, method: 'GET', timestamp: undefined }, signature, 0).ok;
const hmac = (payload: string) => createHmac('sha256', DOC_SECRET).update(payload).digest('hex');
const request = (rawUrl: string, body = '') => ({ rawUrl, body: Buffer.from(body) });

describe('official HMAC test vectors', () => {
  it('verifies the query-string request', () => {
    const signature = 'bca8d8c10acfbe8e76c5335d3efbe0a550487170a8bb7aaea0a13efabab55316';
    assert.equal(verifySignature(hmacKey(), request(`${CHANGE_MODE}?mode=paper`), signature), true);
  });

  it('verifies the form-body request with the same signature', () => {
    const signature = 'bca8d8c10acfbe8e76c5335d3efbe0a550487170a8bb7aaea0a13efabab55316';
    assert.equal(verifySignature(hmacKey(), request(CHANGE_MODE, 'mode=paper'), signature), true);
    assert.equal(verifySignature(hmacKey(true), request(CHANGE_MODE, 'mode=paper'), signature), true);
  });

  it('verifies the raw JSON request', () => {
    const signature = '0475b407ba6f2388d213134e478b330f74073388a232737837f79018694ae373';
    const body = '{"mode": "paper"}';
    assert.equal(verifySignature(hmacKey(), request(CHANGE_MODE, body), signature), true);
    assert.equal(verifySignature(hmacKey(true), request(CHANGE_MODE, body), signature), true);
  });

  it('compares hex case-insensitively', () => {
    const signature = 'BCA8D8C10ACFBE8E76C5335D3EFBE0A550487170A8BB7AAEA0A13EFABAB55316';
    assert.equal(verifySignature(hmacKey(), request(`${CHANGE_MODE}?mode=paper`), signature), true);
  });

  it('rejects a tampered query, body, signature or non-hex text', () => {
    const signature = 'bca8d8c10acfbe8e76c5335d3efbe0a550487170a8bb7aaea0a13efabab55316';
    assert.equal(verifySignature(hmacKey(), request(`${CHANGE_MODE}?mode=real`), signature), false);
    assert.equal(verifySignature(hmacKey(), request(CHANGE_MODE, 'mode=real'), signature), false);
    assert.equal(verifySignature(hmacKey(), request(`${CHANGE_MODE}?mode=paper`), `${signature.slice(0, 63)}0`), false);
    assert.equal(verifySignature(hmacKey(), request(`${CHANGE_MODE}?mode=paper`), 'zz'), false);
    assert.equal(verifySignature(hmacKey(), request(`${CHANGE_MODE}?mode=paper`), ''), false);
  });
});

describe('candidate payloads', () => {
  const path = '/public/api/ver1/grid_bots';
  const cases: Array<[string, string, string]> = [
    ['1: path and query as sent', `${path}?limit=5&state=enabled`, `${path}?limit=5&state=enabled`],
    ['1: path alone', path, path],
    ['4: strict re-encoding of brackets', `${path}?account_ids[]=1&account_ids[]=2`, `${path}?account_ids%5B0%5D=1&account_ids%5B1%5D=2`],
    ['4: plus as %20', `${path}?note=a+b`, `${path}?note=a%20b`],
    ['4: brackets sent bare, signed percent-encoded and unindexed', `${path}?account_ids[]=7`, `${path}?account_ids%5B%5D=7`],
    ['5: sorted parts', `${path}?state=enabled&limit=5`, `${path}?limit=5&state=enabled`],
    ['6: bare trailing question mark', path, `${path}?`],
  ];
  for (const [name, rawUrl, signed] of cases) {
    it(`accepts candidate ${name}`, () => {
      assert.equal(verifySignature(hmacKey(), request(rawUrl), hmac(signed)), true);
    });
  }

  it('accepts path?query followed by the body (candidate 2)', () => {
    const body = '{"name":"x"}';
    assert.equal(verifySignature(hmacKey(true), request(`${path}?a=1`, body), hmac(`${path}?a=1${body}`)), true);
    assert.equal(verifySignature(hmacKey(true), request(path, body), hmac(`${path}${body}`)), true);
  });

  it('accepts a signature over the path alone for a JSON body, except on strict keys', () => {
    const body = '{"mode": "paper"}';
    assert.equal(verifySignature(hmacKey(), request(CHANGE_MODE, body), hmac(CHANGE_MODE)), true);
    assert.equal(verifySignature(hmacKey(true), request(CHANGE_MODE, body), hmac(CHANGE_MODE)), false);
  });

  it('signs the raw body bytes, invalid UTF-8 included', () => {
    const body = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
    const payload = Buffer.concat([Buffer.from(`${path}?`), body]);
    const signature = createHmac('sha256', DOC_SECRET).update(payload).digest('hex');
    assert.equal(verifySignature(hmacKey(), { rawUrl: path, body }, signature), true);
  });

  it('lists each distinct payload once', () => {
    const payloads = [...payloadCandidates(request(path))].map((c) => c.payload.toString());
    assert.deepEqual(payloads, [path, `${path}?`]);
  });

  it('accepts a bare trailing question mark only when the query is empty', () => {
    assert.equal(verifySignature(hmacKey(), request(`${path}?`), hmac(`${path}?`)), true);
    assert.equal(verifySignature(hmacKey(), request(`${path}?limit=5`), hmac(`${path}?`)), false);
    assert.equal(verifySignature(hmacKey(true), request(`${CHANGE_MODE}?mode=real`), hmac(`${CHANGE_MODE}?`)), false);
  });

  it('re-encodes strictly as RFC 3986 with indexed arrays, order kept', () => {
    assert.equal(strictlyReencoded('b[]=x y&a=%7E*&b[]=2', true), 'b%5B0%5D=x%20y&a=~%2A&b%5B1%5D=2');
    assert.equal(strictlyReencoded('b[]=x y&a=%7E*&b[]=2', false), 'b%5B%5D=x%20y&a=~%2A&b%5B%5D=2');
  });
});

describe('RSA signatures', () => {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const rsaKey = (strict = false): SigningKey => ({ scheme: 'rsa', publicKey, strict, signing: '3commas' });
  const rsa = (payload: string) => sign('sha256', Buffer.from(payload), privateKey).toString('base64');

  it('verifies query and form requests over path?params', () => {
    const signature = rsa(`${CHANGE_MODE}?mode=paper`);
    assert.equal(verifySignature(rsaKey(), request(`${CHANGE_MODE}?mode=paper`), signature), true);
    assert.equal(verifySignature(rsaKey(), request(CHANGE_MODE, 'mode=paper'), signature), true);
  });

  it('verifies a JSON body signed as path + body without a question mark', () => {
    const body = '{"mode": "paper"}';
    assert.equal(verifySignature(rsaKey(true), request(CHANGE_MODE, body), rsa(`${CHANGE_MODE}${body}`)), true);
  });

  it('rejects another key, a changed payload and garbage', () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const foreign = sign('sha256', Buffer.from(CHANGE_MODE), other).toString('base64');
    assert.equal(verifySignature(rsaKey(), request(CHANGE_MODE), foreign), false);
    assert.equal(verifySignature(rsaKey(), request(`${CHANGE_MODE}?mode=real`), rsa(`${CHANGE_MODE}?mode=paper`)), false);
    assert.equal(verifySignature(rsaKey(), request(CHANGE_MODE), 'not base64 at all!'), false);
    assert.equal(verifySignature(rsaKey(), request(CHANGE_MODE), ''), false);
  });

  it('does not accept an HMAC of the payload as an RSA signature', () => {
    assert.equal(verifySignature(rsaKey(), request(CHANGE_MODE), hmac(CHANGE_MODE)), false);
  });
});

describe('why a signature is refused', () => {
  const reason = (key: SigningKey, signed: { rawUrl: string; body: Buffer }, signature: string | undefined) => {
    const verdict = verifyRequest(key, { ...signed, method: 'POST', timestamp: undefined }, signature, 0);
    return verdict.ok ? 'accepted' : verdict.reason;
  };

  it('names a missing header, a malformed signature, a strict key and a plain mismatch', () => {
    const body = '{"mode": "paper"}';
    assert.equal(reason(hmacKey(), request(CHANGE_MODE), undefined), 'The Signature header is missing.');
    assert.equal(reason(hmacKey(), request(CHANGE_MODE), 'zz'), 'It must be 64 hex digits (HMAC-SHA256).');
    assert.equal(reason(hmacKey(true), request(CHANGE_MODE, body), hmac(CHANGE_MODE)), 'It leaves out the body, which this strict key does not accept.');
    assert.equal(reason(hmacKey(), request(CHANGE_MODE, body), hmac('other')), 'It matches none of the payloads 3Commas clients sign.');
  });

  it('lists the payloads it tried, the body by its size only', () => {
    const verdict = verifyRequest(hmacKey(), { ...request(`${CHANGE_MODE}?a=1`, 'secret=1'), method: 'POST', timestamp: undefined }, hmac('x'), 0);
    assert.ok(!verdict.ok);
    assert.deepEqual(verdict.tried.slice(0, 2), [`${CHANGE_MODE}?a=1<body, 8 bytes>`, `${CHANGE_MODE}?a=1`]);
    assert.ok(verdict.tried.every((text) => !text.includes('secret=1')));
  });
});
