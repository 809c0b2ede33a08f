import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openTestDatabase } from '../../test/support/database.ts';
import { aCandle as candle, HOUR } from '../../test/builders/candle.ts';
import type { MarketTick } from '../domain/market/market-tick.ts';
import type { Database } from '../store/database.ts';
import { SqlReplayPositions } from '../store/replay-positions.repository.ts';
import { ResumingReplay } from './resuming-replay.ts';

let db: Database;
before(async () => {
  db = await openTestDatabase();
});
after(() => db.close());

/** Two days of hourly candles whose open is the hour's number, so a price tells where it came from. */
const sources = () => [
  { pair: 'USDT_BTC', candleDurationMs: HOUR, candles: Array.from({ length: 48 }, (_, h) => candle(h, String(100 + h), String(100 + h), String(100 + h), String(100 + h))) },
];

/** Runs a replay until it has delivered `count` batches (or its data ends), and stops it there. */
async function runFor(count: number, from: Date) {
  const received: MarketTick[][] = [];
  const starts: Array<{ from: string; resumed: boolean }> = [];
  let ended!: () => void;
  const done = new Promise<void>((resolve) => (ended = resolve));
  const replay = new ResumingReplay({
    sources,
    speed: 0,
    from,
    positions: new SqlReplayPositions(db),
    now: () => new Date('2031-06-01T12:00:00Z'),
    saveEveryMs: 0,
    onStart: (start, resumed) => starts.push({ from: start.toISOString(), resumed }),
    onEnd: () => ended(),
  });
  let stopping: Promise<void> | undefined;
  await replay.start(async (batch) => {
    received.push(batch);
    // Stopping from inside the sink: not one batch more is delivered.
    if (received.length === count) {
      stopping = replay.stop();
      ended();
    }
  });
  await done;
  await (stopping ?? replay.stop());
  return { prices: received.map((batch) => batch[0]!.price.toFixed()), stamps: received.flat().map((tick) => tick.at.toISOString()), starts };
}

describe(ResumingReplay.name, () => {
  it('replays a chosen period dated by the clock, and after a restart continues where it stopped', async () => {
    const from = new Date(10 * HOUR);
    const first = await runFor(8, from);
    assert.deepEqual(first.starts, [{ from: from.toISOString(), resumed: false }]);
    assert.deepEqual(first.prices, ['110', '110', '110', '110', '111', '111', '111', '111']);
    assert.ok(first.stamps.every((stamp) => stamp === '2031-06-01T12:00:00.000Z'));
    const second = await runFor(4, from);
    assert.equal(second.starts[0]!.resumed, true);
    assert.deepEqual(second.prices, ['112', '112', '112', '112']);
  });
});
