import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RerunningPass } from './rerunning-pass.ts';

/** A pass that ends when the test lets it. */
function heldPasses() {
  const releases: Array<() => void> = [];
  let started = 0;
  const pass = () => {
    started += 1;
    return new Promise<void>((resolve) => releases.push(resolve));
  };
  const releaseNext = async () => {
    releases.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { pass, releaseNext, started: () => started };
}

describe('RerunningPass', () => {
  it('runs one pass at a time, and once more after it for any number of wake-ups meanwhile', async () => {
    const held = heldPasses();
    const passes = new RerunningPass(held.pass, (error) => assert.fail(String(error)));
    passes.poke();
    passes.poke();
    passes.poke();
    assert.equal(held.started(), 1);
    await held.releaseNext();
    assert.equal(held.started(), 2);
    await held.releaseNext();
    assert.equal(held.started(), 2);
  });

  it('reports a failed pass and runs again at the next wake-up', async () => {
    const failures: unknown[] = [];
    let calls = 0;
    const passes = new RerunningPass(async () => {
      calls += 1;
      if (calls === 1) throw new Error('database gone');
    }, (error) => failures.push(error));
    passes.poke();
    await new Promise((resolve) => setImmediate(resolve));
    passes.poke();
    await passes.stop();
    assert.equal(calls, 2);
    assert.deepEqual(failures.map((error) => (error as Error).message), ['database gone']);
  });

  it('waits for the running pass on stop and starts none afterwards', async () => {
    const held = heldPasses();
    const passes = new RerunningPass(held.pass, (error) => assert.fail(String(error)));
    passes.poke();
    passes.poke();
    let stopped = false;
    const stopping = passes.stop().then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(stopped, false);
    assert.equal(passes.stopped, true);
    await held.releaseNext();
    await stopping;
    passes.poke();
    assert.equal(held.started(), 1);
  });
});
