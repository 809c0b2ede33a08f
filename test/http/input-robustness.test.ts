import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { PERMISSIONS } from '../../src/auth/permissions.ts';
import { ACCESS_TABLE } from '../../src/http/access-table.ts';
import type { Credentials } from '../support/signing.ts';
import { startTestApp, type TestApp, type TestResponse } from '../support/test-app.ts';

const NUM_RUNS = 150;
const CHANGE_MODE = '/ver1/users/change_mode';
const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';

const routes = Object.keys(ACCESS_TABLE).map((route) => {
  const [method, url] = route.split(' ') as [string, string];
  return { method, url };
});
const bodyRoutes = routes.filter(({ method }) => method !== 'GET');

let t: TestApp;
let credentials: Credentials;
let ownKeyId: number;
before(async () => {
  t = await startTestApp();
  const key = await t.createKey({ permissions: PERMISSIONS.filter((p) => p !== 'NONE') });
  credentials = { apiKey: key.apiKey, secret: key.secret };
  ownKeyId = key.id;
});
after(() => t.close());

interface Attempt {
  method: string;
  url: string;
  id: string;
  query: string;
  body: { bytes: string | Uint8Array; type: string | undefined } | undefined;
  forcedMode: string | null;
}

/** Sends a validly signed request; the signature covers the target as fetch will send it. */
async function send({ method, url, id, query, body, forcedMode }: Attempt): Promise<TestResponse> {
  const target = new URL(`http://host/public/api${url.replace(':id', id)}?${query}`);
  const path = target.pathname.slice('/public/api'.length) + target.search;
  return t.request({
    method,
    path,
    credentials,
    ...(body === undefined ? {} : { body: Buffer.from(body.bytes) }),
    ...(body?.type === undefined ? {} : { contentType: body.type }),
    headers: forcedMode === null ? {} : { 'Forced-Mode': forcedMode },
  });
}

function assertAnswered(response: TestResponse, attempt: Attempt) {
  const label = `${attempt.method} ${attempt.url} ${response.status} ${response.text.slice(0, 200)}`;
  assert.ok(response.status < 500, label);
  assert.notEqual(response.body, undefined, `not JSON: ${label}`);
  if (response.status >= 400) assert.equal(typeof response.body.error, 'string', label);
}

const dirty = fc.constantFrom('%', '%zz', '%E0%A4%A', '%00', '%FF', '%5B', '+', '&&', '==', '[', ']', '[]', ';', "'", '%25');
const word = fc.oneof(fc.constantFrom('mode', 'name', 'user', 'permissions', 'strict', 'id', 'account_ids'), fc.string({ maxLength: 8 }).map(encodeURIComponent), dirty);
const name = fc.oneof(
  word,
  word.map((w) => `${w}[]`),
  fc.tuple(word, fc.array(fc.oneof(word, fc.constant('')), { maxLength: 5 })).map(([w, keys]) => w + keys.map((k) => `[${k}]`).join('')),
  fc.tuple(word, fc.integer({ min: 10, max: 80 })).map(([w, depth]) => w + '[a]'.repeat(depth)),
);
const value = fc.oneof(
  { arbitrary: word, weight: 4 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 20 }).map(encodeURIComponent), weight: 4 },
  // Past 16 KiB in all, Node's parser refuses the request line itself.
  { arbitrary: fc.integer({ min: 0, max: 15_000 }).map((n) => 'x'.repeat(n)), weight: 1 },
);
const pairs = fc.array(fc.tuple(name, fc.option(value)), { maxLength: 8 }).map((list) =>
  list.map(([key, v]) => (v === null ? key : `${key}=${v}`)).join('&'),
);
const idSegment = fc
  .oneof(fc.constantFrom('1', '0', '-1', '1.5', 'abc', '99999999999999999999', '%00', '%zz'), fc.string({ maxLength: 30 }).map(encodeURIComponent))
  .filter((id) => !/^0*\d+$/.test(id) || Number(id) !== ownKeyId);
