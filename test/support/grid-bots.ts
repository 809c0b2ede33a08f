/** Requests and readings the grid bot suites share: create, read the bot's logs, the paper account's funds. */
import assert from 'node:assert/strict';
import { dec } from '../../src/shared/decimal.ts';
import { postJson } from './api.ts';
import type { Credentials } from './signing.ts';
import type { TestApp, TestResponse } from './test-app.ts';

export interface GridUser {
  credentials: Credentials;
  accountId: number;
}

export function createGrid(t: TestApp, user: GridUser, body: Record<string, unknown>): Promise<TestResponse> {
  return postJson(t, '/ver1/grid_bots/manual', { account_id: user.accountId, pair: 'USDT_BTC', ...body }, user.credentials);
}

/** Creates a bot that must be accepted; answers its entity. */
export async function startGrid(t: TestApp, user: GridUser, body: Record<string, unknown>) {
  const response = await createGrid(t, user, body);
  assert.equal(response.status, 201, response.text);
  return response.body;
}

export async function getJson(t: TestApp, user: GridUser, path: string) {
  const response = await t.request({ path, credentials: user.credentials });
  assert.equal(response.status, 200, response.text);
  return response.body;
}

export const showGrid = (t: TestApp, user: GridUser, id: number) => getJson(t, user, `/ver1/grid_bots/${id}`);

export async function gridMessages(t: TestApp, user: GridUser, id: number): Promise<string[]> {
  const events = await getJson(t, user, `/ver1/grid_bots/${id}/events?per_page=100`);
  return events.map((event: { message: string }) => event.message);
}

/** The bot's orders oldest first, as `SIDE price amount Status` (market orders show their rate). */
export async function gridOrders(t: TestApp, user: GridUser, id: number, kind: 'grid_lines_orders' | 'balancing_orders' = 'grid_lines_orders') {
  const body = await getJson(t, user, `/ver1/grid_bots/${id}/market_orders?limit=1000`);
  return (body[kind] as Array<Record<string, string>>)
    .reverse()
    .map((order) => `${order.order_type} ${order.rate} ${order.quantity} ${order.status_string}`);
}

/** Lines highest price first, as `price side placed`. */
export function lineTable(bot: { grid_lines: Array<{ price: string; side: string | null; order_placed: boolean }> }): string[] {
  return [...bot.grid_lines]
    .sort((a, b) => dec(b.price).cmp(dec(a.price)))
    .map((line) => `${line.price} ${line.side ?? '-'}${line.order_placed ? ' placed' : ''}`);
}

/** Free plus locked funds of each currency of a paper account. */
export async function accountTotals(t: TestApp, accountId: number): Promise<Record<string, string>> {
  const balances = await (await t.core.paper.exchange(accountId)).balances();
  return Object.fromEntries(balances.map((balance) => [balance.currency, balance.free.plus(balance.locked).toFixed()]));
}

/** The account's open orders on the paper exchange, as `side price amount`, lowest price first. */
export async function openOrders(t: TestApp, accountId: number): Promise<string[]> {
  const orders = await (await t.core.paper.exchange(accountId)).openOrders();
  return orders
    .sort((a, b) => a.price!.cmp(b.price!))
    .map((order) => `${order.side} ${order.price!.toFixed()} ${order.amount.toFixed()}`);
}

/** 58000-62000 in 5 lines of 1000, 100 USDT per line. */
export const FIVE_LINES = { upper_price: '62000', lower_price: '58000', grids_quantity: 5, quantity_per_grid: '100', order_currency_type: 'quote' };
