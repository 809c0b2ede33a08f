import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { StorageUnavailableError } from '../../shared/errors.ts';
import { registerErrorHandling } from './error-handler.ts';

describe(registerErrorHandling.name, () => {
  it('answers 503 with a catalogue body while the database is unavailable', async () => {
    const app = Fastify();
    registerErrorHandling(app, 1024);
    app.get('/public/api/ver1/ping', async () => {
      throw new StorageUnavailableError('The database is unreachable');
    });
    const response = await app.inject({ method: 'GET', url: '/public/api/ver1/ping' });
    assert.equal(response.statusCode, 503);
    assert.equal(response.headers['retry-after'], '5');
    assert.deepEqual(response.json(), {
      error: 'service_unavailable',
      error_description: 'The database is unavailable; retry in a few seconds',
    });
    await app.close();
  });
});
