/**
 * Whole flows through the published `3commas-api-node` client, unchanged: for grid bots,
 * SmartTrades, and DCA bots with their deals, create, list with filters, act and delete, with
 * every parameter in the query string as that client sends them (nested objects as `a[b][c]`).
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { setPrices } from '../support/api.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

interface ThreeCommasClient {
  makeRequest(method: string, path: string, params?: Record<string, unknown>): Promise<any>;
  botCreate(params: Record<string, unknown>): Promise<any>;
  getBots(params: Record<string, unknown>): Promise<any>;
  botEnable(botId: number): Promise<any>;
  botDisable(botId: number): Promise<any>;
  botStartNewDeal(params: Record<string, unknown>): Promise<any>;
  botShow(botId: number): Promise<any>;
  botDelete(botId: number): Promise<any>;
  getDeals(params: Record<string, unknown>): Promise<any>;
  getDeal(dealId: number): Promise<any>;
  dealUpdateTp(dealId: number, percent: string): Promise<any>;
  dealPanicSell(dealId: number): Promise<any>;
  dealCancel(dealId: number): Promise<any>;
  createSmartTradesV2(params: Record<string, unknown>): Promise<any>;
}

const require = createRequire(import.meta.url);
const ThreeCommasApi = require('3commas-api-node') as new (options: { url: string; apiKey: string; apiSecret: string; forcedMode?: string }) => ThreeCommasClient;

const API = '/public/api';
let t: TestApp;
let client: ThreeCommasClient;
let accountId: number;
before(async () => {
  t = await startTestApp({ PAPER_SLIPPAGE_BPS: '0' });
  const admin = await t.createKey({ user: 'operator', permissions: ['ADMIN'] });
  await setPrices(t, admin, { USDT_ETH: '100', USDT_BTC: '20000' });
  const { apiKey, secret } = await t.createKey();
  // Paper accounts are listed in paper mode; the client sends Forced-Mode: real unless told.
  client = new ThreeCommasApi({ url: t.baseUrl, apiKey, apiSecret: secret, forcedMode: 'paper' });
  accountId = (await client.makeRequest('GET', `${API}/ver1/accounts?`, {}))[0].id;
});
after(() => t.close());

const ids = (list: Array<{ id: number }>) => list.map((item) => item.id);

describe('3commas-api-node through whole flows', () => {
  it('grid bots: create, list with filters, disable, note, delete', async () => {
    const created = await client.makeRequest('POST', `${API}/ver1/grid_bots/manual?`, {
      account_id: accountId, pair: 'USDT_ETH', upper_price: '110', lower_price: '90', grids_quantity: 5, quantity_per_grid: '0.2',
    });
    assert.equal(created.is_enabled, true, JSON.stringify(created));
    const list = (params: Record<string, unknown>) => client.makeRequest('GET', `${API}/ver1/grid_bots?`, params);
    assert.ok(ids(await list({ account_ids: [accountId], base: 'ETH', quote: 'USDT', state: 'enabled' })).includes(created.id));
    assert.deepEqual(await list({ base: 'BTC' }), []);
    const disabled = await client.makeRequest('POST', `${API}/ver1/grid_bots/${created.id}/disable?`, {});
    assert.equal(disabled.is_enabled, false);
    assert.ok(ids(await list({ state: 'disabled' })).includes(created.id));
    assert.equal((await client.makeRequest('POST', `${API}/ver1/grid_bots/${created.id}/note?`, { note: 'from the client' })).note, 'from the client');
    const deleted = await client.makeRequest('DELETE', `${API}/ver1/grid_bots/${created.id}?`, {});
    assert.equal(deleted.id, created.id);
    assert.deepEqual(await client.makeRequest('GET', `${API}/ver1/grid_bots/${created.id}?`, {}), { error: 'not_found', error_description: 'Not Found' });
  });

  it('SmartTrades: create with nested parameters, list with filters, note, cancel', async () => {
    const created = await client.createSmartTradesV2({
      account_id: accountId,
      pair: 'USDT_ETH',
      position: { type: 'buy', order_type: 'limit', units: { value: '0.2' }, price: { value: '95' } },
      take_profit: { enabled: true, steps: [{ order_type: 'limit', volume: 100, price: { value: '110', type: 'bid' } }] },
      stop_loss: { enabled: false },
    });
    assert.equal(created.pair, 'USDT_ETH', JSON.stringify(created));
    const list = (params: Record<string, unknown>) => client.makeRequest('GET', `${API}/v2/smart_trades?`, params);
    assert.ok(ids(await list({ account_id: accountId, pair: 'USDT_ETH', status: 'active', from: '2020-01-01 00:00:00' })).includes(created.id));
    assert.deepEqual(await list({ status: 'finished' }), []);
    assert.equal((await client.makeRequest('POST', `${API}/v2/smart_trades/${created.id}/set_note?`, { note: 'watch' })).note, 'watch');
    const cancelled = await client.makeRequest('DELETE', `${API}/v2/smart_trades/${created.id}?`, {});
    assert.ok(['cancellation_pending', 'cancelled'].includes(cancelled.status.type), JSON.stringify(cancelled.status));
    const shown = await client.makeRequest('GET', `${API}/v2/smart_trades/${created.id}?`, {});
    assert.equal(shown.status.type, 'cancelled');
    assert.ok(ids(await list({ status: 'cancelled' })).includes(created.id));
  });

  it('DCA bots and deals: create, list, start deals, edit, close and cancel them, delete the bot', async () => {
    const bot = await client.botCreate({
      name: 'client bot', account_id: accountId, pairs: ['USDT_ETH'], base_order_volume: '20', base_order_volume_type: 'quote_currency',
      take_profit: '2', take_profit_type: 'total', safety_order_volume: '20', safety_order_step_percentage: '1',
      martingale_volume_coefficient: '1', martingale_step_coefficient: '1', max_safety_orders: 1, active_safety_orders_count: 1,
      max_active_deals: 2, strategy_list: [{ strategy: 'manual' }],
    });
    assert.equal(bot.is_enabled, false, JSON.stringify(bot));
    assert.ok(ids(await client.getBots({ account_id: accountId, scope: 'disabled', strategy: 'long' })).includes(bot.id));
    assert.equal((await client.botEnable(bot.id)).is_enabled, true);
    assert.deepEqual(await client.getBots({ scope: 'enabled', quote: 'BTC' }), []);
    const first = await client.botStartNewDeal({ bot_id: bot.id });
    const second = await client.botStartNewDeal({ bot_id: bot.id });
    assert.equal(first.status, 'bought', JSON.stringify(first));
    assert.deepEqual(ids(await client.getDeals({ bot_id: bot.id, scope: 'active', order_direction: 'asc' })), [first.id, second.id]);
    assert.equal((await client.dealUpdateTp(first.id, '3')).take_profit, '3');
    assert.equal(Number.isFinite(Number((await client.getDeal(first.id)).final_profit)), true);
    assert.equal((await client.dealPanicSell(first.id)).status, 'panic_sold');
    assert.equal((await client.dealCancel(second.id)).status, 'cancelled');
    assert.deepEqual(ids(await client.getDeals({ bot_id: bot.id, scope: 'finished', order_direction: 'asc' })), [first.id, second.id]);
    assert.deepEqual(ids(await client.getDeals({ bot_id: bot.id, scope: 'cancelled' })), [second.id]);
    const shown = await client.botShow(bot.id);
    assert.deepEqual(shown.active_deals, []);
    assert.equal((await client.botDisable(bot.id)).is_enabled, false);
    assert.equal(await client.botDelete(bot.id), true);
    assert.deepEqual(await client.botShow(bot.id), { error: 'Not found' });
  });
});
