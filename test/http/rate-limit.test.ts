import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Credentials } from '../support/signing.ts';
import { startTestApp, type TestApp, type TestResponse } from '../support/test-app.ts';

const LIMIT = 5;

let t: TestApp;
before(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: String(LIMIT) });
});
after(() => t.close());

async function newCredentials(): Promise<Credentials> {
  const { apiKey, secret } = await t.createKey();
  return { apiKey, secret };
}

async function times(count: number, send: () => Promise<TestResponse>): Promise<TestResponse[]> {
  const responses: TestResponse[] = [];
  for (let i = 0; i < count; i++) responses.push(await send());
  return responses;
}

function assertLimited(response: TestResponse) {
  assert.equal(response.status, 429);
  const retryAfter = Number(response.headers.get('retry-after'));
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
  assert.equal(response.body.error, 'rate_limit_exceeded');
  assert.equal(typeof response.body.error_description, 'string');
}

describe('rate limit', () => {
  it('refuses the request after the limit for one key, and not for another', async () => {
    const first = await newCredentials();
    const second = await newCredentials();
    const validate = (credentials: Credentials) => () => t.request({ path: '/ver1/validate', credentials });
    const responses = await times(LIMIT + 1, validate(first));
    assert.deepEqual(responses.map((r) => r.status), [200, 200, 200, 200, 200, 429]);
    assertLimited(responses[LIMIT]!);
    assert.equal((await validate(second)()).status, 200);
  });

  it('limits unsigned routes per client address, whatever Apikey header they carry', async () => {
    // Some clients send their key on every request; a fresh header value must not buy a fresh quota.
    let n = 0;
    const responses = await times(LIMIT + 1, () => t.request({ path: '/ver1/ping', headers: { Apikey: `key-${n++}` } }));
    assert.deepEqual(responses.map((r) => r.status), [200, 200, 200, 200, 200, 429]);
    assertLimited(responses[LIMIT]!);
    assertLimited(await t.request({ path: '/ver1/time' }));
    assert.equal((await t.request({ path: '/ver1/validate', credentials: await newCredentials() })).status, 200);
  });
});
