import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Credentials } from '../support/signing.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const NOT_FOUND = { error: 'not_found', error_description: 'Not Found' };

let t: TestApp;
let credentials: Credentials;
before(async () => {
  t = await startTestApp();
  credentials = await t.createKey();
});
after(() => t.close());

/** Method and path (ids as 1) of each endpoint docs/api-compatibility.md marks planned or not planned. */
function documentedUnsupported(): Array<[string, string]> {
  const rows = fs.readFileSync('docs/api-compatibility.md', 'utf8').split('\n');
  return rows
    .map((row) => row.split('|').map((cell) => cell.trim()))
    .filter((cells) => /^(not )?planned/.test(cells[5] ?? '') && /^(GET|POST|PUT|PATCH|DELETE|any)$/.test(cells[1] ?? ''))
    .map((cells) => [cells[1] === 'any' ? 'GET' : cells[1]!, cells[2]!.replace(/`/g, '').replace(/\.\.\..*$/, '').replace(/:\w+|\{\w+\}/g, '1')]);
}

describe('paths the server does not serve', () => {
  it('answers 501 saying so for every reference endpoint the compatibility matrix lists as not served', async () => {
    const documented = documentedUnsupported();
    assert.ok(documented.length >= 15, `found ${documented.length}`);
    for (const [method, path] of documented) {
      const response = await t.request({ method, path, credentials });
      assert.equal(response.status, 501, `${method} ${path}: ${response.text}`);
      assert.equal(response.body.error, 'not_implemented');
      assert.match(response.body.error_description, new RegExp(`^${method} ${path.replace(/[?.]/g, '\\$&')} is a reference endpoint`));
    }
  });

  it('answers the reference words under /ver1/accounts/ as not served, not as a bad account id', async () => {
    for (const word of ['summary', 'transfer_data', 'transfer_history']) {
      const response = await t.request({ path: `/ver1/accounts/${word}`, credentials });
      assert.equal(response.status, 501, `${word}: ${response.text}`);
      assert.match(response.body.error_description, /planned|not planned/);
    }
  });

  it('answers 404 not_found for a word that is no reference endpoint where an id belongs', async () => {
    for (const path of ['/ver1/accounts/nonsense', '/ver1/grid_bots/x1', '/ver1/deals/abc/show', '/v2/smart_trades/1.5']) {
      const response = await t.request({ path, credentials });
      assert.equal(response.status, 404, `${path}: ${response.text}`);
      assert.deepEqual(response.body, NOT_FOUND);
    }
  });
});
