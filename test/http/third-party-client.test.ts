/**
 * The published `3commas-api-node` client, unchanged, against this server. It signs path + query
 * (its paths end in `?`, so a call without parameters signs `path?`), sends parameters only in the
 * query string, and sends `Forced-Mode: real` unless told otherwise.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../support/test-app.ts';

interface ThreeCommasClient {
  makeRequest(method: string, path: string, params?: Record<string, unknown>): Promise<unknown>;
}
type ClientOptions = { url: string; apiKey: string; apiSecret: string; forcedMode?: string };

const require = createRequire(import.meta.url);
const ThreeCommasApi = require('3commas-api-node') as new (options: ClientOptions) => ThreeCommasClient;

let t: TestApp;
let client: ThreeCommasClient;
let options: ClientOptions;
before(async () => {
  t = await startTestApp();
  const { apiKey, secret } = await t.createKey();
  options = { url: t.baseUrl, apiKey, apiSecret: secret };
  client = new ThreeCommasApi(options);
});
after(() => t.close());

const currentModeWithoutForcing = async () =>
  (await t.request({ path: '/ver1/users/current_mode', credentials: { apiKey: options.apiKey, secret: options.apiSecret } })).body;

describe('3commas-api-node', () => {
  it('validates its signature', async () => {
    assert.deepEqual(await client.makeRequest('GET', '/public/api/ver1/validate?'), { valid: true });
  });

  it('pings', async () => {
    assert.deepEqual(await client.makeRequest('GET', '/public/api/ver1/ping?'), { pong: 'pong' });
  });

  it('changes the mode, and its default Forced-Mode: real decides the mode it sees', async () => {
    await t.request({ method: 'POST', path: '/ver1/users/change_mode?mode=real', credentials: { apiKey: options.apiKey, secret: options.apiSecret } });
    const changed = await client.makeRequest('POST', '/public/api/ver1/users/change_mode?', { mode: 'paper' });
    assert.deepEqual(changed, { mode: 'paper' });
    assert.deepEqual(await currentModeWithoutForcing(), { mode: 'paper' });
    assert.deepEqual(await client.makeRequest('GET', '/public/api/ver1/users/current_mode?'), { mode: 'real' });
    const paperClient = new ThreeCommasApi({ ...options, forcedMode: 'paper' });
    assert.deepEqual(await paperClient.makeRequest('GET', '/public/api/ver1/users/current_mode?'), { mode: 'paper' });
  });

  it('receives the error body for a wrong secret', async () => {
    const wrong = new ThreeCommasApi({ ...options, apiSecret: 'not the secret' });
    assert.deepEqual(await wrong.makeRequest('GET', '/public/api/ver1/validate?'), {
      error: 'signature_invalid',
      error_description: 'Provided signature is invalid. It matches none of the payloads 3Commas clients sign.',
    });
  });
});
