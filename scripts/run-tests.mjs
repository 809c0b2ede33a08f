// Runs every *.test.ts below the given folders (default: src and test) with Node's test runner.
// Node 20's runner neither expands globs nor finds .ts files by itself, hence this list, which
// test-files.mjs runs slowest first. The spec reporter shows the run; test-summary.mjs closes it
// with what failed and where the time went.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { slowestFirst } from './test-durations.mjs';

const roots = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const files = (roots.length > 0 ? roots : ['src', 'test'])
  .flatMap((root) =>
    fs.statSync(root).isFile()
      ? [root]
      : fs.readdirSync(root, { recursive: true }).map((file) => path.join(root, String(file))),
  )
  .filter((file) => file.endsWith('.test.ts') && !file.includes('node_modules'));

if (files.length === 0) {
  console.error(`No test files found under ${roots.join(', ')}`);
  process.exit(1);
}

// TEST_CONCURRENCY=1 runs one file at a time, to read a failing run or to measure one file alone.
const concurrency = Number(process.env.TEST_CONCURRENCY) || Math.max(1, Math.min(4, os.availableParallelism()));
// Node 20 applies --test-timeout to each file as a whole too: it only catches a hang, so it is
// far above what a busy machine needs (a 120 s limit once cut the e2e files off under load).
const TEST_TIMEOUT_MS = 10 * 60 * 1000;
// A test file that never lets its process exit would otherwise hold the run forever.
const RUN_TIMEOUT_MS = 20 * 60 * 1000;
const result = spawnSync(
  process.execPath,
  [
    // Test processes live seconds: V8's optimising compiler costs more CPU on PGlite's WebAssembly
    // than it saves there (15 to 25 % of a file's CPU, measured). The runner passes the flags on.
    '--liftoff-only', '--import', 'tsx',
    path.join(import.meta.dirname, 'test-files.mjs'), String(concurrency), String(TEST_TIMEOUT_MS),
    ...slowestFirst(files),
  ],
  { stdio: 'inherit', timeout: RUN_TIMEOUT_MS, killSignal: 'SIGKILL' },
);
if (result.error) console.error(`The test run was stopped: ${result.error.message}`);
process.exit(result.status ?? 1);
