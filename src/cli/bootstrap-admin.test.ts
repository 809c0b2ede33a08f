import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../test/support/test-app.ts';
import { bootstrapAdmin } from './bootstrap-admin.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const keyFile = () => path.join(t.dataDir, 'admin-key.json');
const activeAdminKeys = async () => (await t.core.apiKeys.list()).filter((key) => key.userName === 'admin' && key.revokedAt === null);

describe(bootstrapAdmin.name, () => {
  it('finishes a first start that was stopped after the admin user was made, with a key that works', async () => {
    // What a kill between the user's row and the key file leaves behind.
    fs.writeFileSync(path.join(t.dataDir, 'admin-key.pending'), '');
    await t.core.users.create('admin');
    await bootstrapAdmin(t.core);
    const key = JSON.parse(fs.readFileSync(keyFile(), 'utf8'));
    assert.equal(fs.statSync(keyFile()).mode & 0o777, 0o600);
    assert.equal(fs.existsSync(path.join(t.dataDir, 'admin-key.pending')), false);
    const validated = await t.request({ path: '/ver1/validate', credentials: { apiKey: key.api_key, secret: key.secret } });
    assert.equal(validated.status, 200, validated.text);
    assert.equal((await activeAdminKeys()).length, 1);
  });

  it('replaces a key made before the stop, which nobody ever saw', async () => {
    const seen = JSON.parse(fs.readFileSync(keyFile(), 'utf8'));
    fs.writeFileSync(path.join(t.dataDir, 'admin-key.pending'), '');
    await bootstrapAdmin(t.core);
    const active = await activeAdminKeys();
    assert.deepEqual(active.map((key) => key.id), [JSON.parse(fs.readFileSync(keyFile(), 'utf8')).id]);
    assert.notEqual(active[0]!.id, seen.id);
  });

  it('does nothing on a later start', async () => {
    const before = fs.readFileSync(keyFile(), 'utf8');
    await bootstrapAdmin(t.core);
    assert.equal(fs.readFileSync(keyFile(), 'utf8'), before);
    assert.equal((await activeAdminKeys()).length, 1);
  });
});
