/**
 * How every list and statistic reads its parameters: the mode it covers (Forced-Mode), dates in
 * each form clients send, bounds on numbers and dates, enumerations that are not object members,
 * and booleans as Rails and Python write them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertRecordInvalid, postJson } from '../support/api.ts';
import { api, botBody, createBot, type DcaBench, startDcaBench } from '../scenarios/dca-support.ts';

let bench: DcaBench;
let botId: number;
before(async () => {
  bench = await startDcaBench();
  const bot = await createBot(bench, { strategy_list: [{ strategy: 'manual' }] }, false);
  botId = bot.id;
  const deal = await api(bench, 'POST', `/ver1/bots/${botId}/start_new_deal`, { only_for_enabled: false });
  assert.equal(deal.status, 201, deal.text);
  assert.equal((await api(bench, 'POST', `/ver1/deals/${deal.body.id}/panic_sell`)).status, 201);
  const trade = { account_id: bench.accountId, pair: 'USDT_ETH', units: { value: '0.1' }, order: { type: 'market', side: 'buy' } };
  assert.equal((await api(bench, 'POST', '/ver1/trades', trade)).status, 201);
  const smartTrade = { account_id: bench.accountId, pair: 'USDT_ETH', instant: true, position: { type: 'buy', order_type: 'market', units: { value: '0.1' } } };
  assert.equal((await api(bench, 'POST', '/v2/smart_trades', smartTrade)).status, 201);
  const grid = { account_id: bench.accountId, pair: 'USDT_ETH', upper_price: '110', lower_price: '90', grids_quantity: 5, quantity_per_grid: '0.2' };
  const created = await api(bench, 'POST', '/ver1/grid_bots/manual', grid);
  assert.equal(created.status, 201, created.text);
});
after(() => bench.t.close());

const get = (path: string, headers: Record<string, string> = {}) => bench.t.request({ path, credentials: bench.user, headers });
const today = () => new Date().toISOString().slice(0, 10);

/** Every list, and how many entries it shows: each created above lives on the user's paper account. */
const LISTS: Record<string, (body: any) => number> = {
  '/ver1/grid_bots': (body) => body.length,
  '/v2/smart_trades': (body) => body.length,
  '/ver1/bots': (body) => body.length,
  '/ver1/deals': (body) => body.length,
  '/ver1/trades/history': (body) => body.trades.length,
  '/ver1/bots/stats': (body) => Object.keys(body.overall_stats).length,
  [`/ver1/bots/stats_by_date?date=${today()}`]: (body) => Object.keys(body.stats).length,
  '/ver1/accounts': (body) => body.length,
};

describe('Forced-Mode', () => {
  for (const [path, count] of Object.entries(LISTS)) {
    it(`narrows ${path.split('?')[0]} to the accounts of the mode`, async () => {
      const paper = await get(path, { 'Forced-Mode': 'paper' });
      assert.equal(paper.status, 200, paper.text);
      assert.ok(count(paper.body) > 0, paper.text);
      const real = await get(path, { 'Forced-Mode': 'real' });
      assert.equal(real.status, 200, real.text);
      assert.equal(count(real.body), 0, real.text);
    });
  }
});

