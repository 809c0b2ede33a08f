import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { signPayload, type Credentials } from '../support/signing.ts';
import { startTestApp, type TestApp, type TestResponse } from '../support/test-app.ts';

const CHANGE_MODE = '/ver1/users/change_mode';
const FULL_CHANGE_MODE = `/public/api${CHANGE_MODE}`;
const FORM = 'application/x-www-form-urlencoded';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

async function newCredentials(options?: Parameters<TestApp['createKey']>[0]): Promise<Credentials> {
  const key = await t.createKey(options);
  return { apiKey: key.apiKey, secret: key.secret };
}

async function currentMode(credentials: Credentials, headers: Record<string, string> = {}) {
  return t.request({ path: '/ver1/users/current_mode', credentials, headers });
}

describe('system routes', () => {
  it('answers ping without a key', async () => {
    const response = await t.request({ path: '/ver1/ping' });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { pong: 'pong' });
  });

  it('gives the server time as integer Unix seconds', async () => {
    const response = await t.request({ path: '/ver1/time' });
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.body), ['server_time']);
    assert.ok(Number.isInteger(response.body.server_time));
    assert.ok(Math.abs(response.body.server_time - Date.now() / 1000) < 60);
  });

  it('validates a signed request', async () => {
    const response = await t.request({ path: '/ver1/validate', credentials: await newCredentials() });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.deepEqual(response.body, { valid: true });
  });
});

describe('change_mode and current_mode', () => {
  // As clients sign them: the docs' query, form and JSON examples, py3cw's path+body, and the
  // clients that never sign a JSON body (path alone). Every user starts in paper mode.
  const cases: Array<{ name: string; send: (c: Credentials) => Promise<TestResponse> }> = [
    {
      name: 'query string',
      send: (credentials) => t.request({ method: 'POST', path: `${CHANGE_MODE}?mode=real`, credentials }),
    },
    {
      name: 'form body signed as path?body',
      send: (credentials) =>
        t.request({ method: 'POST', path: CHANGE_MODE, body: 'mode=real', contentType: FORM, credentials, signWith: `${FULL_CHANGE_MODE}?mode=real` }),
    },
    {
      name: 'JSON body signed as path?body',
      send: (credentials) =>
        t.request({ method: 'POST', path: CHANGE_MODE, body: '{"mode": "real"}', contentType: 'application/json', credentials, signWith: `${FULL_CHANGE_MODE}?{"mode": "real"}` }),
    },
    {
      name: 'JSON body signed as path+body',
      send: (credentials) =>
        t.request({ method: 'POST', path: CHANGE_MODE, body: '{"mode":"real"}', contentType: 'application/json', credentials }),
    },
    {
      name: 'JSON body signed over the path alone',
      send: (credentials) =>
        t.request({ method: 'POST', path: CHANGE_MODE, body: '{"mode":"real"}', contentType: 'application/json', credentials, signWith: FULL_CHANGE_MODE }),
    },
  ];

  for (const { name, send } of cases) {
    it(`takes mode as ${name}, answers 201 and current_mode reflects it`, async () => {
      const credentials = await newCredentials();
      assert.deepEqual((await currentMode(credentials)).body, { mode: 'paper' });
      const response = await send(credentials);
      assert.equal(response.status, 201);
      assert.deepEqual(response.body, { mode: 'real' });
      const reflected = await currentMode(credentials);
      assert.equal(reflected.status, 200);
      assert.deepEqual(reflected.body, { mode: 'real' });
    });
  }

  it('lets Forced-Mode override the current mode for one request only', async () => {
    const credentials = await newCredentials();
    assert.deepEqual((await currentMode(credentials, { 'Forced-Mode': 'real' })).body, { mode: 'real' });
    assert.deepEqual((await currentMode(credentials)).body, { mode: 'paper' });
    await t.request({ method: 'POST', path: `${CHANGE_MODE}?mode=real`, credentials });
    assert.deepEqual((await currentMode(credentials, { 'forced-mode': 'paper' })).body, { mode: 'paper' });
    assert.deepEqual((await currentMode(credentials)).body, { mode: 'real' });
  });

  for (const value of ['demo', 'Real', '']) {
    it(`rejects Forced-Mode ${JSON.stringify(value)}`, async () => {
      const response = await currentMode(await newCredentials(), { 'Forced-Mode': value });
      assert.equal(response.status, 400);
      assert.deepEqual(response.body, {
        error: 'forced_mode_invalid',
        error_description: "Forced mode is not included in the ['real', 'paper']",
      });
    });
  }

  const badModes: Array<[string, string, string]> = [
    ['an unknown mode', '?mode=demo', 'does not have a valid value'],
    ['an empty mode', '?mode=', 'does not have a valid value'],
    ['no mode', '', 'is missing'],
  ];
  for (const [name, query, message] of badModes) {
    it(`answers 400 record_invalid for ${name}`, async () => {
      const response = await t.request({ method: 'POST', path: `${CHANGE_MODE}${query}`, credentials: await newCredentials() });
      assert.equal(response.status, 400);
      assert.deepEqual(response.body, {
        error: 'record_invalid',
        error_description: 'Invalid parameters',
        error_attributes: { mode: [message] },
      });
    });
  }

  it('lets a query-string value win over the body', async () => {
    const credentials = await newCredentials();
    const response = await t.request({ method: 'POST', path: `${CHANGE_MODE}?mode=real`, body: '{"mode":"paper"}', contentType: 'application/json', credentials });
    assert.equal(response.status, 201);
    assert.deepEqual(response.body, { mode: 'real' });
  });
});

