import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startTestApp } from './test-app.ts';

describe('startTestApp', () => {
  it('closes without waiting for a response the test never read', async () => {
    const t = await startTestApp();
    // Larger than the socket buffers, so the server is still writing it when close starts.
    const unread = await fetch(`${t.baseUrl}/docs/static/swagger-ui-bundle.js`);
    assert.equal(unread.status, 200);
    const closed = t.close();
    await assert.rejects(unread.arrayBuffer());
    await closed;
  });
});
