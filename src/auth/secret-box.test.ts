import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { masterKeyFromText, newMasterKeyText, SecretBox } from './secret-box.ts';

describe(SecretBox.name, () => {
  const box = new SecretBox(masterKeyFromText(newMasterKeyText()));

  it('opens what it sealed, and seals the same text differently each time', () => {
    const first = box.seal('s3cret');
    assert.equal(box.open(first), 's3cret');
    assert.notEqual(box.seal('s3cret'), first);
    assert.ok(!first.includes('s3cret'));
  });

  it('refuses a tampered ciphertext or another master key', () => {
    const sealed = box.seal('s3cret');
    const raw = Buffer.from(sealed.slice(3), 'base64');
    raw[raw.length - 1]! ^= 1;
    assert.throws(() => box.open(`v1.${raw.toString('base64')}`));
    const other = new SecretBox(masterKeyFromText(newMasterKeyText()));
    assert.throws(() => other.open(sealed));
  });

  it('takes hex, base64 or a passphrase as the master key', () => {
    const hex = 'ab'.repeat(32);
    assert.deepEqual(masterKeyFromText(hex), Buffer.from(hex, 'hex'));
    const base64 = Buffer.alloc(32, 7).toString('base64');
    assert.deepEqual(masterKeyFromText(base64), Buffer.alloc(32, 7));
    assert.equal(masterKeyFromText('correct horse battery staple').length, 32);
  });
});
