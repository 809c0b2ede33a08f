import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openTestDatabase } from '../../test/support/database.ts';
import type { Database } from './database.ts';
import { SqlUsersRepository } from './users.repository.ts';

describe(SqlUsersRepository.name, () => {
  let db: Database;
  let users: SqlUsersRepository;

  before(async () => {
    db = await openTestDatabase();
    users = new SqlUsersRepository(db);
  });

  after(async () => {
    await db?.close();
  });

  it('starts empty', async () => {
    assert.equal(await users.count(), 0);
    assert.deepEqual(await users.list(), []);
  });

  it('creates users in paper mode and finds them by id and by name', async () => {
    const alice = (await users.create('alice'))!;
    assert.equal(typeof alice.id, 'number');
    assert.equal(alice.name, 'alice');
    assert.equal(alice.mode, 'paper');
    assert.ok(alice.createdAt instanceof Date);
    assert.deepEqual(await users.findById(alice.id), alice);
    assert.deepEqual(await users.findByName('alice'), alice);
    assert.equal(await users.findByName('ALICE'), undefined);
    assert.equal(await users.findById(alice.id + 1000), undefined);
  });

  it('lists users in creation order and counts them', async () => {
    await users.create('bob');
    assert.deepEqual((await users.list()).map((user) => user.name), ['alice', 'bob']);
    assert.equal(await users.count(), 2);
  });

  it('creates nothing for a taken name, as the unique constraint decides', async () => {
    assert.equal(await users.create('alice'), undefined);
    assert.equal(await users.count(), 2);
  });

  it('switches the mode and rejects an unknown one', async () => {
    const bob = (await users.findByName('bob'))!;
    await users.setMode(bob.id, 'real');
    assert.equal((await users.findById(bob.id))?.mode, 'real');
    await users.setMode(bob.id, 'paper');
    assert.equal((await users.findById(bob.id))?.mode, 'paper');
    await assert.rejects(users.setMode(bob.id, 'demo' as never), { code: '23514' });
  });
});
