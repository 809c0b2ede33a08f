import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { ConfigError } from './config.ts';
import { checkDataDir } from './data-dir.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tradeloop-data-dir-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

function refusal(dataDir: string): string {
  try {
    checkDataDir(dataDir);
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error.message;
  }
  return 'accepted';
}

describe(checkDataDir.name, () => {
  it('creates a missing directory, mode 0700', () => {
    const dataDir = path.join(root, 'new', 'data');
    checkDataDir(dataDir);
    assert.equal(fs.statSync(dataDir).mode & 0o777, 0o700);
    assert.deepEqual(fs.readdirSync(dataDir), []);
  });

  it('refuses a file, a path through a file and a kernel file system, naming the setting', () => {
    const file = path.join(root, 'a-file');
    fs.writeFileSync(file, '');
    assert.match(refusal(file), /^DATA_DIR \(--data-dir\) .*a-file is a file, not a directory; set it to a directory this user can write/);
    assert.match(refusal(path.join(file, 'data')), /cannot be created \(ENOTDIR\)/);
    assert.match(refusal('/proc/tradeloop'), /^DATA_DIR \(--data-dir\) \/proc\/tradeloop is on a kernel file system/);
  });

  it('refuses a directory it cannot write', { skip: process.getuid?.() === 0 ? 'root writes anywhere' : false }, () => {
    const locked = path.join(root, 'locked');
    fs.mkdirSync(locked, { mode: 0o500 });
    assert.match(refusal(locked), /is not writable \(EACCES\)/);
  });
});
