/**
 * The order test files start in. The runner keeps a fixed number of files running at once and
 * starts them in the order given, so a long file started last makes the whole run wait for it
 * alone: the slowest files go first. Durations come from the last run (written by
 * test-summary.mjs); without one, the end-to-end and browser files, which run whole servers,
 * are taken as the slowest.
 */
import fs from 'node:fs';
import path from 'node:path';

export const DURATIONS_FILE = path.resolve('.cache', 'test-durations.json');

const GUESSED_SECONDS = [
  [/^test\/(e2e|browser)\//, 60],
  [/^test\//, 5],
  [/./, 1],
];

export function slowestFirst(files, known = lastDurations()) {
  const seconds = (file) => {
    const name = path.relative(process.cwd(), path.resolve(file)).split(path.sep).join('/');
    return known[name] ?? GUESSED_SECONDS.find(([pattern]) => pattern.test(name))[1];
  };
  return files
    .map((file) => ({ file, seconds: seconds(file) }))
    .sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file))
    .map(({ file }) => file);
}

function lastDurations() {
  try {
    return JSON.parse(fs.readFileSync(DURATIONS_FILE, 'utf8'));
  } catch {
    return {}; // no earlier run here: the guesses decide
  }
}
