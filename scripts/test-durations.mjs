/**
 * The order test files start in, and the processes they share. The runner keeps a fixed number
 * of processes running at once and starts them in the order given, so a long one started last
 * makes the whole run wait for it alone: the slowest go first. Durations come from the last run
 * (written by test-summary.mjs); without one (a fresh clone, CI), from `test-durations.json` beside
 * this file, measured on the development machine (grouped by guesses instead, a fresh clone's run
 * took 170 s where it took 156 s so); a file neither knows is guessed: the end-to-end and browser
 * files, which run whole servers, are taken as the slowest.
 */
import fs from 'node:fs';
import path from 'node:path';

export const DURATIONS_FILE = path.resolve('.cache', 'test-durations.json');
const MEASURED_FILE = path.join(import.meta.dirname, 'test-durations.json');

const GUESSED_SECONDS = [
  [/^test\/(e2e|browser)\//, 60],
  [/^test\//, 5],
  [/./, 1],
];

export function slowestFirst(files, known = lastDurations()) {
  return withSeconds(files, known)
    .sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file))
    .map(({ file }) => file);
}

/**
 * The files in `count` groups of about equal expected duration (longest first into the group
 * with the least so far), the longest group first. Each group runs in one process: starting a
 * process and loading the server's modules once per group rather than per file saves about a
 * second of CPU for every file.
 */
export function inGroups(files, count, known = lastDurations()) {
  const groups = Array.from({ length: Math.min(count, files.length) }, () => ({ files: [], seconds: 0 }));
  for (const { file, seconds } of withSeconds(slowestFirst(files, known), known)) {
    // Files of no measurable duration still spread: fewer files breaks a tie.
    const lighter = (a, b) => a.seconds < b.seconds || (a.seconds === b.seconds && a.files.length < b.files.length);
    const lightest = groups.reduce((best, group) => (lighter(group, best) ? group : best));
    lightest.files.push(file);
    lightest.seconds += seconds;
  }
  return groups
    .filter((group) => group.files.length > 0)
    .sort((a, b) => b.seconds - a.seconds)
    .map((group) => group.files);
}

function withSeconds(files, known) {
  return files.map((file) => {
    const name = path.relative(process.cwd(), path.resolve(file)).split(path.sep).join('/');
    return { file, seconds: known[name] ?? GUESSED_SECONDS.find(([pattern]) => pattern.test(name))[1] };
  });
}

function lastDurations() {
  for (const file of [DURATIONS_FILE, MEASURED_FILE]) {
    try {
      return JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch {
      // no earlier run here: the next file, then the guesses
    }
  }
  return {};
}
