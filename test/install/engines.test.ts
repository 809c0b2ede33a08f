/**
 * The README promises Node 20: no installed package may ask for a newer Node, or `npm ci` warns
 * and the package may use what Node 20 lacks. Reads the lock file, so it checks what CI installs.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';

const lock = JSON.parse(fs.readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8'));
const project = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
const nvmrc = fs.readFileSync(new URL('../../.nvmrc', import.meta.url), 'utf8').trim();

/** The lowest major version a range such as ">=18", ">= 20.19" or "^20.9.0 || >=22" accepts. */
function lowestMajor(range: string): number {
  const majors = range.split('||').map((part) => Number(/(\d+)/.exec(part)?.[1] ?? 0));
  return Math.min(...majors);
}

describe('the Node version the project states', () => {
  const supported = lowestMajor(project.engines.node);

  it('is the same in package.json and .nvmrc', () => {
    assert.equal(supported, Number(nvmrc));
  });

  it('is accepted by every installed package', () => {
    const demanding = Object.entries(lock.packages as Record<string, { engines?: { node?: string } }>)
      .filter(([, entry]) => typeof entry.engines?.node === 'string' && lowestMajor(entry.engines.node) > supported)
      .map(([name, entry]) => `${name} (${entry.engines!.node})`);
    assert.deepEqual(demanding, []);
  });
});
