/** The order `npm test` starts files in: slowest first, from the last run's durations. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
// @ts-expect-error: a plain script of the runner, without type declarations
import { inGroups, slowestFirst } from '../../scripts/test-durations.mjs';

const order = slowestFirst as (files: string[], known?: Record<string, number>) => string[];
const groups = inGroups as (files: string[], count: number, known?: Record<string, number>) => string[][];

describe('the order test files start in', () => {
  it('is slowest first by the last run, guessing end-to-end files slow and unit files quick', () => {
    const files = ['src/a.test.ts', 'test/http/y.test.ts', 'src/b.test.ts', 'test/e2e/x.test.ts', 'test/http/z.test.ts'];
    const known = { 'src/b.test.ts': 30, 'test/http/y.test.ts': 2 };
    assert.deepEqual(order(files, known), ['test/e2e/x.test.ts', 'src/b.test.ts', 'test/http/z.test.ts', 'test/http/y.test.ts', 'src/a.test.ts']);
  });

  it('forms groups of about equal length, the longest group first', () => {
    const known = { 'test/e2e/a.test.ts': 40, 'test/http/b.test.ts': 30, 'src/c.test.ts': 20, 'src/d.test.ts': 15, 'src/e.test.ts': 10, 'src/f.test.ts': 5 };
    assert.deepEqual(groups(Object.keys(known).reverse(), 3, known), [
      ['test/e2e/a.test.ts'],
      ['test/http/b.test.ts', 'src/e.test.ts'],
      ['src/c.test.ts', 'src/d.test.ts', 'src/f.test.ts'],
    ]);
    assert.deepEqual(groups(['src/c.test.ts'], 8, known), [['src/c.test.ts']]);
    const instant = { 'src/x.test.ts': 0, 'src/y.test.ts': 0, 'src/z.test.ts': 0 };
    assert.deepEqual(groups(Object.keys(instant), 2, instant), [['src/x.test.ts', 'src/z.test.ts'], ['src/y.test.ts']]);
  });

  it('orders by the durations measured on the development machine where no run of its own measured them', () => {
    const measured = JSON.parse(fs.readFileSync('scripts/test-durations.json', 'utf8')) as Record<string, number>;
    const files = Object.keys(measured);
    const expected = [...files].sort((a, b) => measured[b]! - measured[a]! || a.localeCompare(b));
    const fresh = fs.mkdtempSync(path.join(os.tmpdir(), 'tradeloop-fresh-'));
    try {
      const script = `const { slowestFirst } = await import(${JSON.stringify(pathToFileURL(path.resolve('scripts/test-durations.mjs')).href)});
console.log(JSON.stringify(slowestFirst(${JSON.stringify(files)})));`;
      const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: fresh, encoding: 'utf8' });
      assert.equal(run.status, 0, run.stderr);
      assert.deepEqual(JSON.parse(run.stdout), expected);
    } finally {
      fs.rmSync(fresh, { recursive: true, force: true });
    }
  });

  describe('a run', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradeloop-order-'));
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    const started = path.join(dir, 'started.txt');
    const fixture = (name: string) =>
      `import fs from 'node:fs';\nimport { it } from 'node:test';\nfs.appendFileSync(${JSON.stringify(started)}, '${name}\\n');\nit('passes', () => {});\n`;
    const runHere = () => {
      const { NODE_TEST_CONTEXT: _, ...env } = process.env;
      fs.rmSync(started, { force: true });
      const run = spawnSync(process.execPath, [path.resolve('scripts/run-tests.mjs'), '.'], { cwd: dir, encoding: 'utf8', env: { ...env, TEST_CONCURRENCY: '1' } });
      assert.equal(run.status, 0, run.stdout + run.stderr);
      return fs.readFileSync(started, 'utf8').trim().split('\n');
    };
    const durationsFile = path.join(dir, '.cache', 'test-durations.json');

    it('records how long each of its files took, for the next run to order by', () => {
      fs.symlinkSync(path.resolve('node_modules'), path.join(dir, 'node_modules'));
      fs.mkdirSync(path.join(dir, 'unit'));
      fs.writeFileSync(path.join(dir, 'unit', 'one.test.ts'), fixture('one'));
      fs.writeFileSync(path.join(dir, 'two.test.ts'), fixture('two'));
      runHere();
      const recorded = JSON.parse(fs.readFileSync(durationsFile, 'utf8'));
      assert.deepEqual(Object.keys(recorded).sort(), ['two.test.ts', 'unit/one.test.ts']);
      for (const seconds of Object.values(recorded)) assert.ok(typeof seconds === 'number' && seconds >= 0);
    });

    it('starts the files that took longest last time first, whatever their names', () => {
      fs.writeFileSync(durationsFile, JSON.stringify({ 'unit/one.test.ts': 50, 'two.test.ts': 1 }));
      assert.deepEqual(runHere(), ['one', 'two']);
      fs.writeFileSync(durationsFile, JSON.stringify({ 'unit/one.test.ts': 1, 'two.test.ts': 50 }));
      assert.deepEqual(runHere(), ['two', 'one']);
    });
  });
});
