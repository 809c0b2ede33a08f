import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { assertError, assertRecordInvalid } from '../support/api.ts';
import { anotherUser, balances, type Bench, call, startBench, tick } from '../scenarios/smart-trade-support.ts';

let bench: Bench;
before(async () => {
  bench = await startBench({ USDT_ETH: '2000', USDT_BTC: '60000' });
});
after(() => bench.t.close());
beforeEach(async () => {
  Object.assign(bench, await anotherUser(bench));
  await tick(bench, '2000');
});

const OFF = { conditional: { enabled: false }, trailing: { enabled: false }, timeout: { enabled: false } };
const ENTITY_KEYS = ['account_id', 'closed_at', 'conditional', 'created_at', 'data', 'filled', 'leverage', 'order', 'pair', 'price', 'status', 'timeout', 'total', 'trailing', 'units', 'uuid'];
const CANNOT_CANCEL = { error: 'unprocessable_entity', error_description: 'Trade cannot be cancelled' };

async function create(body: Record<string, unknown>): Promise<any> {
  const response = await call(bench, 'POST', '/ver1/trades', { account_id: bench.accountId, pair: 'USDT_ETH', units: { value: '0.1' }, ...OFF, ...body });
  assert.equal(response.status, 201, response.text);
  return response.body.trade;
}

async function get(uuid: string): Promise<any> {
  const response = await call(bench, 'GET', `/ver1/trades/${uuid}`);
  assert.equal(response.status, 200, response.text);
  return response.body.trade;
}

