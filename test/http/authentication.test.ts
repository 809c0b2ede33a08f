/**
 * Authentication beyond the access table: TL1 keys (a signature bound to its method, body and
 * time), the limit on failed authentications per address, and bodies that are neither read nor
 * parsed before the key is known.
 */
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { buildApp, openCore } from '../../src/app.ts';
import { PERMISSIONS } from '../../src/auth/permissions.ts';
import { loadConfig } from '../../src/config/config.ts';
import { postJson } from '../support/api.ts';
import { openTestDatabase } from '../support/database.ts';
import type { Credentials } from '../support/signing.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let clockMs = Date.UTC(2026, 0, 1);
let t: TestApp;
let admin: Credentials;
before(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '1000' }, { now: () => new Date(clockMs) });
  admin = await t.createKey({ permissions: PERMISSIONS.filter((p) => p !== 'NONE') });
});
after(() => t.close());

/** A TL1 signature, computed as docs/signing.md tells a client to. */
function tl1(secret: string, method: string, target: string, body = '', timestamp = String(Math.floor(clockMs / 1000))) {
  const [path, query = ''] = `/public/api${target}`.split('?');
  const digest = createHash('sha256').update(body).digest('hex');
  const text = ['TL1', timestamp, method, path, query, digest].join('\n');
  return { 'Signature-Timestamp': timestamp, Signature: createHmac('sha256', secret).update(text).digest('hex') };
}

const send = (method: string, path: string, apiKey: string, headers: Record<string, string>, body?: string) =>
  t.request({ method, path, headers: { Apikey: apiKey, ...headers }, ...(body === undefined ? {} : { body, contentType: 'application/json' }) });

describe('a key created with TL1 signing', () => {
  let key: { id: number; api_key: string; secret: string };
  before(async () => {
    assert.equal((await postJson(t, '/ext/users', { name: 'tl1user' }, admin)).status, 201);
    const created = await postJson(t, '/ext/api_keys', { user: 'tl1user', name: 'dashboard', permissions: 'BOTS_READ,ACCOUNTS_WRITE', signing: 'tl1' }, admin);
    assert.equal(created.status, 201, created.text);
    key = created.body;
    const listed = await t.request({ path: '/ext/api_keys', credentials: admin });
    assert.equal(listed.body.find((entry: { id: number }) => entry.id === key.id)?.signing, 'tl1');
  });

  it('is answered when the request is signed with TL1', async () => {
    const response = await send('GET', '/ver1/users/permissions_info', key.api_key, tl1(key.secret, 'GET', '/ver1/users/permissions_info'));
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.signing, 'tl1');
  });

  it("refuses a GET's signature used for a DELETE on the same path", async () => {
    const target = '/ext/api_keys/999999';
    const captured = tl1(key.secret, 'GET', target);
    const response = await send('DELETE', target, key.api_key, captured);
    assert.equal(response.status, 401);
    assert.deepEqual(response.body, {
      error: 'signature_invalid',
      error_description: 'Provided signature is invalid. It does not match the TL1 payload of this request.',
    });
  });

  it('refuses a signature over another body', async () => {
    const signed = tl1(key.secret, 'POST', '/ver1/users/change_mode', '{"mode":"paper"}');
    const response = await send('POST', '/ver1/users/change_mode', key.api_key, signed, '{"mode":"real"}');
    assert.equal(response.status, 401);
  });

  it('refuses the 3Commas payloads', async () => {
    const signature = createHmac('sha256', key.secret).update('/public/api/ver1/validate').digest('hex');
    assert.equal((await send('GET', '/ver1/validate', key.api_key, { Signature: signature })).status, 401);
  });

  it('refuses a signature replayed more than 30 s later', async () => {
    const signed = tl1(key.secret, 'GET', '/ver1/validate');
    assert.equal((await send('GET', '/ver1/validate', key.api_key, signed)).status, 200);
    clockMs += 31_000;
    const replayed = await send('GET', '/ver1/validate', key.api_key, signed);
    assert.equal(replayed.status, 401);
    assert.match(replayed.body.error_description, /Signature-Timestamp is 31 s from the server's time/);
    assert.equal((await send('GET', '/ver1/validate', key.api_key, tl1(key.secret, 'GET', '/ver1/validate'))).status, 200);
  });
});