const forcedMode = fc.option(fc.constantFrom('paper', 'real', '', 'x'), { nil: null, freq: 2 });
const contentType = fc.constantFrom(JSON_TYPE, FORM_TYPE, 'text/plain', undefined, 'application/octet-stream', 'multipart/form-data; boundary=x', `${JSON_TYPE}; charset=utf-16`);
// Values near the valid ones reach past validation into the services and the database.
const fieldValue = fc.oneof(
  { arbitrary: fc.constantFrom('paper', 'real', 'user1', 'BOTS_READ', 'ADMIN,NONE', 'true', 'x\u0000', '\u0000'), weight: 3 },
  { arbitrary: fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' }), weight: 1 },
);
const fieldNames = ['mode', 'name', 'user', 'permissions', 'strict', 'rsa_public_key', 'id', '__proto__', 'constructor'];
const fields = fc.record(Object.fromEntries(fieldNames.map((n) => [n, fieldValue])), { requiredKeys: [] });
const body = fc.oneof(
  fc.json({ stringUnit: 'binary' }).map((text) => ({ bytes: text, type: JSON_TYPE })),
  fields.map((object) => ({ bytes: JSON.stringify(object), type: JSON_TYPE })),
  pairs.map((text) => ({ bytes: text, type: FORM_TYPE })),
  fc.tuple(fc.uint8Array({ maxLength: 300 }), contentType).map(([bytes, type]) => ({ bytes, type })),
);

const attempt = (routeList: typeof routes, withBody: boolean) =>
  fc.record({
    route: fc.constantFrom(...routeList),
    id: idSegment,
    query: pairs,
    body: withBody ? body : fc.constant(undefined),
    forcedMode,
  }).map(({ route, ...rest }): Attempt => ({ ...route, ...rest }));

describe('generated input', () => {
  it('never gets a 500 from generated query strings, on any route', async () => {
    await fc.assert(
      fc.asyncProperty(attempt(routes, false), async (a) => assertAnswered(await send(a), a)),
      { numRuns: NUM_RUNS },
    );
  });

  it('never gets a 500 from generated bodies', async () => {
    await fc.assert(
      fc.asyncProperty(attempt(bodyRoutes, true), async (a) => assertAnswered(await send(a), a)),
      { numRuns: NUM_RUNS * 2 },
    );
  });
});

describe('explicit hostile input', () => {
  const post = (body: string | Buffer, type = JSON_TYPE) =>
    t.request({ method: 'POST', path: CHANGE_MODE, body, contentType: type, credentials });

  it('answers 413 to a body over 1 MiB', async () => {
    const response = await post(JSON.stringify({ mode: 'x'.repeat(1024 * 1024) }));
    assert.equal(response.status, 413);
    assert.deepEqual(response.body, { error: 'payload_too_large', error_description: 'Request body is larger than 1048576 bytes' });
  });

  const invalid: Array<[string, string | Buffer, string]> = [
    ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0x6d, 0xff, 0x22, 0x3a, 0x31, 0x7d]), 'The request body is not valid UTF-8'],
    ['malformed JSON', '{"mode":', 'The request body is not valid JSON'],
    ['JSON nested 10,000 levels deep', '['.repeat(10_000) + ']'.repeat(10_000), 'The request body is nested deeper than 16 levels'],
  ];
  for (const [name, body, description] of invalid) {
    it(`answers 400 to ${name}`, async () => {
      const response = await post(body);
      assert.equal(response.status, 400);
      assert.deepEqual(response.body, { error: 'invalid_request', error_description: description });
    });
  }

  for (const mode of [1, ['paper'], { value: 'paper' }, null, true]) {
    it(`answers 400 record_invalid to mode ${JSON.stringify(mode)}`, async () => {
      const response = await post(JSON.stringify({ mode }));
      assert.equal(response.status, 400);
      assert.deepEqual(response.body, {
        error: 'record_invalid',
        error_description: 'Invalid parameters',
        error_attributes: { mode: ['does not have a valid value'] },
      });
    });
  }

  it('answers 400 naming the field to a string with a NUL character', async () => {
    const body = JSON.stringify({ user: 'a\u0000b', name: 'k', permissions: ['BOTS_READ'] });
    const response = await t.request({ method: 'POST', path: '/ext/api_keys', body, contentType: JSON_TYPE, credentials });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body.error_attributes, { user: ['is invalid: contains a NUL character'] });
  });

  it('ignores a NUL character in a parameter the route does not take', async () => {
    const response = await t.request({ path: '/ver1/ping?x=%00' });
    assert.equal(response.status, 200);
  });

  it('answers 400 to a path that is not valid percent-encoding', async () => {
    const response = await t.request({ method: 'DELETE', path: '/ext/api_keys/%E0%A4%A', credentials });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { error: 'invalid_request', error_description: 'The request path is not valid percent-encoded UTF-8' });
  });

  it('answers 415 to a malformed content type', async () => {
    const response = await post('mode=paper', ';;');
    assert.equal(response.status, 415);
    assert.equal(response.body.error, 'unsupported_media_type');
  });

  it('answers 431 with a JSON body to a request target over 16 KiB', async () => {
    const response = await t.request({ path: `/ver1/ping?a=${'x'.repeat(20_000)}` });
    assert.equal(response.status, 431);
    assert.deepEqual(response.body, { error: 'invalid_request', error_description: 'The request line and headers must stay under 16 KiB' });
  });

  it('answers 404 not_found to an unknown route', async () => {
    const response = await t.request({ path: '/ver1/unknown' });
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { error: 'not_found', error_description: 'Not Found' });
  });

  it('accepts a DELETE with Content-Type: application/json and an empty body', async () => {
    const { id } = await t.createKey();
    const response = await t.request({ method: 'DELETE', path: `/ext/api_keys/${id}`, contentType: JSON_TYPE, credentials });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body, { id, revoked: true });
  });
});
