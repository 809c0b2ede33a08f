import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MarketTick } from '../domain/market/market-tick.ts';
import { dec } from '../shared/decimal.ts';
import { type LoggedTick, TickFollower, type TickLogPort } from './tick-follower.ts';

const tick = (seq: number): LoggedTick => ({ seq, tick: { pair: 'USDT_BTC', price: dec(60_000 + seq), at: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)) } as MarketTick });

interface Followed {
  /** Positions recorded on their own (not by a batch). */
  recorded: number[];
  /** What had been stored of the ticks' changes when each of those was recorded. */
  storedWhenRecorded: number[];
  /** The last tick applied when each wait for storage began. */
  appliedAtWaits: number[];
}

/**
 * Three logged ticks, each of which changes something, stored by "batches" that finish one
 * macrotask after they are waited for.
 */
async function follow(batchesStorePosition: boolean): Promise<Followed> {
  const followed: Followed = { recorded: [], storedWhenRecorded: [], appliedAtWaits: [] };
  let applied = 0;
  let stored = 0;
  const logged = [tick(1), tick(2), tick(3)];
  const log: TickLogPort = {
    last: async () => 0,
    lowestUnheld: async () => undefined,
    accountPositions: async () => new Map(),
    follow: async (position, limit, apply) => {
      const ticks = logged.filter((entry) => entry.seq > position).slice(0, limit);
      if (ticks.length > 0) await apply(ticks);
      return ticks.at(-1)?.seq ?? position;
    },
    between: async () => [],
    setPosition: async (_engineId, position) => {
      followed.recorded.push(position);
      followed.storedWhenRecorded.push(stored);
    },
    prune: async () => {},
  };
  const follower = new TickFollower({
    log,
    engineId: 'e1',
    apply: async (_tick, seq) => {
      applied = seq;
      return { fills: 1 };
    },
    stored: async () => {
      const storing = applied;
      followed.appliedAtWaits.push(storing);
      await new Promise((resolve) => setImmediate(resolve));
      stored = storing;
    },
    recordedInBatch: () => (batchesStorePosition && stored > 0 ? stored : -1),
    batchesRecord: () => batchesStorePosition,
    load: async () => {},
    holds: () => true,
    startedHere: () => [],
    recordedHere: () => {},
    catchUp: async () => {},
    logger: { info: () => {}, warn: () => {} },
    listen: async () => async () => {},
  });
  await follower.init();
  await follower.start();
  await follower.reached(3);
  await follower.stop();
  return followed;
}

describe(TickFollower.name, () => {
  it('leaves the position of ticks that changed something to the batches that store their changes, applying the next meanwhile', async () => {
    const followed = await follow(true);
    assert.deepEqual(followed.recorded, [0]);
    // Once at the start, then not until the chunk's three ticks were applied.
    assert.deepEqual(followed.appliedAtWaits.slice(0, 2), [0, 3]);
  });

  it('records a tick that changed something on its own when the batches do not, once its changes are stored', async () => {
    const followed = await follow(false);
    assert.deepEqual(followed.recorded, [0, 1, 2, 3]);
    assert.deepEqual(followed.storedWhenRecorded, [0, 1, 2, 3]);
    assert.deepEqual(followed.appliedAtWaits.slice(0, 4), [0, 1, 2, 3]);
  });
});
