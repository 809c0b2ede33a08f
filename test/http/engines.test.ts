import assert from 'node:assert/strict';
import os from 'node:os';
import { after, before, describe, it } from 'node:test';
import { newUser, setPrices } from '../support/api.ts';
import { startGrid } from '../support/grid-bots.ts';
import type { Credentials } from '../support/signing.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
let admin: Credentials;
before(async () => {
  t = await startTestApp({ PAPER_SLIPPAGE_BPS: '0' });
  admin = await t.createKey({ user: 'operator', permissions: ['ADMIN'] });
  await setPrices(t, admin, { USDT_BTC: '60000' });
});
after(() => t.close());

describe('GET /ext/engines', () => {
  it('lists this server as an engine with the accounts its automations run on', async () => {
    const user = await newUser(t);
    const other = await newUser(t);
    await startGrid(t, user, { upper_price: '62000', lower_price: '58000', grids_quantity: 5, quantity_per_grid: '100', order_currency_type: 'quote' });

    const response = await t.request({ path: '/ext/engines', credentials: admin });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.length, 1);
    const [engine] = response.body;
    assert.deepEqual(Object.keys(engine), ['id', 'host', 'pid', 'role', 'started_at', 'last_seen_at', 'account_ids']);
    assert.equal(typeof engine.id, 'string');
    assert.equal(engine.host, os.hostname());
    assert.equal(engine.pid, process.pid);
    assert.equal(engine.role, 'all');
    assert.ok(Date.parse(engine.started_at) <= Date.parse(engine.last_seen_at));
    assert.ok(engine.account_ids.includes(user.accountId), JSON.stringify(engine));
    assert.ok(!engine.account_ids.includes(other.accountId), JSON.stringify(engine));
  });

  it('is for administrators only', async () => {
    const user = await newUser(t);
    const response = await t.request({ path: '/ext/engines', credentials: user.credentials });
    assert.equal(response.status, 403);
  });
});
