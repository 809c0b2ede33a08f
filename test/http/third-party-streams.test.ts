/**
 * The published `3commas-typescript` client's subscribe methods, unchanged, against this server.
 * Its websocket address is a constant inside the package, so the test hands it a `ws` class that
 * connects to the local server instead, the way its REST tests point a base URL at it.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { newUser, postJson, setPrices } from '../support/api.ts';
import { getJson } from '../support/grid-bots.ts';
import type { Credentials } from '../support/signing.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { botBody } from '../scenarios/dca-support.ts';

interface ThreeCommasApi {
  subscribeDeal(callback: (data: unknown) => void): void;
  subscribeSmartTrade(callback: (data: unknown) => void): void;
  unsubscribe(): void;
}

const REFERENCE_WEBSOCKET = 'wss://ws.3commas.io/websocket';
let localWebsocket = '';

const require = createRequire(import.meta.url);
function loadClient(): new (options: { key: string; secrets: string }) => ThreeCommasApi {
  const wsPath = createRequire(require.resolve('3commas-typescript')).resolve('ws');
  const RealWebSocket = require(wsPath);
  class LocalWebSocket extends RealWebSocket {
    constructor(address: string, ...rest: unknown[]) {
      super(address === REFERENCE_WEBSOCKET ? localWebsocket : address, ...rest);
    }
  }
  const cached = require.cache[wsPath]!;
  cached.exports = LocalWebSocket;
  try {
    return require('3commas-typescript').API;
  } finally {
    cached.exports = RealWebSocket;
  }
}
const API = loadClient();

let t: TestApp;
let user: { credentials: Credentials & { secret: string }; accountId: number };
let api: ThreeCommasApi;
const received: Array<Record<string, any>> = [];
let arrived: () => void = () => undefined;

before(async () => {
  t = await startTestApp({ PAPER_SLIPPAGE_BPS: '0' });
  localWebsocket = `${t.baseUrl.replace('http', 'ws')}/websocket`;
  const admin = await t.createKey({ user: 'operator', permissions: ['ADMIN'] });
  await setPrices(t, admin, { USDT_ETH: '100' });
  user = (await newUser(t)) as typeof user;
  api = new API({ key: user.credentials.apiKey, secrets: user.credentials.secret });
});
after(async () => {
  api.unsubscribe();
  await t.close();
});

const collect = (data: unknown) => {
  received.push(JSON.parse(String(data)));
  arrived();
};

/** Waits until the client has handed its callback a frame that passes `test`. */
async function frame(test: (frame: Record<string, any>) => boolean): Promise<Record<string, any>> {
  for (;;) {
    const found = received.find(test);
    if (found) return found;
    await new Promise<void>((resolve) => (arrived = resolve));
  }
}

describe('3commas-typescript streams', () => {
  it('subscribes to deals on open, before the welcome, and receives them as the REST API shows them', async () => {
    api.subscribeDeal(collect);
    const confirmed = await frame((f) => f.type === 'confirm_subscription');
    assert.equal(JSON.parse(confirmed.identifier).channel, 'DealsChannel');
    const created = await postJson(t, '/ver1/bots/create_bot', botBody(user.accountId), user.credentials);
    await postJson(t, `/ver1/bots/${created.body.id}/enable`, {}, user.credentials);
    const [deal] = (await t.request({ path: `/ver1/deals?bot_id=${created.body.id}`, credentials: user.credentials })).body;
    const shown = await getJson(t, user, `/ver1/deals/${deal.id}/show`);
    await frame((f) => f.identifier === confirmed.identifier && isDeepStrictEqual(f.message, shown));
  });

  it('adds a SmartTrades subscription on the same connection', async () => {
    api.subscribeSmartTrade(collect);
    const confirmed = await frame((f) => f.type === 'confirm_subscription' && JSON.parse(f.identifier).channel === 'SmartTradesChannel');
    const created = await postJson(t, '/v2/smart_trades', {
      account_id: user.accountId, pair: 'USDT_ETH', position: { type: 'buy', order_type: 'limit', units: { value: '1' }, price: { value: '90' } },
    }, user.credentials);
    assert.equal(created.status, 201, created.text);
    const shown = await getJson(t, user, `/v2/smart_trades/${created.body.id}`);
    await frame((f) => f.identifier === confirmed.identifier && isDeepStrictEqual(f.message, shown));
  });
});
