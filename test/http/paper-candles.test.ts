import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertRecordInvalid, postTicks } from '../support/api.ts';
import type { Credentials } from '../support/signing.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
let admin: Credentials;
before(async () => {
  t = await startTestApp();
  admin = await t.createKey({ user: 'operator', permissions: ['ADMIN'] });
});
after(() => t.close());

const candles = (query: string) => t.request({ path: `/ext/paper/candles?${query}` });

describe('GET /ext/paper/candles', () => {
  it('answers the candles of the prices applied, unsigned, oldest first', async () => {
    const ticks = [
      ['60000', '2026-01-01T10:00:05Z'],
      ['60300.5', '2026-01-01T10:00:40Z'],
      ['59900', '2026-01-01T10:01:10Z'],
      ['60100', '2026-01-01T10:06:00Z'],
    ].map(([price, at]) => ({ pair: 'USDT_BTC', price: price!, at: at! }));
    assert.equal((await postTicks(t, admin, ticks)).status, 200);
    const minutes = await candles('pair=USDT_BTC');
    assert.equal(minutes.status, 200, minutes.text);
    const start = Date.parse('2026-01-01T10:00:00Z') / 1000;
    assert.deepEqual(minutes.body, [
      { time: start, open: '60000', high: '60300.5', low: '60000', close: '60300.5' },
      { time: start + 60, open: '59900', high: '59900', low: '59900', close: '59900' },
      { time: start + 360, open: '60100', high: '60100', low: '60100', close: '60100' },
    ]);
    const fiveMinutes = await candles('pair=USDT_BTC&interval=5m&from=2026-01-01T10:00:00Z&to=2026-01-01T10:04:59Z');
    assert.deepEqual(fiveMinutes.body, [{ time: start, open: '60000', high: '60300.5', low: '59900', close: '59900' }]);
    assert.deepEqual((await candles('pair=USDT_BTC&limit=1')).body.map((c: { close: string }) => c.close), ['60100']);
    assert.deepEqual((await candles('pair=USDT_ETH')).body, []);
  });

  it('names the field that is wrong', async () => {
    assertRecordInvalid(await candles('pair=XXX_YYY'), { pair: ['does not have a valid value'] });
    assertRecordInvalid(await candles('pair=USDT_BTC&interval=2m'), { interval: ['does not have a valid value'] });
    assertRecordInvalid(await candles('pair=USDT_BTC&from=1767261600&to=1767225600'), { from: ['must not be after to'] });
    assertRecordInvalid(await candles('pair=USDT_BTC&limit=0'), { limit: ['must be greater than or equal to 1'] });
  });
});
