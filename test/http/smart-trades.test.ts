import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, assertRecordInvalid } from '../support/api.ts';
import { anotherUser, type Bench, call, createSmartTrade, position, show, startBench, step, tick } from '../scenarios/smart-trade-support.ts';

let bench: Bench;
before(async () => {
  bench = await startBench({ USDT_ETH: '2000', USDT_BTC: '60000' });
});
after(() => bench.t.close());

const NOT_FOUND = { error: 'Not found', error_description: 'Smart Trade not found' };
const ENTITY_KEYS = [
  'account', 'data', 'id', 'instant', 'is_position_not_filled', 'leverage', 'margin', 'market_close', 'note', 'note_raw', 'pair',
  'position', 'profit', 'reduce_funds', 'skip_enter_step', 'status', 'stop_loss', 'take_profit', 'version',
];
const DATA_KEYS = [
  'add_funds_available', 'average_close_price', 'average_close_price_without_commission', 'average_enter_price',
  'average_enter_price_without_commission', 'base_order_finished', 'base_position_step_finished', 'cancel_available', 'closed_amount',
  'closed_at', 'closed_total', 'commission', 'created_at', 'current_price', 'editable', 'entered_amount', 'entered_total', 'finished',
  'force_process_available', 'force_start_available', 'liquidation_price', 'missing_funds_to_close', 'orderbook_price_currency',
  'panic_sell_available', 'reduce_funds_available', 'target_price_type', 'type', 'updated_at',
];
const limitTrade = (extra: Record<string, unknown> = {}) =>
  createSmartTrade(bench, { position: position('0.1', { order_type: 'limit', price: { value: '1800' } }), take_profit: { enabled: true, steps: [step('100', { value: '2400' })] }, ...extra });

describe('POST /v2/smart_trades', () => {
  it('answers 201 with the reference entity', async () => {
    const body = await limitTrade({ note: 'first', stop_loss: { enabled: true, order_type: 'market', conditional: { price: { type: 'bid', value: '1700' } } } });
    assert.deepEqual(Object.keys(body).sort(), ENTITY_KEYS);
    assert.deepEqual(Object.keys(body.data).sort(), DATA_KEYS);
    assert.deepEqual(body.account, { id: bench.accountId, type: 'paper_trading', name: 'Paper trading account', market: 'Paper trading account', link: `/accounts/${bench.accountId}` });
    assert.deepEqual([body.version, body.pair, body.instant, body.note, body.note_raw, body.data.type], [2, 'USDT_ETH', false, 'first', 'first', 'smart_trade']);
    // As the reference answers a create: accepted, to be processed; the limit order goes out at once.
    assert.deepEqual(body.status, { type: 'created', basic_type: 'created', title: 'Pending' });
    assert.deepEqual(body.position.status, { type: 'to_process', basic_type: 'to_process', title: 'Pending' });
    const shown = await call(bench, 'GET', `/v2/smart_trades/${body.id}`);
    assert.deepEqual([shown.body.status.type, shown.body.position.status.type], ['waiting_position', 'order_placed']);
    assert.deepEqual(body.position.units, { value: '0.1', editable: false });
    assert.equal(shown.body.position.units.editable, true);
    assert.deepEqual(body.take_profit.steps[0].price, { type: 'last', value: '2400', percent: null });
    assert.deepEqual(body.stop_loss.conditional.price, { value: '1700', type: 'bid', percent: null });
    assert.deepEqual(body.profit, { volume: null, usd: null, percent: '0', roe: null });
    assert.equal(body.is_position_not_filled, true);
  });

  it('accepts a form body with bracketed names', async () => {
    const form = new URLSearchParams({
      account_id: String(bench.accountId), pair: 'USDT_ETH', 'position[type]': 'buy', 'position[order_type]': 'limit',
      'position[units][value]': '0.1', 'position[price][value]': '1800', 'take_profit[enabled]': 'true',
      'take_profit[steps][][order_type]': 'limit', 'take_profit[steps][][volume]': '100', 'take_profit[steps][][price][value]': '2500',
    }).toString();
    const response = await bench.t.request({ method: 'POST', path: '/v2/smart_trades', body: form, contentType: 'application/x-www-form-urlencoded', credentials: bench.user });
    assert.equal(response.status, 201, response.text);
    assert.equal(response.body.take_profit.steps[0].price.value, '2500');
  });

  it('names invalid fields the reference way', async () => {
    const create = (body: Record<string, unknown>) => call(bench, 'POST', '/v2/smart_trades', { account_id: bench.accountId, pair: 'USDT_ETH', position: position('0.1'), ...body });
    assertRecordInvalid(await create({ take_profit: { enabled: true, steps: [step('100', { value: '2400', percent: '10' })] } }), {
      'take_profit[steps][0][price][value],take_profit[steps][0][price][percent]': ['are mutually exclusive'],
    });
    assertRecordInvalid(await create({ take_profit: { enabled: true, steps: [{ volume: '100', price: { value: '2400' } }] }, stop_loss: { enabled: true } }), {
      'take_profit[steps][0][order_type]': ['is missing'],
      'stop_loss[order_type]': ['is missing'],
    });
    assertRecordInvalid(await create({ take_profit: { enabled: true, steps: [step('100', { value: '2400' })] }, stop_loss: { enabled: true, order_type: 'market', breakeven: true, conditional: { price: { percent: '5' } } } }), {
      'stop_loss[breakeven]': ['needs at least two take profit steps'],
    });
    assertRecordInvalid(await create({ position: { type: 'buy', order_type: 'stop', units: { value: 'x' } } }), {
      'position[order_type]': ['does not have a valid value'],
      'position[units][value]': ['is invalid'],
    });
    assertRecordInvalid(await create({ position: position('0.1', { order_type: 'conditional' }) }), {
      'position[conditional][price][value]': ['is missing'],
      'position[conditional][order_type]': ['is missing'],
    });
    assertRecordInvalid(await create({ pair: 'USDT_DOGE' }), { pair: ['does not have a valid value'] });
    assertRecordInvalid(await create({ note: 'x'.repeat(301) }), { note: ['too long. Max is 300 symbols'] });
  });

  it('refuses an account of another user (403) and an unknown account (404)', async () => {
    const other = await anotherUser(bench);
    const foreign = await call(bench, 'POST', '/v2/smart_trades', { account_id: other.accountId, pair: 'USDT_ETH', position: position('0.1') });
    assertError(foreign, 403, { error: 'Forbidden', error_description: 'Account not owned by current user.' });
    const unknown = await call(bench, 'POST', '/v2/smart_trades', { account_id: 999999, pair: 'USDT_ETH', position: position('0.1') });
    assertError(unknown, 404, { error: 'not_found', error_description: 'Not Found' });
  });

  it('needs SMART_TRADES_WRITE; SMART_TRADES_READ is enough to read', async () => {
    const reader = await bench.t.createKey({ user: 'reader', permissions: ['SMART_TRADES_READ'] });
    const credentials = { apiKey: reader.apiKey, secret: reader.secret };
    const write = await bench.t.request({ method: 'POST', path: '/v2/smart_trades', body: '{}', contentType: 'application/json', credentials });
    assertError(write, 403, { error: 'Forbidden', error_description: 'Api key not authorized for this action' });
    const read = await bench.t.request({ path: '/v2/smart_trades', credentials, headers: { 'Forced-Mode': 'paper' } });
    assert.deepEqual([read.status, read.body], [200, []]);
  });
});

