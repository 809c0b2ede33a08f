import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hashApiKey } from '../auth/key-material.ts';
import { masterKeyFromText, newMasterKeyText, SecretBox } from '../auth/secret-box.ts';
import type { NewApiKey } from '../services/repositories.ts';
import { ApiKeysService } from '../services/api-keys.service.ts';
import { openTestDatabase } from '../../test/support/database.ts';
import { SqlApiKeysRepository } from './api-keys.repository.ts';
import type { Database } from './database.ts';
import { SqlUsersRepository } from './users.repository.ts';

const RSA_PUBLIC_KEY = '-----BEGIN PUBLIC KEY-----\nnot checked by the repository\n-----END PUBLIC KEY-----';

describe(SqlApiKeysRepository.name, () => {
  let db: Database;
  let keys: SqlApiKeysRepository;
  let userId: number;

  const newKey = (apiKey: string, overrides: Partial<NewApiKey> = {}): NewApiKey => ({
    userId,
    name: `key ${apiKey}`,
    keyHash: hashApiKey(apiKey),
    keyPrefix: apiKey.slice(0, 8),
    scheme: 'hmac',
    sealedSecret: 'v1.sealed',
    rsaPublicKey: null,
    permissions: ['BOTS_READ', 'SMART_TRADES_WRITE'],
    strict: false,
    signing: '3commas',
    ...overrides,
  });

  before(async () => {
    db = await openTestDatabase();
    keys = new SqlApiKeysRepository(db);
    userId = (await new SqlUsersRepository(db).create('owner'))!.id;
  });

  after(async () => {
    await db?.close();
  });

  it('inserts a key and returns the stored record with the user name', async () => {
    const record = await keys.insert(newKey('first-key-0001'));
    assert.equal(typeof record.id, 'number');
    assert.equal(record.userId, userId);
    assert.equal(record.userName, 'owner');
    assert.equal(record.keyPrefix, 'first-ke');
    assert.equal(record.scheme, 'hmac');
    assert.equal(record.sealedSecret, 'v1.sealed');
    assert.equal(record.rsaPublicKey, null);
    assert.deepEqual(record.permissions, ['BOTS_READ', 'SMART_TRADES_WRITE']);
    assert.equal(record.strict, false);
    assert.equal(record.signing, '3commas');
    assert.ok(record.createdAt instanceof Date);
    assert.equal(record.revokedAt, null);
  });

  it("stores an RSA key without a secret and a key's signing scheme, and enforces one secret or one public key", async () => {
    const rsa = await keys.insert(
      newKey('rsa-key-0001', { scheme: 'rsa', sealedSecret: null, rsaPublicKey: RSA_PUBLIC_KEY, strict: true }),
    );
    assert.equal(rsa.rsaPublicKey, RSA_PUBLIC_KEY);
    assert.equal(rsa.sealedSecret, null);
    assert.equal(rsa.strict, true);
    const tl1 = await keys.insert(newKey('tl1-key-0001', { signing: 'tl1' }));
    assert.equal((await keys.findActiveByHash(hashApiKey('tl1-key-0001')))?.signing, 'tl1');
    assert.equal(tl1.signing, 'tl1');
    await assert.rejects(keys.insert(newKey('bad-signing1', { signing: 'other' as 'tl1' })), { code: '23514' });
    await assert.rejects(keys.insert(newKey('no-secret-01', { sealedSecret: null })), { code: '23514' });
    await assert.rejects(keys.insert(newKey('both-00001', { rsaPublicKey: RSA_PUBLIC_KEY })), { code: '23514' });
  });

  it('rejects a second key with the same hash', async () => {
    await assert.rejects(keys.insert(newKey('first-key-0001')), { code: '23505' });
  });

  it('finds an active key by hash only', async () => {
    const found = await keys.findActiveByHash(hashApiKey('first-key-0001'));
    assert.equal(found?.name, 'key first-key-0001');
    assert.equal(await keys.findActiveByHash(hashApiKey('unknown')), undefined);
    assert.equal(await keys.findActiveByHash('first-key-0001'), undefined);
  });

  it('lists every key in id order, revoked ones included', async () => {
    const second = await keys.insert(newKey('second-key-01'));
    await keys.revoke(second.id);
    const listed = await keys.list();
    assert.deepEqual(listed.map((key) => key.name), ['key first-key-0001', 'key rsa-key-0001', 'key tl1-key-0001', 'key second-key-01']);
    assert.ok(listed[3]?.revokedAt instanceof Date);
  });

  it('revokes once: the key is no longer found, and a second revoke reports false', async () => {
    const key = await keys.insert(newKey('revoke-me-01'));
    assert.equal(await keys.revoke(key.id), true);
    assert.equal(await keys.findActiveByHash(hashApiKey('revoke-me-01')), undefined);
    assert.equal(await keys.revoke(key.id), false);
    assert.equal(await keys.revoke(key.id + 1000), false);
  });

  it('stores only the sealed secret and the hash of the key, never either in plain text', async () => {
    const box = new SecretBox(masterKeyFromText(newMasterKeyText()));
    const service = new ApiKeysService(keys, new SqlUsersRepository(db), box);
    const created = await service.create({ userName: 'owner', name: 'sealed', permissions: ['BOTS_READ'] });
    assert.ok(created.secret);
    const rows = await db.query<{ row: string; sealed_secret: string; key_hash: string }>(
      'SELECT k::text AS row, sealed_secret, key_hash FROM api_keys k WHERE id = $1',
      [created.id],
    );
    const row = rows[0]!;
    assert.ok(!row.row.includes(created.secret), 'the plain secret is in the api_keys row');
    assert.ok(!row.row.includes(created.api_key), 'the plain api key is in the api_keys row');
    assert.equal(row.key_hash, hashApiKey(created.api_key));
    assert.match(row.sealed_secret, /^v1\./);
    assert.equal(box.open(row.sealed_secret), created.secret);
    const authenticated = await service.authenticate(created.api_key);
    assert.equal(authenticated?.signingKey.scheme, 'hmac');
  });

  it('says clearly when the master key no longer opens the stored secrets', async () => {
    const sealedWith = new SecretBox(masterKeyFromText(newMasterKeyText()));
    const created = await new ApiKeysService(keys, new SqlUsersRepository(db), sealedWith).create({
      userName: 'owner',
      name: 'other master key',
      permissions: ['BOTS_READ'],
    });
    const otherBox = new SecretBox(masterKeyFromText(newMasterKeyText()));
    const service = new ApiKeysService(keys, new SqlUsersRepository(db), otherBox);
    await assert.rejects(service.authenticate(created.api_key), { code: 'master_key_mismatch', status: 500 });
  });

  it('removes the keys of a deleted user', async () => {
    await db.query('DELETE FROM users WHERE id = $1', [userId]);
    assert.deepEqual(await keys.list(), []);
  });
});
