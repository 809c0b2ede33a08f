/**
 * Several ticks in one `POST /ext/paper/ticks` are separate market events: grid bots answer each
 * fill before the next tick, so a price path trades the same in one request as tick by tick.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newUser, postTicks, setPrices } from '../support/api.ts';
import { getJson, gridOrders, startGrid, FIVE_LINES } from '../support/grid-bots.ts';
import type { Credentials } from '../support/signing.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
let admin: Credentials;
before(async () => {
  t = await startTestApp({ PAPER_SLIPPAGE_BPS: '0' });
  admin = await t.createKey({ user: 'operator', permissions: ['ADMIN'] });
});
after(() => t.close());

const PATH = ['58900', '61100', '58900', '61100', '58900', '61100'].map((price) => ({ pair: 'USDT_BTC', price }));

/** A new grid bot at 60000 that trades the path as `send` delivers it; answers what it did. */
async function trade(send: () => Promise<void>) {
  await setPrices(t, admin, { USDT_BTC: '60000' });
  const user = await newUser(t);
  const { id } = await startGrid(t, user, FIVE_LINES);
  await send();
  const bot = await getJson(t, user, `/ver1/grid_bots/${id}`);
  const profits = await getJson(t, user, `/ver1/grid_bots/${id}/profits`);
  return {
    cycles: bot.total_profits_count,
    profit: bot.current_profit,
    profits: profits.map((row: Record<string, string>) => row.profit),
    orders: await gridOrders(t, user, id),
  };
}

describe('ticks posted together', () => {
  it('trade the same as the same ticks posted one by one', async () => {
    const together = await trade(async () => {
      const response = await postTicks(t, admin, PATH);
      assert.equal(response.status, 200, response.text);
    });
    const oneByOne = await trade(async () => {
      for (const tick of PATH) assert.equal((await postTicks(t, admin, [tick])).status, 200);
    });
    assert.deepEqual(together, oneByOne);
    assert.equal(oneByOne.cycles, '5');
  });
});
