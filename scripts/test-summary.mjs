/**
 * A test reporter that closes the run with what a reader needs at the bottom: every failed or
 * cancelled test by file and name (the spec reporter shows them far up, among a thousand passes),
 * the slowest test files, and one "N passed, N failed, N skipped" line. A file that failed outside
 * any test (an import error, a hook, an exit code) is named too, so a run never fails unexplained.
 *
 * run-tests.mjs runs groups of files, one process each: a group file holds one suite per test
 * file, named by its path, so a test file is a suite at the top of its group.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CPU_FILE_VARIABLE, readCpu } from './test-cpu.mjs';
import { DURATIONS_FILE } from './test-durations.mjs';

const SLOWEST_SHOWN = 8;

export default async function* testSummary(source) {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  const problems = [];
  const fileSeconds = new Map();
  // The test file each process (group) was running last, to name it when the process fails.
  const runningFile = new Map();
  for await (const event of source) {
    const data = event.data;
    const isProcess = data?.file !== undefined && data.name === data.file;
    const isFile = !isProcess && data?.nesting === 0 && data.details?.type === 'suite';
    if (event.type === 'test:start' && data.nesting === 0 && !isProcess) runningFile.set(data.file, data.name);
    if (event.type === 'test:complete' && isFile) fileSeconds.set(data.name, data.details.duration_ms / 1000);
    if (event.type === 'test:pass' && !isProcess && data.details.type !== 'suite') {
      if (data.skip !== undefined || data.todo !== undefined) counts.skipped++;
      else counts.passed++;
    }
    if (event.type === 'test:fail') {
      if (!isProcess && data.details.type !== 'suite') counts.failed++;
      // A suite that failed only because tests inside it did adds nothing; a failed hook does.
      if (data.details.error?.failureType === 'subtestsFailed') continue;
      const where = isProcess ? `${runningFile.get(data.file) ?? relative(data.file)} (its process)` : isFile ? `${data.name} (the file itself)` : `${relative(data.file ?? '')} › ${data.name}`;
      problems.push(describeFailure(data, where));
    }
  }
  yield* summary(counts, problems, fileSeconds);
  rememberDurations(fileSeconds);
}

/** Keeps each file's last duration, so the next run can start the slowest files first. */
function rememberDurations(fileSeconds) {
  try {
    const known = fs.existsSync(DURATIONS_FILE) ? JSON.parse(fs.readFileSync(DURATIONS_FILE, 'utf8')) : {};
    for (const [file, seconds] of fileSeconds) {
      if (!file.startsWith('..') && !path.isAbsolute(file)) known[file] = Math.round(seconds * 10) / 10;
    }
    fs.mkdirSync(path.dirname(DURATIONS_FILE), { recursive: true });
    const partial = `${DURATIONS_FILE}.${process.pid}`;
    fs.writeFileSync(partial, `${JSON.stringify(known, null, 1)}\n`);
    fs.renameSync(partial, DURATIONS_FILE);
  } catch {
    // Only an ordering hint: a run never fails over it.
  }
}

function describeFailure(data, where) {
  const error = data.details.error;
  const kind = { cancelledByParent: 'cancelled', testTimeoutFailure: 'timed out', hookFailed: 'hook failed' }[error?.failureType] ?? 'failed';
  const cause = error?.cause ?? error;
  const message = String(cause?.message ?? cause ?? '').split('\n')[0].slice(0, 200);
  return `${kind}: ${where}${message ? `\n      ${message}` : ''}`;
}

function* summary(counts, problems, fileSeconds) {
  yield '\n== Slowest test files (seconds)\n';
  const slowest = [...fileSeconds].sort((a, b) => b[1] - a[1]).slice(0, SLOWEST_SHOWN);
  for (const [file, seconds] of slowest) yield `  ${seconds.toFixed(1).padStart(6)}  ${file}\n`;
  const cpu = [...readCpu(process.env[CPU_FILE_VARIABLE])].map(([file, { own, started }]) => ({ file, own, started, total: own + started }));
  if (cpu.length > 0) {
    const all = cpu.reduce((sum, file) => sum + file.total, 0);
    yield `\n== Most CPU (seconds: the file's own + the processes it started; ${all.toFixed(0)} in all)\n`;
    for (const { file, own, started, total } of cpu.sort((a, b) => b.total - a.total).slice(0, SLOWEST_SHOWN)) {
      yield `  ${total.toFixed(1).padStart(6)}  ${file} (${own.toFixed(1)} + ${started.toFixed(1)})\n`;
    }
  }
  if (problems.length > 0) {
    yield `\n== ${problems.length} failed or cancelled\n`;
    for (const problem of problems) yield `  ${problem}\n`;
  }
  const failed = Math.max(counts.failed, problems.length);
  yield `\n${counts.passed} passed, ${failed} failed, ${counts.skipped} skipped\n`;
}

function relative(file) {
  return file === '' ? file : path.relative(process.cwd(), file);
}
