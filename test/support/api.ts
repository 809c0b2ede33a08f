/** Requests and assertions the account and market-data suites share. */
import assert from 'node:assert/strict';
import type { Credentials } from './signing.ts';
import type { TestApp, TestResponse } from './test-app.ts';

export function assertError(response: TestResponse, status: number, body: Record<string, unknown>): void {
  assert.equal(response.status, status, response.text);
  assert.deepEqual(response.body, body);
}

export function assertRecordInvalid(response: TestResponse, attributes: Record<string, string[]>): void {
  assertError(response, 400, { error: 'record_invalid', error_description: 'Invalid parameters', error_attributes: attributes });
}

export function postJson(t: TestApp, path: string, body: unknown, credentials: Credentials, headers: Record<string, string> = {}) {
  return t.request({ method: 'POST', path, body: JSON.stringify(body), contentType: 'application/json', credentials, headers });
}

export interface Tick {
  pair: string;
  price: string;
  bid?: string;
  ask?: string;
  volume?: string;
  at?: string;
}

export function postTicks(t: TestApp, admin: Credentials, ticks: Tick[]) {
  return postJson(t, '/ext/paper/ticks', { market_code: 'paper_trading', ticks }, admin);
}

/** Moves the paper market to these last prices (bid = ask = price). */
export async function setPrices(t: TestApp, admin: Credentials, prices: Record<string, string>): Promise<void> {
  const response = await postTicks(t, admin, Object.entries(prices).map(([pair, price]) => ({ pair, price })));
  assert.equal(response.status, 200, response.text);
}

/** A new user (made with a paper account, as every user is) with a key holding every account permission. */
export async function newUser(t: TestApp): Promise<{ credentials: Credentials; accountId: number }> {
  const credentials = await t.createKey();
  const list = await t.request({ path: '/ver1/accounts', credentials, headers: { 'Forced-Mode': 'paper' } });
  assert.equal(list.status, 200, list.text);
  assert.equal(list.body.length, 1);
  return { credentials, accountId: list.body[0].id };
}
