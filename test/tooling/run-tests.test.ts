/** `npm test`'s runner, run on a small folder of tests that fail in each way a file can. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradeloop-runner-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const FILES = {
  'assertions.test.ts': `import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
describe('outer', () => {
  it('passes', () => {});
  it('compares wrongly', () => assert.equal(1, 2));
  it('never ends', { timeout: 20 }, () => new Promise(() => {}));
  it.skip('is skipped', () => {});
});`,
  'broken-import.test.ts': `throw new Error('broken at import');`,
  'broken-hook.test.ts': `import { after, before, describe, it } from 'node:test';
it('passes too', () => {});
after(() => { throw new Error('the after hook broke'); });
describe('prepared badly', () => {
  before(() => { throw new Error('the before hook broke'); });
  it('never runs', () => {});
});`,
  'busy-child.test.ts': `import { spawnSync } from 'node:child_process';
import { it } from 'node:test';
it('starts a process that counts', () => {
  spawnSync(process.execPath, ['-e', 'let sum = 0; for (let i = 0; i < 3e8; i++) sum += i;']);
});`,
};

describe('scripts/run-tests.mjs', () => {
  it('closes with every failed, timed-out or broken file named, the CPU of each, and a count line', () => {
    for (const [name, text] of Object.entries(FILES)) fs.writeFileSync(path.join(dir, name), text);
    // Without NODE_TEST_CONTEXT the inner runner reports as a top-level run, not to this one.
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    const run = spawnSync(process.execPath, ['scripts/run-tests.mjs', dir], { encoding: 'utf8', env });
    assert.equal(run.status, 1, run.stdout + run.stderr);
    const summary = run.stdout.slice(run.stdout.lastIndexOf('== Slowest test files'));
    const named = (file: string) => path.join(path.relative(process.cwd(), dir), file);
    for (const line of [
      `failed: ${named('assertions.test.ts')} › compares wrongly`,
      `timed out: ${named('assertions.test.ts')} › never ends`,
      `failed: ${named('broken-import.test.ts')} (the file itself)`,
      `hook failed: ${named('broken-hook.test.ts')} (the file itself)\n      the after hook broke`,
      `hook failed: ${named('broken-hook.test.ts')} › prepared badly\n      the before hook broke`,
      `cancelled: ${named('broken-hook.test.ts')} › never runs`,
    ]) {
      assert.ok(summary.includes(line), `the summary names "${line}":\n${summary}`);
    }
    assert.match(summary, /\n3 passed, 6 failed, 1 skipped\n$/);
    if (process.platform === 'linux') {
      // The CPU of the processes a file starts counts as the file's (read from /proc).
      const [own, started] = (summary.match(/busy-child\.test\.ts \(([\d.]+) \+ ([\d.]+)\)\n/) ?? []).slice(1).map(Number);
      assert.ok(started! >= 0.1 && started! > own!, summary);
    }
  });
});