describe('GET /v2/smart_trades and /v2/smart_trades/:id', () => {
  it('lists the caller\'s trades with filters, sorting and pages', async () => {
    const trader = await anotherUser(bench);
    const mine = { ...bench, ...trader };
    const buy = await createSmartTrade(mine, { position: position('0.1'), take_profit: { enabled: true, steps: [step('100', { value: '2400' })] } });
    const simple = await createSmartTrade(mine, { instant: true, position: position('0.1') });
    const btc = await createSmartTrade(mine, { pair: 'USDT_BTC', position: position('0.001', { order_type: 'limit', price: { value: '50000' } }) });
    await call(mine, 'DELETE', `/v2/smart_trades/${btc.id}`);
    const list = async (query: string) => {
      const response = await call(mine, 'GET', `/v2/smart_trades${query}`);
      assert.equal(response.status, 200, response.text);
      return response.body.map((trade: { id: number }) => trade.id);
    };
    assert.deepEqual(await list('?order_by=created_at&order_direction=asc'), [buy.id, simple.id, btc.id]);
    assert.deepEqual(await list('?order_by=created_at&order_direction=DESC&per_page=2'), [btc.id, simple.id]);
    assert.deepEqual(await list('?order_by=created_at&per_page=2&page=2'), [buy.id]);
    assert.deepEqual(await list('?status=active'), [buy.id]);
    assert.deepEqual(await list('?status=finished'), [simple.id]);
    assert.deepEqual(await list('?status=successfully_finished'), [simple.id]);
    assert.deepEqual(await list('?status=cancelled'), [btc.id]);
    assert.deepEqual(await list('?type=simple_buy'), [simple.id]);
    assert.deepEqual(await list('?pair=USDT_BTC'), [btc.id]);
    assert.deepEqual(await list('?base=BTC&quote=USDT'), [btc.id]);
    assert.deepEqual(await list(`?account_id=${trader.accountId}&order_by=created_at&order_direction=asc`), [buy.id, simple.id, btc.id]);
    assert.deepEqual(await list(`?account_id=${bench.accountId}`), []);
    assert.deepEqual(await list('?from=2000-01-01T00:00:00Z&to=2001-01-01T00:00:00Z'), []);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    assert.deepEqual((await list(`?to=${tomorrow}&order_by=created_at`)).length, 3);
    assert.deepEqual(await list('?order_by=status&order_direction=asc'), [buy.id, simple.id, btc.id]);
    assertRecordInvalid(await call(mine, 'GET', '/v2/smart_trades?per_page=101&from=yesterday'), {
      per_page: ['must be less than or equal to 100'],
      from: ['is invalid'],
    });
    assertRecordInvalid(await call(mine, 'GET', '/v2/smart_trades?from=yesterday'), { from: ['is invalid'] });
    await call(mine, 'DELETE', `/v2/smart_trades/${buy.id}`);
  });

  it('shows only the caller\'s own trades: anything else is 404 Smart Trade not found', async () => {
    const created = await limitTrade();
    assert.equal((await show(bench, created.id)).id, created.id);
    const other = await anotherUser(bench);
    assertError(await call(bench, 'GET', `/v2/smart_trades/${created.id}`, undefined, other.user), 404, NOT_FOUND);
    assertError(await call(bench, 'GET', '/v2/smart_trades/999999'), 404, NOT_FOUND);
    assertError(await call(bench, 'GET', '/v2/smart_trades/999999/trades'), 404, NOT_FOUND);
    assertError(await call(bench, 'GET', '/v2/smart_trades/999999/reduce_funds_info'), 404, NOT_FOUND);
    assertError(await call(bench, 'POST', '/v2/smart_trades/999999/close_by_market'), 404, NOT_FOUND);
    assertError(await call(bench, 'DELETE', '/v2/smart_trades/999999'), 400, NOT_FOUND);
    assertError(await call(bench, 'DELETE', `/v2/smart_trades/${created.id}`, undefined, other.user), 400, NOT_FOUND);
  });
});

