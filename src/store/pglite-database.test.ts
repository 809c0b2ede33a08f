import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { openPglite } from './pglite-database.ts';

describe('PGlite database', () => {
  const opening = openPglite({});
  after(async () => (await opening).close());

  it('lets timers and sockets have a turn during a long chain of statements', async () => {
    const db = await opening;
    let timerRan = false;
    setTimeout(() => (timerRan = true), 0);
    // Each statement costs well over 5 µs, so the chain lasts far longer than a turn's interval.
    for (let i = 0; i < 2000 && !timerRan; i++) await db.query('SELECT $1::int AS n', [i]);
    assert.ok(timerRan, 'the timer waited for the whole chain');
  });
});
