import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Credentials } from '../support/signing.ts';
import { startTestApp, type TestApp, type TestResponse } from '../support/test-app.ts';

const KEY_INVALID = { error: 'api_key_invalid_or_expired', error_description: 'Unauthorized. Invalid or expired api key. No active key has this value.' };

let t: TestApp;
let admin: Credentials;
before(async () => {
  t = await startTestApp();
  const key = await t.createKey({ user: 'operator', permissions: ['ADMIN'] });
  admin = { apiKey: key.apiKey, secret: key.secret };
});
after(() => t.close());

const postJson = (path: string, body: unknown) =>
  t.request({ method: 'POST', path, body: JSON.stringify(body), contentType: 'application/json', credentials: admin });

function recordInvalid(response: TestResponse, attributes: Record<string, string[]>) {
  assert.equal(response.status, 400, response.text);
  assert.deepEqual(response.body, { error: 'record_invalid', error_description: 'Invalid parameters', error_attributes: attributes });
}

async function createUser(name: string) {
  const response = await postJson('/ext/users', { name });
  assert.equal(response.status, 201, response.text);
  return response.body;
}

describe('POST and GET /ext/users', () => {
  it('creates a user in paper mode and lists it', async () => {
    const user = await createUser('alice');
    assert.deepEqual(Object.keys(user).sort(), ['created_at', 'id', 'locale', 'mode', 'name']);
    assert.equal(user.name, 'alice');
    assert.equal(user.mode, 'paper');
    assert.ok(Number.isInteger(user.id));
    assert.ok(!Number.isNaN(Date.parse(user.created_at)));

    const list = await t.request({ path: '/ext/users', credentials: admin });
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.find((u: { name: string }) => u.name === 'alice'), user);
  });

  it('refuses a taken, missing or invalid name', async () => {
    await createUser('bob');
    recordInvalid(await postJson('/ext/users', { name: 'bob' }), { name: ['has already been taken'] });
    recordInvalid(await postJson('/ext/users', {}), { name: ['is missing'] });
    recordInvalid(await postJson('/ext/users', { name: null }), { name: ['is invalid'] });
    recordInvalid(await postJson('/ext/users', { name: 'a b' }), { name: ['is invalid: use 1 to 64 letters, digits, _ . @ or -'] });
  });
});

describe('POST /ext/api_keys', () => {
  it('takes permissions as a JSON array; the key works at once', async () => {
    await createUser('carol');
    const created = await postJson('/ext/api_keys', { user: 'carol', name: 'bot', permissions: ['BOTS_READ', 'ACCOUNTS_READ'] });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(Object.keys(created.body).sort(), ['api_key', 'id', 'secret']);
    assert.match(created.body.api_key, /^[A-Za-z0-9]{64}$/);
    assert.match(created.body.secret, /^[A-Za-z0-9]{64}$/);

    const credentials = { apiKey: created.body.api_key, secret: created.body.secret };
    const validate = await t.request({ path: '/ver1/validate', credentials });
    assert.equal(validate.status, 200);
    const info = await t.request({ path: '/ver1/users/permissions_info', credentials });
    assert.deepEqual(info.body.permissions, ['BOTS_READ', 'ACCOUNTS_READ']);
  });

  it('takes permissions as a comma-separated form value', async () => {
    await createUser('dave');
    const body = 'user=dave&name=bot&permissions=ACCOUNTS_READ%2CACCOUNTS_WRITE&strict=true';
    const created = await t.request({ method: 'POST', path: '/ext/api_keys', body, contentType: 'application/x-www-form-urlencoded', credentials: admin });
    assert.equal(created.status, 201, created.text);
    const credentials = { apiKey: created.body.api_key, secret: created.body.secret };
    const info = await t.request({ path: '/ver1/users/permissions_info', credentials });
    assert.deepEqual(info.body, { permissions: ['ACCOUNTS_READ', 'ACCOUNTS_WRITE'], signature_type: 'hmac', strict_signing: true, signing: '3commas' });
  });

  it('names an unknown permission', async () => {
    await createUser('erin');
    const response = await postJson('/ext/api_keys', { user: 'erin', name: 'bot', permissions: 'BOTS_READ,FLY' });
    recordInvalid(response, { permissions: ['unknown: FLY'] });
  });

  it('names an unknown user', async () => {
    const response = await postJson('/ext/api_keys', { user: 'nobody', name: 'bot', permissions: ['BOTS_READ'] });
    recordInvalid(response, { user: ['no user named nobody'] });
  });

  it('names missing fields', async () => {
    recordInvalid(await postJson('/ext/api_keys', {}), { user: ['is missing'], name: ['is missing'], permissions: ['is missing'] });
  });
});

