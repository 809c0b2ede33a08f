import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { masterKeyFromText, newMasterKeyText, SecretBox } from '../auth/secret-box.ts';
import { SqlApiKeysRepository } from '../store/api-keys.repository.ts';
import type { Database } from '../store/database.ts';
import { SqlUsersRepository } from '../store/users.repository.ts';
import { openTestDatabase } from '../../test/support/database.ts';
import { ApiKeysService } from './api-keys.service.ts';

/** Counts the lookups that reach the database. */
class CountingKeys extends SqlApiKeysRepository {
  lookups = 0;
  override async findActiveByHash(keyHash: string) {
    this.lookups += 1;
    return super.findActiveByHash(keyHash);
  }
}

describe(ApiKeysService.name, () => {
  let db: Database;
  let keys: CountingKeys;
  let clock = 0;
  let service: ApiKeysService;

  before(async () => {
    db = await openTestDatabase();
    const users = new SqlUsersRepository(db);
    await users.create('trader');
    keys = new CountingKeys(db);
    service = new ApiKeysService(keys, users, new SecretBox(masterKeyFromText(newMasterKeyText())), () => clock, 1000);
  });

  after(async () => {
    await db.close();
  });

  it('shares one lookup among concurrent requests and serves repeats from memory', async () => {
    const created = await service.create({ userName: 'trader', name: 'k', permissions: ['BOTS_READ'] });
    keys.lookups = 0;
    const results = await Promise.all(Array.from({ length: 20 }, () => service.authenticate(created.api_key)));
    assert.equal(keys.lookups, 1);
    assert.ok(results.every((key) => key?.id === created.id));
    await service.authenticate(created.api_key);
    assert.equal(keys.lookups, 1);
    clock += 1001;
    await service.authenticate(created.api_key);
    assert.equal(keys.lookups, 2);
  });

  it('remembers unknown keys for the cache lifetime too', async () => {
    keys.lookups = 0;
    assert.equal(await service.authenticate('made-up'), undefined);
    assert.equal(await service.authenticate('made-up'), undefined);
    assert.equal(keys.lookups, 1);
  });

  it('forgets a revoked key at once', async () => {
    const created = await service.create({ userName: 'trader', name: 'to revoke', permissions: ['BOTS_READ'] });
    assert.ok(await service.authenticate(created.api_key));
    await service.revoke(created.id);
    assert.equal(await service.authenticate(created.api_key), undefined);
  });
});