describe('dates', () => {
  const past = ['2024-01-02T03:04:05Z', '2024-01-02 03:04:05', '2024-01-02T03:04:05.123+02:00', '2024-01-02T03:04', '2024-01-02', '1704164645'];
  const lists = ['/ver1/grid_bots', '/v2/smart_trades', '/ver1/bots', '/ver1/deals'];

  for (const list of lists) {
    it(`${list} takes from in every form, and a later from hides what came before`, async () => {
      for (const from of past) {
        const response = await get(`${list}?from=${encodeURIComponent(from)}`);
        assert.equal(response.status, 200, `${from}: ${response.text}`);
        assert.ok(response.body.length > 0, from);
      }
      const later = await get(`${list}?from=${Math.floor(Date.now() / 1000) + 3600}`);
      assert.deepEqual(later.body, []);
    });

    it(`${list} refuses a from outside 1970 to 9999 or in no known form, naming it`, async () => {
      for (const from of ['0000-01-01T00:00:00Z', '1969-12-31T23:59:59Z', '10000-01-01', '2024-02-30', 'yesterday', '1704164645000']) {
        assertRecordInvalid(await get(`${list}?from=${encodeURIComponent(from)}`), { from: ['is invalid'] });
      }
    });
  }

  it('answers stats for the last day of 9999 and refuses year 0', async () => {
    const last = await get('/ver1/bots/stats_by_date?date=9999-12-31T23:59:59Z');
    assert.equal(last.status, 200, last.text);
    assert.deepEqual(last.body.stats, {});
    assertRecordInvalid(await get('/ver1/bots/stats_by_date?date=0000-01-01'), { date: ['is invalid'] });
  });

  it('refuses a paper tick dated year 0 before it reaches the engine', async () => {
    const ticks = { market_code: 'paper_trading', ticks: [{ pair: 'USDT_ETH', price: '100', at: '0000-01-01T00:00:00Z' }] };
    assertRecordInvalid(await postJson(bench.t, '/ext/paper/ticks', ticks, bench.admin), { 'ticks[0][at]': ['is invalid'] });
    assert.equal((await get('/ver1/bots')).status, 200);
  });
});

describe('numbers and enumerations', () => {
  it('bounds a page, so the offset it makes fits the database', async () => {
    const grid = (await get('/ver1/grid_bots')).body[0];
    assertRecordInvalid(await get(`/ver1/grid_bots/${grid.id}/events?page=92233720368547758`), { page: ['must be less than or equal to 1000000'] });
    assertRecordInvalid(await get('/ver1/deals?offset=92233720368547758'), { offset: ['must be less than or equal to 10000000'] });
  });

  it('refuses a decimal whose exponent would not fit in memory written out', async () => {
    const grid = { account_id: bench.accountId, pair: 'USDT_ETH', upper_price: '110', lower_price: '90', grids_quantity: 5 };
    const response = await api(bench, 'POST', '/ver1/grid_bots/manual', { ...grid, quantity_per_grid: '1e999999999' });
    assertRecordInvalid(response, { quantity_per_grid: ['is invalid'] });
    const small = await api(bench, 'POST', '/ver1/grid_bots/manual', { ...grid, quantity_per_grid: '2e-1' });
    assert.equal(small.status, 201, small.text);
  });

  it('reads a scope named like an object member as no known scope', async () => {
    const all = (await get('/ver1/deals')).body.map((deal: { id: number }) => deal.id);
    for (const scope of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const response = await get(`/ver1/deals?scope=${scope}`);
      assert.equal(response.status, 200, `${scope}: ${response.text}`);
      assert.deepEqual(response.body.map((deal: { id: number }) => deal.id), all);
    }
  });

  it('refuses an RSI timeframe named like an object member', async () => {
    const rsi = { strategy: 'rsi', options: { time: 'constructor', points: 30 } };
    const response = await api(bench, 'POST', '/ver1/bots/create_bot', botBody(bench.accountId, { strategy_list: [rsi] }));
    assert.equal(response.status, 400, response.text);
    assert.deepEqual(response.body.error_attributes['strategy_list[0][options][time]'], ['does not have a valid value']);
  });
});

describe('booleans', () => {
  it('reads True, False, yes, no, t and f in a query', async () => {
    for (const [text, events] of [['True', true], ['False', false], ['yes', true], ['no', false], ['t', true], ['F', false]] as const) {
      const response = await get(`/ver1/bots/${botId}/show?include_events=${text}`);
      assert.equal(response.status, 200, `${text}: ${response.text}`);
      assert.equal('bot_events' in response.body, events, text);
    }
  });

  it('reads False in a form body', async () => {
    const response = await bench.t.request({
      method: 'POST',
      path: `/ver1/bots/${botId}/start_new_deal`,
      body: 'only_for_enabled=False',
      contentType: 'application/x-www-form-urlencoded',
      credentials: bench.user,
    });
    assert.equal(response.status, 201, response.text);
    await api(bench, 'POST', `/ver1/deals/${response.body.id}/cancel`);
  });
});
