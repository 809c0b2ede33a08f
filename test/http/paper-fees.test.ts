import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
let admin: { apiKey: string; secret: string };
let paperAccountId: number;

before(async () => {
  t = await startTestApp();
  admin = await t.createKey({ user: 'operator', permissions: ['ADMIN', 'ACCOUNTS_READ'] });
  const [account] = await t.core.db.query<{ id: number }>(
    "SELECT a.id FROM accounts a JOIN users u ON u.id = a.user_id WHERE u.name = 'operator'",
  );
  paperAccountId = account!.id;
});
after(() => t.close());

const post = (body: object) =>
  t.request({ method: 'POST', path: '/ext/paper/fees', body: JSON.stringify(body), contentType: 'application/json', credentials: admin });

describe('POST /ext/paper/fees', () => {
  it('sets the fees a paper account pays on its next fills', async () => {
    const response = await post({ account_id: paperAccountId, maker_fee: '0.0002', taker_fee: '0.0004' });
    assert.equal(response.status, 201, response.text);
    assert.deepEqual(response.body, { account_id: paperAccountId, maker_fee: '0.0002', taker_fee: '0.0004' });
    const [stored] = await t.core.db.query<{ maker: string }>('SELECT maker::text FROM paper_fees WHERE account_id = $1', [paperAccountId]);
    assert.equal(Number(stored!.maker), 0.0002);
  });

  it('refuses fees of 1 or more, and unknown accounts', async () => {
    const invalid = await post({ account_id: paperAccountId, maker_fee: '1', taker_fee: '0.001' });
    assert.equal(invalid.status, 400);
    assert.deepEqual(Object.keys(invalid.body.error_attributes), ['maker_fee']);
    const unknown = await post({ account_id: paperAccountId + 1000, maker_fee: '0', taker_fee: '0' });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error, 'not_found');
  });
});
