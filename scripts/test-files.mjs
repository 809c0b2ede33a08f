// Runs the given test files with Node's runner, starting them in the order given (`node --test`
// sorts its files by name), with the spec reporter for the run and test-summary.mjs to close it.
// Started by run-tests.mjs with its group files and the flags test processes need; they pass
// them on.
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import testSummary from './test-summary.mjs';

const [concurrency, timeout, ...files] = process.argv.slice(2);
const stream = run({ files: files.map((file) => path.resolve(file)), concurrency: Number(concurrency), timeout: Number(timeout) });
let failed = false;
stream.on('test:fail', () => (failed = true));
// Each reporter reads its own copy of the events, both at once, so neither holds the other back.
const forSpec = stream.pipe(new PassThrough({ objectMode: true }));
const forSummary = stream.pipe(new PassThrough({ objectMode: true }));
const summary = (async () => {
  let text = '';
  for await (const chunk of testSummary(forSummary)) text += chunk;
  return text;
})();
for await (const chunk of forSpec.compose(spec)) process.stdout.write(chunk);
process.stdout.write(await summary);
process.exitCode = failed ? 1 : 0;