describe('GET and DELETE /ext/api_keys', () => {
  it('lists keys without their secret or full key', async () => {
    await createUser('frank');
    const created = await postJson('/ext/api_keys', { user: 'frank', name: 'listed', permissions: ['BOTS_READ'] });
    const list = await t.request({ path: '/ext/api_keys', credentials: admin });
    assert.equal(list.status, 200);
    assert.ok(!list.text.includes(created.body.api_key));
    assert.ok(!list.text.includes(created.body.secret));
    const entry = list.body.find((k: { id: number }) => k.id === created.body.id);
    assert.deepEqual(
      { ...entry, created_at: typeof entry.created_at },
      {
        id: created.body.id,
        user: 'frank',
        name: 'listed',
        key_prefix: created.body.api_key.slice(0, 8),
        signature_type: 'hmac',
        permissions: ['BOTS_READ'],
        strict: false,
        signing: '3commas',
        created_at: 'string',
        revoked_at: null,
      },
    );
  });

  it('revokes a key, which then gets 401', async () => {
    const { id, apiKey, secret } = await t.createKey();
    assert.equal((await t.request({ path: '/ver1/validate', credentials: { apiKey, secret } })).status, 200);
    const revoked = await t.request({ method: 'DELETE', path: `/ext/api_keys/${id}`, credentials: admin });
    assert.equal(revoked.status, 200);
    assert.deepEqual(revoked.body, { id, revoked: true });
    const refused = await t.request({ path: '/ver1/validate', credentials: { apiKey, secret } });
    assert.equal(refused.status, 401);
    assert.deepEqual(refused.body, KEY_INVALID);
    const list = await t.request({ path: '/ext/api_keys', credentials: admin });
    assert.equal(typeof list.body.find((k: { id: number }) => k.id === id).revoked_at, 'string');
  });

  it('answers 404 for an unknown or already revoked id', async () => {
    const { id } = await t.createKey();
    await t.request({ method: 'DELETE', path: `/ext/api_keys/${id}`, credentials: admin });
    for (const unknown of [id, 987654, 2 ** 53 - 1]) {
      const response = await t.request({ method: 'DELETE', path: `/ext/api_keys/${unknown}`, credentials: admin });
      assert.equal(response.status, 404);
      assert.deepEqual(response.body, { error: 'not_found', error_description: 'Not Found' });
    }
  });

  it('answers 404 for an id that is not a plain integer, and 400 naming id for 0', async () => {
    // Each of these would read as id 1 (the operator's own key) under a lenient conversion.
    for (const id of ['abc', '1.5', '1.0', '0x1', '1e0', '%201', '-3']) {
      const response = await t.request({ method: 'DELETE', path: `/ext/api_keys/${id}`, credentials: admin });
      assert.equal(response.status, 404, id);
      assert.deepEqual(response.body, { error: 'not_found', error_description: 'Not Found' });
    }
    const zero = await t.request({ method: 'DELETE', path: '/ext/api_keys/0', credentials: admin });
    assert.equal(zero.status, 400);
    assert.deepEqual(Object.keys(zero.body.error_attributes), ['id']);
    assert.equal((await t.request({ path: '/ext/users', credentials: admin })).status, 200);
  });
});
