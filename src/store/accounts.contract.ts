/**
 * The contract of the accounts repository: the SQL store and the in-memory store of backtests.
 * A setup gives a repository and a new user; exchange key hashes must be new to the store.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { beforeEach, describe, it } from 'node:test';
import type { AccountsRepository, NewAccount } from '../services/repositories.ts';

export interface AccountsSubject {
  accounts: AccountsRepository;
  userId: number;
}

export function accountsContract(name: string, setup: () => Promise<AccountsSubject>): void {
  describe(`${name} honours the accounts repository contract`, () => {
    let subject: AccountsSubject;
    let accounts: AccountsRepository;
    let hash: string;

    beforeEach(async () => {
      subject = await setup();
      accounts = subject.accounts;
      hash = randomBytes(8).toString('hex');
    });

    const account = (changes: Partial<NewAccount> = {}): NewAccount => ({
      userId: subject.userId, name: 'main', marketCode: 'binance', sealedCredentials: 'sealed', exchangeKeyHash: hash, ...changes,
    });

    it('creates accounts, finds them and lists a user’s in id order', async () => {
      const first = (await accounts.create(account({ marketCode: 'paper_trading', exchangeKeyHash: null, sealedCredentials: null })))!;
      const second = (await accounts.create(account()))!;
      assert.deepEqual({ ...first, createdAt: undefined, updatedAt: undefined }, {
        id: first.id, userId: subject.userId, name: 'main', marketCode: 'paper_trading', sealedCredentials: null,
        includeInSummary: true, apiKeyInvalid: false, createdAt: undefined, updatedAt: undefined,
      });
      assert.deepEqual(await accounts.findById(second.id), second);
      assert.deepEqual((await accounts.listByUser(subject.userId)).map((a) => a.id), [first.id, second.id]);
    });

    it('connects one exchange key once per exchange, until the account holding it is removed', async () => {
      const first = (await accounts.create(account()))!;
      assert.equal(await accounts.create(account({ name: 'again' })), undefined);
      assert.ok(await accounts.create(account({ marketCode: 'okx' })));
      const other = (await accounts.create(account({ exchangeKeyHash: `${hash}-2` })))!;
      assert.equal(await accounts.update(other.id, { exchangeKeyHash: hash }), false);
      await accounts.remove(first.id);
      assert.equal(await accounts.findById(first.id), undefined);
      assert.equal((await accounts.listByUser(subject.userId)).some((a) => a.id === first.id), false);
      assert.equal(await accounts.update(other.id, { exchangeKeyHash: hash }), true);
    });

    it('updates the fields it is given', async () => {
      const created = (await accounts.create(account()))!;
      assert.equal(await accounts.update(created.id, { name: 'renamed', includeInSummary: false, apiKeyInvalid: true }), true);
      const updated = (await accounts.findById(created.id))!;
      assert.deepEqual([updated.name, updated.includeInSummary, updated.apiKeyInvalid, updated.sealedCredentials], ['renamed', false, true, 'sealed']);
    });

    it('keeps one balance point per account and day, with the day’s first and last values', async () => {
      const created = (await accounts.create(account()))!;
      await accounts.recordBalance(created.id, '2024-01-02', '10', '0.001');
      await accounts.recordBalance(created.id, '2024-01-01', '9', '0.0009');
      await accounts.recordBalance(created.id, '2024-01-02', '11', '0.0011');
      const points = await accounts.balanceHistory(created.id, '2024-01-01', '2024-01-31');
      assert.deepEqual(points.map((p) => [p.day, Number(p.usd), Number(p.btc)]), [['2024-01-01', 9, 0.0009], ['2024-01-02', 11, 0.0011]]);
      assert.deepEqual(points.map((p) => [Number(p.openingUsd), Number(p.openingBtc)]), [[9, 0.0009], [10, 0.001]]);
      assert.deepEqual(await accounts.balanceHistory(created.id, '2024-01-02', '2024-01-02').then((list) => list.length), 1);
    });
  });
}