describe('permissions_info', () => {
  it("lists the calling key's permissions", async () => {
    const credentials = await newCredentials({ permissions: ['BOTS_READ', 'ACCOUNTS_READ'] });
    const response = await t.request({ path: '/ver1/users/permissions_info', credentials });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, {
      permissions: ['BOTS_READ', 'ACCOUNTS_READ'],
      signature_type: 'hmac',
      strict_signing: false,
      signing: '3commas',
    });
  });
});

describe('request conventions', () => {
  const headerSpellings: Array<[string, string]> = [
    ['APIKEY', 'Signature'],
    ['Apikey', 'SIGNATURE'],
    ['apiKey', 'signature'],
  ];
  for (const [keyHeader, signatureHeader] of headerSpellings) {
    it(`reads the ${keyHeader} and ${signatureHeader} headers`, async () => {
      const credentials = await newCredentials();
      const headers = { [keyHeader]: credentials.apiKey, [signatureHeader]: signPayload(credentials, '/public/api/ver1/validate') };
      const response = await t.request({ path: '/ver1/validate', headers });
      assert.equal(response.status, 200);
      assert.deepEqual(response.body, { valid: true });
    });
  }

  it('parses bracketed array names in the query string', async () => {
    await t.createKey({ user: 'brackets' });
    const admin = await newCredentials({ permissions: ['ADMIN'] });
    const query = 'user=brackets&name=k&permissions[]=BOTS_READ&permissions[]=ACCOUNTS_READ';
    const created = await t.request({ method: 'POST', path: `/ext/api_keys?${query}`, credentials: admin });
    assert.equal(created.status, 201, created.text);
    const credentials = { apiKey: created.body.api_key, secret: created.body.secret };
    const info = await t.request({ path: '/ver1/users/permissions_info', credentials });
    assert.deepEqual(info.body.permissions, ['BOTS_READ', 'ACCOUNTS_READ']);
  });

  it('parses bracketed nested names into objects', async () => {
    // Left unparsed, `mode[units][value]` would not be `mode`, and mode would be "is missing".
    const path = `${CHANGE_MODE}?mode[units][value]=paper&account_ids[]=1&account_ids[]=2`;
    const response = await t.request({ method: 'POST', path, credentials: await newCredentials() });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body.error_attributes, { mode: ['does not have a valid value'] });
  });

  it('answers every reply with a JSON body, 404s and DELETE included', async () => {
    const admin = await newCredentials({ permissions: ['ADMIN'] });
    const replies = [
      await t.request({ path: '/ver1/no_such_route' }),
      await t.request({ method: 'DELETE', path: '/ver1/ping' }),
      await t.request({ method: 'DELETE', path: '/ext/api_keys/424242', credentials: admin }),
      await t.request({ method: 'DELETE', path: `/ext/api_keys/${(await t.createKey()).id}`, credentials: admin }),
      await t.request({ path: '/nowhere' }),
    ];
    assert.deepEqual(replies.map((r) => r.status), [404, 404, 404, 200, 404]);
    for (const reply of replies) {
      assert.equal(reply.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.equal(typeof reply.body, 'object', reply.text);
    }
  });
});
