/** A DCA bot test bench: the real app on the manual paper feed, a user, an operator, and helpers. */
import assert from 'node:assert/strict';
import { newUser, postJson, type Tick } from '../support/api.ts';
import type { Credentials } from '../support/signing.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

export interface DcaBench {
  t: TestApp;
  admin: Credentials;
  user: Credentials;
  accountId: number;
}

export async function startDcaBench(prices: Record<string, string> = { USDT_ETH: '100', USDT_BTC: '20000' }): Promise<DcaBench> {
  // No market-order slippage, so fills land on round prices.
  const t = await startTestApp({ PAPER_SLIPPAGE_BPS: '0' });
  const admin = await t.createKey({ user: 'operator', permissions: ['ADMIN'] });
  const { credentials: user, accountId } = await newUser(t);
  const bench = { t, admin, user, accountId };
  await ticks(bench, Object.entries(prices).map(([pair, price]) => ({ pair, price })));
  return bench;
}

/** A bot body in the reference's terms: 100 USDT base order at market, 2 % take profit, no safety orders. */
export function botBody(accountId: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'test bot',
    account_id: accountId,
    pairs: ['USDT_ETH'],
    base_order_volume: '100',
    base_order_volume_type: 'quote_currency',
    start_order_type: 'market',
    take_profit: '2',
    take_profit_type: 'total',
    safety_order_volume: '50',
    safety_order_step_percentage: '1',
    martingale_volume_coefficient: '1.5',
    martingale_step_coefficient: '1.2',
    max_safety_orders: 0,
    active_safety_orders_count: 1,
    strategy_list: [{ strategy: 'nonstop', options: {} }],
    ...overrides,
  };
}

/** A paper tick, optionally dated (the engine's clock for what it causes, timers included). */
export interface TimedTick extends Tick {
  at?: string;
}

export async function ticks(bench: DcaBench, list: TimedTick[]): Promise<void> {
  const response = await postJson(bench.t, '/ext/paper/ticks', { market_code: 'paper_trading', ticks: list }, bench.admin);
  assert.equal(response.status, 200, response.text);
}

/** One tick per price, a minute apart from `start` (ms) when given. */
export async function walk(bench: DcaBench, pair: string, prices: string[], start?: number): Promise<void> {
  for (const [index, price] of prices.entries()) {
    const at = start === undefined ? undefined : new Date(start + index * 60_000).toISOString();
    await ticks(bench, [{ pair, price, ...(at === undefined ? {} : { at }) }]);
  }
}

export async function api(bench: DcaBench, method: string, path: string, body?: unknown) {
  if (method === 'GET') return bench.t.request({ path, credentials: bench.user });
  if (method === 'PATCH') {
    return bench.t.request({ method, path, body: JSON.stringify(body ?? {}), contentType: 'application/json', credentials: bench.user });
  }
  return postJson(bench.t, path, body ?? {}, bench.user);
}

/** Creates a bot and answers its entity; optionally enables it. */
export async function createBot(bench: DcaBench, overrides: Record<string, unknown> = {}, enable = true) {
  const created = await api(bench, 'POST', '/ver1/bots/create_bot', botBody(bench.accountId, overrides));
  assert.equal(created.status, 201, created.text);
  if (!enable) return created.body;
  const enabled = await api(bench, 'POST', `/ver1/bots/${created.body.id}/enable`);
  assert.equal(enabled.status, 201, enabled.text);
  return enabled.body;
}

export async function deals(bench: DcaBench, botId: number, scope = '') {
  const response = await api(bench, 'GET', `/ver1/deals?bot_id=${botId}&order_direction=asc${scope ? `&scope=${scope}` : ''}`);
  assert.equal(response.status, 200, response.text);
  return response.body as Array<Record<string, any>>;
}

export async function balances(bench: DcaBench): Promise<Record<string, string>> {
  const list = await (await bench.t.core.paper.exchange(bench.accountId)).balances();
  return Object.fromEntries(list.map((b) => [b.currency, b.free.plus(b.locked).toFixed()]));
}
