/**
 * One user with something behind every id the route table takes: a paper account with prices,
 * a grid bot, a DCA bot with an active deal, a SmartTrade, a Trades ver1 trade, and a spare API
 * key to revoke, so that generated requests reach past "not found" into the services.
 */
import assert from 'node:assert/strict';
import { PERMISSIONS } from '../../src/auth/permissions.ts';
import { setPrices } from '../support/api.ts';
import type { Credentials } from '../support/signing.ts';
import type { TestApp } from '../support/test-app.ts';
import { send } from './route-table.ts';

export interface Fixtures {
  credentials: Credentials;
  /** Values for path parameters, by route prefix and name. */
  pathValue(url: string, name: string): string;
  /** A valid value for a parameter of this name, when there is an obvious one. */
  sample(name: string): unknown;
}

export async function createFixtures(t: TestApp): Promise<Fixtures> {
  const key = await t.createKey({ permissions: PERMISSIONS.filter((p) => p !== 'NONE') });
  const credentials = { apiKey: key.apiKey, secret: key.secret };
  await setPrices(t, credentials, { USDT_ETH: '100', USDT_BTC: '20000' });
  // Its owner, user2, is the user new keys are made for.
  const spareKey = await t.createKey();
  const account = (await t.request({ path: '/ver1/accounts', credentials })).body[0].id as number;
  const post = async (target: string, body: unknown) => {
    const response = await send(t.app, credentials, { method: 'POST', target, body: JSON.stringify(body), contentType: 'application/json' });
    assert.ok(response.status < 300, `${target}: ${response.text}`);
    return JSON.parse(response.text);
  };
  const grid = await post('/ver1/grid_bots/manual', {
    account_id: account, pair: 'USDT_ETH', upper_price: '110', lower_price: '90', grids_quantity: 5, quantity_per_grid: '0.2',
  });
  const bot = await post('/ver1/bots/create_bot', {
    name: 'fuzz', account_id: account, pairs: ['USDT_ETH'], base_order_volume: '20', base_order_volume_type: 'quote_currency',
    take_profit: '2', take_profit_type: 'total', safety_order_volume: '20', safety_order_step_percentage: '1',
    martingale_volume_coefficient: '1', martingale_step_coefficient: '1', max_safety_orders: 2, active_safety_orders_count: 1,
    strategy_list: [{ strategy: 'manual' }],
  });
  const deal = await post(`/ver1/bots/${bot.id}/start_new_deal`, { only_for_enabled: false });
  const smartTrade = await post('/v2/smart_trades', {
    account_id: account, pair: 'USDT_ETH', position: { type: 'buy', order_type: 'limit', units: { value: '0.2' }, price: { value: '95' } },
  });
  const parts = JSON.parse((await send(t.app, credentials, { method: 'GET', target: `/v2/smart_trades/${smartTrade.id}/trades` })).text);
  const trade = await post('/ver1/trades', {
    account_id: account, pair: 'USDT_ETH', units: { value: '0.2' }, order: { type: 'limit', side: 'buy' }, price: { value: '95' },
  });
  const ids: Record<string, unknown> = {
    account_id: account, bot_id: bot.id, deal_id: deal.id, trade_id: parts[0]?.id ?? 1, uuid: trade.trade.uuid,
    pair: 'USDT_ETH', pairs: ['USDT_ETH'], market_code: 'paper_trading', type: 'paper_trading', user: 'user2', mode: 'paper',
    permissions: ['BOTS_READ'], upper_price: '110', lower_price: '90', quantity_per_grid: '0.2', grids_quantity: 5,
    maker_fee: '0.001', taker_fee: '0.001', strategy_list: [{ strategy: 'manual' }], take_profit: '2', base_order_volume: '20',
    safety_order_volume: '20', value: '0.2', quantity: '0.2', rate: '95', new_take_profit_percentage: '3', price: '100',
  };
  return {
    credentials,
    pathValue: (url, name) => {
      if (name !== 'id') return String(ids[name]);
      if (url.startsWith('/ver1/grid_bots')) return String(grid.id);
      if (url.startsWith('/v2/smart_trades')) return String(smartTrade.id);
      return String(spareKey.id);
    },
    sample: (name) => ids[name],
  };
}
