import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, beforeEach, describe, it } from 'node:test';
import { DataDirLockedError, lockDataDir } from './data-dir-lock.ts';

describe(lockDataDir.name, () => {
  let dataDir: string;
  let lockFile: string;
  const children: ChildProcess[] = [];

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradeloop-lock-'));
    lockFile = path.join(dataDir, 'tradeloop.lock');
  });

  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  after(() => {
    for (const child of children) child.kill('SIGKILL');
  });

  /** A process that stays alive until killed, to own a lock from outside this one. */
  function liveProcess(): number {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60000)'], { stdio: 'ignore' });
    children.push(child);
    assert.ok(child.pid);
    return child.pid;
  }

  it('writes this process id to the lock file, mode 0600, and release removes it', () => {
    const release = lockDataDir(dataDir);
    assert.equal(fs.readFileSync(lockFile, 'utf8'), String(process.pid));
    assert.equal(fs.statSync(lockFile).mode & 0o777, 0o600);
    assert.deepEqual(fs.readdirSync(dataDir), ['tradeloop.lock']);
    release();
    assert.equal(fs.existsSync(lockFile), false);
  });

  it('refuses a directory locked by another live process, and leaves its lock alone', () => {
    const owner = liveProcess();
    fs.writeFileSync(lockFile, String(owner));
    assert.throws(
      () => lockDataDir(dataDir),
      (error: unknown) =>
        error instanceof DataDirLockedError &&
        error.message.includes(dataDir) &&
        error.message.includes(`pid ${owner}`),
    );
    assert.equal(fs.readFileSync(lockFile, 'utf8'), String(owner));
    assert.deepEqual(fs.readdirSync(dataDir), ['tradeloop.lock']);
  });

  it('refuses a second lock on the same directory from this process', () => {
    const release = lockDataDir(dataDir);
    try {
      assert.throws(() => lockDataDir(dataDir), DataDirLockedError);
      assert.equal(fs.readFileSync(lockFile, 'utf8'), String(process.pid));
    } finally {
      release();
    }
    lockDataDir(dataDir)();
  });

  it('takes over the lock of a process that has exited', () => {
    const exited = spawnSync(process.execPath, ['-e', '']);
    assert.ok(exited.pid);
    fs.writeFileSync(lockFile, String(exited.pid));
    const release = lockDataDir(dataDir);
    assert.equal(fs.readFileSync(lockFile, 'utf8'), String(process.pid));
    release();
  });

  it('takes over a lock file that holds no pid', () => {
    fs.writeFileSync(lockFile, '');
    lockDataDir(dataDir)();
    fs.writeFileSync(lockFile, 'garbage');
    lockDataDir(dataDir)();
    assert.equal(fs.existsSync(lockFile), false);
  });

  it('release does not remove a lock that another process holds by then', () => {
    const release = lockDataDir(dataDir);
    const owner = liveProcess();
    fs.writeFileSync(lockFile, String(owner));
    release();
    assert.equal(fs.readFileSync(lockFile, 'utf8'), String(owner));
  });
});