describe('POST /ver1/trades', () => {
  it('a market buy fills at once; the entity has Unix-second times and both status keys', async () => {
    const before = Math.floor(Date.now() / 1000);
    const created = await create({ order: { type: 'market', side: 'buy' } });
    assert.deepEqual(Object.keys(created).sort(), ENTITY_KEYS);
    assert.match(created.uuid, /^[0-9a-f-]{36}$/);
    const trade = await get(created.uuid);
    assert.deepEqual(trade.status, { value: 'finished', basic_type: 'finished', error: null });
    assert.deepEqual(trade.filled, { units: '0.1', total: '200', price: '2000', value: '100' });
    assert.deepEqual(trade.order, { type: 'market', side: 'buy', strategy: 'gtc', position_side: 'both', reduce_only: false });
    assert.ok(Number.isInteger(trade.created_at) && trade.created_at >= before - 1);
    assert.ok(Number.isInteger(trade.closed_at) && trade.closed_at >= trade.created_at);
    assert.deepEqual(trade.data, { cancelable: false });
  });

  it('gtc limit rests and locks its funds; ioc and fok that cannot fill end cancelled; post_only that would take fails', async () => {
    // A null strategy is the default, gtc; an unfilled trade shows its fill price as a decimal string.
    const gtc = await create({ order: { type: 'limit', side: 'buy', strategy: null }, price: { value: '1900' } });
    const resting = await get(gtc.uuid);
    assert.deepEqual([resting.order.strategy, resting.filled], ['gtc', { units: '0', total: '0', price: '0', value: '0' }]);
    assert.deepEqual([resting.status.value, (await balances(bench)).USDT!.locked], ['order_placed', 190]);
    await tick(bench, '1899');
    assert.equal((await get(gtc.uuid)).status.value, 'finished');
    await tick(bench, '2000');
    for (const strategy of ['ioc', 'fok']) {
      const trade = await create({ order: { type: 'limit', side: 'buy', strategy }, price: { value: '1900' } });
      assert.deepEqual([(await get(trade.uuid)).status.value, (await get(trade.uuid)).filled.units], ['cancelled', '0']);
    }
    const ioc = await create({ order: { type: 'limit', side: 'buy', strategy: 'ioc' }, price: { value: '1950' } });
    await tick(bench, '1940');
    assert.equal((await get(ioc.uuid)).status.value, 'cancelled');
    const taking = await create({ order: { type: 'limit', side: 'sell', strategy: 'post_only' }, price: { value: '1800' } });
    const failed = await get(taking.uuid);
    assert.equal(failed.status.value, 'failed');
    assert.match(failed.status.error, /post-only/);
  });

  it('conditional with a timeout: placed only if the condition still holds after the wait', async () => {
    const start = Date.now() + 500_000;
    await tick(bench, '2000', { at: new Date(start) });
    const trade = await create({
      order: { type: 'market', side: 'sell' },
      conditional: { enabled: true, value: 'greater_or_equal', price: { value: '2100', type: 'last' } },
      timeout: { enabled: true, value: 30 },
    });
    await tick(bench, '2100', { at: new Date(start + 1000) });
    assert.equal((await get(trade.uuid)).status.value, 'to_process');
    await tick(bench, '2050', { at: new Date(start + 32_000) });
    assert.equal((await get(trade.uuid)).status.value, 'to_process');
    await tick(bench, '2120', { at: new Date(start + 40_000) });
    await tick(bench, '2110', { at: new Date(start + 71_000) });
    const done = await get(trade.uuid);
    assert.deepEqual([done.status.value, done.filled.price, done.timeout], ['finished', '2110', { enabled: true, value: 30 }]);
  });

  it('conditional trailing sell: follows the high after the trigger and sells on the drop', async () => {
    const trade = await create({
      order: { type: 'market', side: 'sell' },
      conditional: { enabled: true, value: 'greater_or_equal', price: { value: '2100', type: 'last' } },
      trailing: { enabled: true, percent: '1' },
    });
    await tick(bench, '2100');
    assert.equal((await get(trade.uuid)).status.value, 'trailing_activated');
    await tick(bench, '2200');
    await tick(bench, '2179');
    assert.equal((await get(trade.uuid)).status.value, 'trailing_activated');
    await tick(bench, '2178');
    const done = await get(trade.uuid);
    assert.deepEqual([done.status.value, done.filled.price, done.trailing], ['finished', '2178', { enabled: true, value: null, percent: '1' }]);
  });

  it('answers invalid parameters with the fields named', async () => {
    const post = (body: Record<string, unknown>) => call(bench, 'POST', '/ver1/trades', { account_id: bench.accountId, pair: 'USDT_ETH', units: { value: '0.1' }, ...body });
    assertRecordInvalid(await post({ order: { type: 'limit', side: 'buy' } }), { 'price[value]': ['is missing'] });
    assertRecordInvalid(await post({ order: { type: 'stop', side: 'buy' } }), { 'order[type]': ['does not have a valid value'] });
    assertRecordInvalid(await post({ order: { type: 'market', side: 'buy' }, conditional: { enabled: true } }), {
      'conditional[value]': ['is missing'],
      'conditional[price][value]': ['is missing'],
    });
    assertRecordInvalid(await post({ order: { type: 'market', side: 'buy' }, timeout: { enabled: true, value: 10 } }), { 'timeout[enabled]': ['is only available with a condition'] });
    assertRecordInvalid(await post({ order: { type: 'market', side: 'buy' }, trailing: { enabled: true } }), { 'trailing[value]': ['is missing'] });
    assertRecordInvalid(await post({ order: { type: 'market', side: 'buy' }, units: { value: '0.001' } }), { total: ['must be greater than or equal to 5'] });
    assertRecordInvalid(await post({ order: { type: 'market', side: 'buy' }, pair: 'NOPE' }), { pair: ['does not have a valid value'] });
  });
});

