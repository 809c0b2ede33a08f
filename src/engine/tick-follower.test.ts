import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MarketTick } from '../domain/market/market-tick.ts';
import { dec } from '../shared/decimal.ts';
import { type LoggedTick, TickFollower, type TickLogPort } from './tick-follower.ts';

const tick = (seq: number): LoggedTick => ({ seq, tick: { pair: 'USDT_BTC', price: dec(60_000 + seq), at: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)) } as MarketTick });

/** Three logged ticks, each of which changes something; answers the positions recorded on their own. */
async function follow(batchesStorePosition: boolean): Promise<number[]> {
  const recorded: number[] = [];
  let storedByBatch = -1;
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
    setPosition: async (_engineId, position) => void recorded.push(position),
    prune: async () => {},
  };
  const follower = new TickFollower({
    log,
    engineId: 'e1',
    apply: async (_tick, seq) => {
      if (batchesStorePosition) storedByBatch = seq;
      return { fills: 1, changed: true };
    },
    recordedInBatch: () => storedByBatch,
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
  return recorded;
}

describe(TickFollower.name, () => {
  it('records a tick that changed something at once, unless the batch that stored its changes stored the position too', async () => {
    assert.deepEqual(await follow(false), [0, 1, 2, 3]);
    assert.deepEqual(await follow(true), [0]);
  });
});