describe('PATCH /v2/smart_trades/:id and set_note', () => {
  it('edits the entry price, the steps and the stop loss while waiting', async () => {
    const created = await limitTrade();
    const response = await call(bench, 'PATCH', `/v2/smart_trades/${created.id}`, {
      position: { price: { value: '1850' } },
      take_profit: { enabled: true, steps: [{ ...step('60', { value: '2300' }), id: created.take_profit.steps[0].id }, step('40', { percent: '30' })] },
      stop_loss: { enabled: true, order_type: 'market', conditional: { price: { value: '1700' } } },
    });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual([response.body.position.price.value, response.body.take_profit.steps.length, response.body.stop_loss.enabled], ['1850', 2, true]);
    assert.equal(response.body.take_profit.steps[0].id, created.take_profit.steps[0].id);
  });

  it('answers the reference\'s errors: mutually exclusive prices, missing stop-loss type, wrong status', async () => {
    const created = await limitTrade();
    assertRecordInvalid(
      await call(bench, 'PATCH', `/v2/smart_trades/${created.id}`, {
        take_profit: { enabled: true, steps: [step('100', { value: '2300', percent: '5' })] },
        stop_loss: { enabled: true },
      }),
      { 'take_profit[steps][0][price][value],take_profit[steps][0][price][percent]': ['are mutually exclusive'], 'stop_loss[order_type]': ['is missing'] },
    );
    await call(bench, 'DELETE', `/v2/smart_trades/${created.id}`);
    const ended = await call(bench, 'PATCH', `/v2/smart_trades/${created.id}`, { stop_loss: { enabled: false } });
    assertError(ended, 400, { error: 'Wrong param(s)', error_description: 'Edit is not allowed in the current status' });
    assertError(await call(bench, 'PATCH', '/v2/smart_trades/999999', {}), 404, NOT_FOUND);
  });

  it('set_note: 1 to 300 characters, in any status', async () => {
    const created = await limitTrade();
    await call(bench, 'DELETE', `/v2/smart_trades/${created.id}`);
    const response = await call(bench, 'POST', `/v2/smart_trades/${created.id}/set_note`, { note: 'kept' });
    assert.deepEqual([response.status, response.body.note, response.body.note_raw], [201, 'kept', 'kept']);
    assertRecordInvalid(await call(bench, 'POST', `/v2/smart_trades/${created.id}/set_note`, { note: 'x'.repeat(301) }), { note: ['too long. Max is 300 symbols'] });
    assertRecordInvalid(await call(bench, 'POST', `/v2/smart_trades/${created.id}/set_note`, { note: '' }), { note: ['is empty'] });
    assertRecordInvalid(await call(bench, 'POST', `/v2/smart_trades/${created.id}/set_note`, {}), { note: ['is missing'] });
  });
});

describe('funds inputs', () => {
  it('add_funds and reduce_funds check their fields against the market', async () => {
    await tick(bench, '2000');
    const created = await createSmartTrade(bench, { position: position('0.1'), take_profit: { enabled: true, steps: [step('100', { value: '2400' })] } });
    const add = (body: Record<string, unknown>) => call(bench, 'POST', `/v2/smart_trades/${created.id}/add_funds`, body);
    assertRecordInvalid(await add({ order_type: 'limit', units: { value: '0.1' } }), { 'price[value]': ['is missing'] });
    assertRecordInvalid(await add({ order_type: 'market', units: { value: '0.00001' } }), { 'units[value]': ['must be a multiple of 0.0001'] });
    assertRecordInvalid(await add({ order_type: 'market' }), { units: ['is missing'] });
    assertError(await add({ order_type: 'market', units: { value: '0.001' } }), 422, {
      error: 'record_invalid', error_description: 'Invalid parameters', error_attributes: { total: ['must be greater than or equal to 5'] },
    });
    await call(bench, 'DELETE', `/v2/smart_trades/${created.id}`);
  });
});
