// Runs every *.test.ts below the given folders (default: src and test) with Node's test runner.
// Node 20's runner neither expands globs nor finds .ts files by itself, hence this list. Starting
// a process and loading the server's modules cost more than most files spend testing, so the
// files run compiled (bin/compile.mjs), in a few groups of about equal length, one process per
// group (each file in a suite of its own, its hooks and tests in order, one file after the
// other), which test-files.mjs starts longest first. The spec reporter shows the run;
// test-summary.mjs closes it with what failed and where the time went.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compiledPath, compiledSources, SOURCE_DIRS } from '../bin/compile.mjs';
import { pathToFileURL } from 'node:url';
import { CPU_FILE_VARIABLE } from './test-cpu.mjs';
import { inGroups } from './test-durations.mjs';

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

const root = process.cwd();
const outDir = await compiledSources({ root, dirs: [...new Set([...SOURCE_DIRS, ...roots])] });

// TEST_CONCURRENCY=1 runs one file at a time, to read a failing run or to measure one file alone.
const concurrency = Number(process.env.TEST_CONCURRENCY) || Math.max(1, Math.min(4, os.availableParallelism()));
// Node 20 applies --test-timeout to each file as a whole too: it only catches a hang, so it is
// far above what a busy machine needs (a 120 s limit once cut the e2e files off under load).
const TEST_TIMEOUT_MS = 10 * 60 * 1000;
// A test file that never lets its process exit would otherwise hold the run forever.
const RUN_TIMEOUT_MS = 20 * 60 * 1000;
// TEST_GROUPS=1000 runs each file in a process of its own, as `node --test` would.
const groupCount = Number(process.env.TEST_GROUPS) || concurrency * 4;

const GROUP_END_EVENT = 'tradeloop:test-group-end';
const groupsDir = fs.mkdtempSync(path.join(root, '.cache', 'test-groups-'));
process.on('exit', () => fs.rmSync(groupsDir, { recursive: true, force: true }));
const groupFiles = inGroups(files, groupCount).map((group, index) => {
  const file = path.join(groupsDir, `group-${index + 1}.mjs`);
  const suites = group.map((source, index) => {
    const name = path.relative(root, path.resolve(source)).split(path.sep).join('/');
    const url = pathToFileURL(compiledPath(outDir, source, root)).href;
    // After the last file's own hooks: what the files shared can be let go (test/support/database.ts).
    const end = index === group.length - 1 ? `  after(() => process.emit(${JSON.stringify(GROUP_END_EVENT)}));\n` : '';
    // From the file's first hook to its last: the imports of a group's files overlap.
    const counted = `  let counted;\n  before(() => (counted = countCpu(${JSON.stringify(name)})));\n`;
    return `describe(${JSON.stringify(name)}, async () => {\n${counted}  await import(${JSON.stringify(url)});\n  after(() => counted?.());\n${end}});\n`;
  });
  // Alone, a file's process waits for a test's timeout even when nothing else keeps it alive.
  const keepAlive = `const alive = setInterval(() => {}, 1 << 30);\nafter(() => clearInterval(alive));\n`;
  const imports = `import { after, before, describe } from 'node:test';\nimport { countCpu } from ${JSON.stringify(pathToFileURL(path.join(import.meta.dirname, 'test-cpu.mjs')).href)};\n`;
  fs.writeFileSync(file, `${imports}${keepAlive}${suites.join('')}`);
  return file;
});
const result = spawnSync(
  process.execPath,
  [
    // Test processes live seconds: V8's optimising compiler costs more CPU on PGlite's WebAssembly
    // than it saves there (15 to 25 % of a file's CPU, measured). The runner passes the flags on.
    '--liftoff-only', '--enable-source-maps',
    path.join(import.meta.dirname, 'test-files.mjs'), String(concurrency), String(TEST_TIMEOUT_MS), ...groupFiles,
  ],
  {
    stdio: 'inherit',
    timeout: RUN_TIMEOUT_MS,
    killSignal: 'SIGKILL',
    env: { ...process.env, TRADELOOP_TEST_GROUP_END: GROUP_END_EVENT, [CPU_FILE_VARIABLE]: path.join(groupsDir, 'cpu.jsonl') },
  },
);
if (result.error) console.error(`The test run was stopped: ${result.error.message}`);
process.exitCode = result.status ?? 1;
