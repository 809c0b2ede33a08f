import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LatestFrameQueue } from './latest-frame-queue.ts';

const drain = (queue: LatestFrameQueue) => {
  const frames: string[] = [];
  for (let frame = queue.shift(); frame !== undefined; frame = queue.shift()) frames.push(frame.toString());
  return frames;
};
const text = (value: string) => Buffer.from(value);

describe('LatestFrameQueue', () => {
  it('keeps one frame per entity, the latest, in the place the entity first took', () => {
    const queue = new LatestFrameQueue(10);
    queue.push('a', text('a1'));
    queue.push('b', text('b1'));
    queue.push('a', text('a2'));
    assert.deepEqual(drain(queue), ['a2', 'b1']);
    assert.equal(queue.replaced, 1);
  });

  it('drops the oldest waiting entity when full', () => {
    const queue = new LatestFrameQueue(2);
    queue.push('a', text('a1'));
    queue.push('b', text('b1'));
    queue.push('c', text('c1'));
    assert.equal(queue.size, 2);
    assert.equal(queue.dropped, 1);
    assert.deepEqual(drain(queue), ['b1', 'c1']);
  });
});
