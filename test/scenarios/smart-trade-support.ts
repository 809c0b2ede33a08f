/**
 * A SmartTrade and Trade test bench: the real app on the manual paper feed (no market-order
 * slippage, so fills land on the posted prices), an operator who moves prices, a trader with the
 * paper account every user gets (10 000 USDT, 0.1 BTC, 2 ETH, fees 0.1 %), and request helpers.
 */
import assert from 'node:assert/strict';
import { newUser, postJson } from '../support/api.ts';
import type { Credentials } from '../support/signing.ts';
import { startTestApp, type TestApp, type TestResponse } from '../support/test-app.ts';

export interface Bench {
  t: TestApp;
  admin: Credentials;
  user: Credentials;
  accountId: number;
}

export async function startBench(prices: Record<string, string> = { USDT_ETH: '2000' }): Promise<Bench> {
  const t = await startTestApp({ PAPER_SLIPPAGE_BPS: '0' });
  const admin = await t.createKey({ user: 'operator', permissions: ['ADMIN'] });
  const { credentials: user, accountId } = await newUser(t);
  const bench = { t, admin, user, accountId };
  for (const [pair, price] of Object.entries(prices)) await tick(bench, price, { pair });
  return bench;
}

export async function anotherUser(bench: Bench): Promise<{ user: Credentials; accountId: number }> {
  const { credentials, accountId } = await newUser(bench.t);
  return { user: credentials, accountId };
}

export interface TickOptions {
  pair?: string;
  bid?: string;
  ask?: string;
  at?: Date;
}

/** One market event; the answer comes once the engine handled everything it caused. */
export async function tick(bench: Bench, price: string, options: TickOptions = {}): Promise<void> {
  const response = await postJson(
    bench.t,
    '/ext/paper/ticks',
    {
      market_code: 'paper_trading',
      ticks: [
        {
          pair: options.pair ?? 'USDT_ETH',
          price,
          ...(options.bid === undefined ? {} : { bid: options.bid }),
          ...(options.ask === undefined ? {} : { ask: options.ask }),
          ...(options.at === undefined ? {} : { at: options.at.toISOString() }),
        },
      ],
    },
    bench.admin,
  );
  assert.equal(response.status, 200, response.text);
}

export async function walk(bench: Bench, prices: string[]): Promise<void> {
  for (const price of prices) await tick(bench, price);
}

export function call(bench: Bench, method: string, path: string, body?: unknown, user = bench.user): Promise<TestResponse> {
  if (body === undefined) return bench.t.request({ method, path, credentials: user });
  return bench.t.request({ method, path, body: JSON.stringify(body), contentType: 'application/json', credentials: user });
}

/** Creates a SmartTrade on the trader's account and checks it was accepted. */
export async function createSmartTrade(bench: Bench, body: Record<string, unknown>): Promise<any> {
  const response = await call(bench, 'POST', '/v2/smart_trades', { account_id: bench.accountId, pair: 'USDT_ETH', ...body });
  assert.equal(response.status, 201, response.text);
  return response.body;
}

export async function show(bench: Bench, id: number): Promise<any> {
  const response = await call(bench, 'GET', `/v2/smart_trades/${id}`);
  assert.equal(response.status, 200, response.text);
  return response.body;
}

export const position = (units: string, extra: Record<string, unknown> = {}) => ({
  type: 'buy',
  order_type: 'market',
  units: { value: units },
  ...extra,
});

export const step = (volume: string, price: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  order_type: 'limit',
  volume,
  price: { type: 'last', ...price },
  ...extra,
});

/** The trader's balances: free and on orders, per currency. */
export async function balances(bench: Bench): Promise<Record<string, { free: number; locked: number }>> {
  const response = await call(bench, 'POST', `/ver1/accounts/${bench.accountId}/account_table_data`);
  assert.equal(response.status, 201, response.text);
  return Object.fromEntries(
    response.body.map((row: { currency_code: string; position_available: number; on_orders: number }) => [
      row.currency_code,
      { free: row.position_available, locked: row.on_orders },
    ]),
  );
}