describe('a key created with the 3Commas signing (the default)', () => {
  it('accepts a JSON body signed as the reference documents, without a timestamp', async () => {
    const { apiKey, secret } = await t.createKey();
    const body = '{"mode": "paper"}';
    const signature = createHmac('sha256', secret).update(`/public/api/ver1/users/change_mode?${body}`).digest('hex');
    const response = await send('POST', '/ver1/users/change_mode', apiKey, { Signature: signature }, body);
    assert.equal(response.status, 201, response.text);
  });
});

describe('bodies', () => {
  const unknownKey = { Apikey: 'x'.repeat(64), Signature: 'ab'.repeat(32) };

  it('are not read for a request without a known key, however large', async () => {
    const response = await t.request({ method: 'POST', path: '/ver1/users/change_mode', body: 'x'.repeat(2 * 1024 * 1024), contentType: 'application/json', headers: unknownKey });
    assert.equal(response.status, 401, response.text);
    assert.equal(response.body.error, 'api_key_invalid_or_expired');
  });

  it('are not parsed before their signature is checked', async () => {
    const { apiKey } = await t.createKey();
    const response = await t.request({ method: 'POST', path: '/ver1/users/change_mode', body: '{"mode":', contentType: 'application/json', headers: { Apikey: apiKey, Signature: 'ab'.repeat(32) } });
    assert.equal(response.status, 401, response.text);
    assert.equal(response.body.error, 'signature_invalid');
  });
});

describe('failed authentications', () => {
  it('are limited per address: past 20 a minute, even a valid key waits for the next minute', async () => {
    clockMs += 61_000;
    const { apiKey, secret } = await t.createKey();
    const valid = { apiKey, secret };
    assert.equal((await t.request({ path: '/ver1/validate', credentials: valid })).status, 200);
    for (let failure = 1; failure <= 20; failure++) {
      const response = await t.request({ path: '/ver1/validate', credentials: { apiKey, secret: 'guess' } });
      assert.equal(response.status, 401, `failure ${failure}`);
    }
    const limited = await t.request({ path: '/ver1/validate', credentials: valid });
    assert.equal(limited.status, 429, limited.text);
    assert.equal(limited.body.error, 'rate_limit_exceeded');
    assert.match(limited.body.error_description, /^Too many failed authentications from this address; retry in \d+ seconds$/);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    assert.equal((await t.request({ path: '/ver1/ping' })).status, 200);
    clockMs += 60_000;
    assert.equal((await t.request({ path: '/ver1/validate', credentials: valid })).status, 200);
  });
});

describe('the log of a refused signature', () => {
  it('lists the payloads tried at debug level, the body by its size, and never in the reply', async () => {
    const lines: string[] = [];
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradeloop-auth-log-'));
    const db = await openTestDatabase();
    const core = await openCore(loadConfig({ PAPER_FEED: 'manual', RATE_LIMIT_PER_MINUTE: '0', DATA_DIR: dataDir }), {
      db,
      logger: pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) }),
    });
    const app = await buildApp(core);
    try {
      await core.users.create('logged');
      const key = await core.apiKeys.create({ userName: 'logged', name: 'k', permissions: ['ACCOUNTS_WRITE'] });
      const response = await app.inject({
        method: 'POST',
        url: '/public/api/ver1/users/change_mode?x=1',
        headers: { apikey: key.api_key, signature: 'ab'.repeat(32), 'content-type': 'application/json' },
        payload: '{"mode":"real"}',
      });
      assert.equal(response.statusCode, 401);
      assert.ok(!response.body.includes('change_mode?x=1'));
      const logged = lines.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'no signature payload matched');
      assert.equal(logged?.level, 20);
      assert.deepEqual(logged.tried.slice(0, 2), ['/public/api/ver1/users/change_mode?x=1<body, 15 bytes>', '/public/api/ver1/users/change_mode?x=1']);
      assert.ok(!lines.some((line) => line.includes('"mode":"real"')));
    } finally {
      await app.close();
      await core.close();
      await db.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
