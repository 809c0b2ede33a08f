import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dec } from '../shared/decimal.ts';
import type { LiveAutomation } from './automation-kind.ts';
import { DeferredChanges } from './deferred-changes.ts';

const at = new Date(Date.UTC(2024, 0, 1));
const ticker = { pair: 'USDT_BTC', last: dec(100), bid: dec(100), ask: dec(100), at };

describe('changes of quiet tick steps', () => {
  it('of a logged batch that will not be stored are stored with the next batch, not left waiting', () => {
    const deferred = new DeferredChanges(60_000, 200);
    const live = { automation: { id: 7 } } as LiveAutomation;
    let seq = 0;
    const nextId = () => (seq += 1);
    const quietBatch = () => {
      deferred.beginBatch();
      deferred.noteTick('paper', ticker);
      deferred.noteStep(7, true);
      const dirty = new Map([[7, live]]);
      return { dirty, log: deferred.take(dirty, at, at.getTime(), nextId) };
    };

    const lost = quietBatch();
    assert.equal(lost.dirty.size, 0, 'a quiet change waits, its ticks logged');
    assert.deepEqual(lost.log.ticks?.ids, [7]);
    assert.deepEqual(deferred.unlog(lost.log.ticks!), [live]);
    // Stepped quietly again, it is stored: a replay would not find the ticks of the lost batch.
    const next = quietBatch();
    assert.deepEqual([...next.dirty.keys()], [7]);
    assert.equal(next.log.ticks, undefined);
    // After that, quiet steps wait again.
    assert.equal(quietBatch().dirty.size, 0);
  });
});