describe('GET /ver1/trades, /ver1/trades/history and /ver1/trades/:uuid', () => {
  it('splits active trades from the history, with account, pair, order and paging', async () => {
    const a = await create({ order: { type: 'limit', side: 'buy' }, price: { value: '1900' } });
    const b = await create({ order: { type: 'limit', side: 'buy' }, price: { value: '1800' }, pair: 'USDT_ETH' });
    const c = await create({ order: { type: 'limit', side: 'buy' }, price: { value: '50000' }, pair: 'USDT_BTC', units: { value: '0.001' } });
    const done = await create({ order: { type: 'market', side: 'buy' } });
    const uuids = async (path: string) => {
      const response = await call(bench, 'GET', path);
      assert.equal(response.status, 200, response.text);
      assert.deepEqual(Object.keys(response.body), ['trades']);
      return response.body.trades.map((trade: { uuid: string }) => trade.uuid);
    };
    assert.deepEqual(await uuids('/ver1/trades'), [a.uuid, b.uuid, c.uuid]);
    assert.deepEqual(await uuids('/ver1/trades?order_direction=desc&limit=2'), [c.uuid, b.uuid]);
    assert.deepEqual(await uuids('/ver1/trades?limit=2&offset=2'), [c.uuid]);
    assert.deepEqual(await uuids('/ver1/trades?order_by=pair'), [c.uuid, a.uuid, b.uuid]);
    assert.deepEqual(await uuids('/ver1/trades?pair=USDT_BTC'), [c.uuid]);
    assert.deepEqual(await uuids(`/ver1/trades?account_id=${bench.accountId + 1000}`), []);
    assert.deepEqual(await uuids('/ver1/trades/history'), [done.uuid]);
    // Order events are dated by the market event they follow: a later tick dates the cancellation.
    // Later than the ticks of the trailing test above too: the engine's clock never goes back.
    await tick(bench, '2000', { at: new Date(Date.now() + 600_000) });
    await call(bench, 'POST', `/ver1/trades/${a.uuid}/cancel`);
    assert.deepEqual(await uuids('/ver1/trades/history?order_by=closed_at'), [done.uuid, a.uuid]);
    assertRecordInvalid(await call(bench, 'GET', '/ver1/trades/history?order_by=profit'), { order_by: ['does not have a valid value'] });
    assertRecordInvalid(await call(bench, 'GET', '/ver1/trades?order_by=closed_at'), { order_by: ['does not have a valid value'] });
  });

  it('another user\'s or an unknown trade is 404 not_found', async () => {
    const trade = await create({ order: { type: 'limit', side: 'buy' }, price: { value: '1900' } });
    const other = await anotherUser(bench);
    assertError(await call(bench, 'GET', `/ver1/trades/${trade.uuid}`, undefined, other.user), 404, { error: 'not_found', error_description: 'Not Found' });
    assertError(await call(bench, 'GET', '/ver1/trades/00000000-0000-0000-0000-000000000000'), 404, { error: 'not_found', error_description: 'Not Found' });
  });
});

describe('POST /ver1/trades/:uuid/cancel', () => {
  it('cancels an open trade: 201, cancelled, no longer cancelable, closed_at set, funds released', async () => {
    const trade = await create({ order: { type: 'limit', side: 'buy' }, price: { value: '1900' } });
    const response = await call(bench, 'POST', `/ver1/trades/${trade.uuid}/cancel`);
    assert.equal(response.status, 201, response.text);
    const cancelled = response.body.trade;
    assert.deepEqual([cancelled.status.basic_type, cancelled.data.cancelable, typeof cancelled.closed_at], ['cancelled', false, 'number']);
    assert.equal((await balances(bench)).USDT!.locked, 0);
  });

  it('cancels a conditional trade still waiting for its price', async () => {
    const trade = await create({ order: { type: 'market', side: 'buy' }, conditional: { enabled: true, value: 'less', price: { value: '1500', type: 'ask' } } });
    assert.equal((await get(trade.uuid)).data.cancelable, true);
    const response = await call(bench, 'POST', `/ver1/trades/${trade.uuid}/cancel`);
    assert.equal(response.body.trade.status.basic_type, 'cancelled');
  });

  it('a finished or cancelled trade cannot be cancelled: 400 unprocessable_entity', async () => {
    const done = await create({ order: { type: 'market', side: 'buy' } });
    assertError(await call(bench, 'POST', `/ver1/trades/${done.uuid}/cancel`), 400, CANNOT_CANCEL);
    assertError(await call(bench, 'POST', '/ver1/trades/unknown/cancel'), 404, { error: 'not_found', error_description: 'Not Found' });
  });

  it('needs SMART_TRADES_WRITE', async () => {
    const reader = await bench.t.createKey({ user: 'trades-reader', permissions: ['SMART_TRADES_READ'] });
    const response = await bench.t.request({ method: 'POST', path: '/ver1/trades/x/cancel', credentials: { apiKey: reader.apiKey, secret: reader.secret } });
    assertError(response, 403, { error: 'Forbidden', error_description: 'Api key not authorized for this action' });
  });
});
