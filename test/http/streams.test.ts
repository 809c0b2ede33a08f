/**
 * The websocket streams with a plain client: ActionCable frames, the three channels' pushes as the
 * REST API shows the same entities, other users' entities kept out, and revoked keys disconnected.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { newUser, postJson, setPrices } from '../support/api.ts';
import { FIVE_LINES, getJson, type GridUser, startGrid } from '../support/grid-bots.ts';
import type { Credentials } from '../support/signing.ts';
import { identifierFor, StreamClient } from '../support/stream-client.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { botBody } from '../scenarios/dca-support.ts';

let t: TestApp;
let admin: Credentials;
let wsUrl: string;
const clients: StreamClient[] = [];

before(async () => {
  t = await startTestApp({ PAPER_SLIPPAGE_BPS: '0' }, { streamHeartbeatMs: 100 });
  admin = await t.createKey({ user: 'operator', permissions: ['ADMIN'] });
  wsUrl = `${t.baseUrl.replace('http', 'ws')}/websocket`;
  await setPrices(t, admin, { USDT_ETH: '100', USDT_BTC: '60000' });
});
after(async () => {
  for (const client of clients) client.close();
  await t.close();
});

async function connect(path = ''): Promise<StreamClient> {
  const client = await StreamClient.open(`${wsUrl}${path}`);
  clients.push(client);
  return client;
}

type Secret = Credentials & { secret: string };
const dealsIdentifier = (user: Credentials) => identifierFor('DealsChannel', user.apiKey, (user as Secret).secret, '/deals');

/** Subscribes and waits for the confirmation, which echoes the identifier byte for byte. */
async function subscribed(client: StreamClient, identifier: string): Promise<void> {
  client.subscribe(identifier);
  const answer = await client.next((frame) => frame.identifier === identifier && frame.type !== undefined, 'a subscription answer');
  assert.equal(answer.type, 'confirm_subscription');
}

async function startDeal(user: Credentials, accountId: number): Promise<Record<string, any>> {
  const created = await postJson(t, '/ver1/bots/create_bot', botBody(accountId), user);
  assert.equal(created.status, 201, created.text);
  const enabled = await postJson(t, `/ver1/bots/${created.body.id}/enable`, {}, user);
  assert.equal(enabled.status, 201, enabled.text);
  const deals = await t.request({ path: `/ver1/deals?bot_id=${created.body.id}`, credentials: user });
  assert.equal(deals.body.length, 1, deals.text);
  return deals.body[0];
}

describe('the ActionCable protocol', () => {
  it('welcomes, pings every heartbeat with unix seconds, and accepts the channel paths one client uses', async () => {
    for (const path of ['', '/deals', '/smart_trades']) {
      const client = await connect(path);
      assert.deepEqual(await client.next((frame) => frame.type === 'welcome'), { type: 'welcome' });
      const ping = await client.next((frame) => frame.type === 'ping', 'a ping');
      assert.ok(Math.abs(ping.message - Date.now() / 1000) < 60, JSON.stringify(ping));
      assert.deepEqual(Object.keys(ping), ['type', 'message']);
    }
  });

  it('refuses other paths', async () => {
    await assert.rejects(StreamClient.open(`${t.baseUrl.replace('http', 'ws')}/cable`), /404/);
  });

  it('rejects a wrong signature, a missing permission, an unknown channel or key, and a malformed identifier', async () => {
    const { credentials } = await newUser(t);
    const { apiKey, secret } = credentials as Secret;
    const readOnlyTrades = (await t.createKey({ user: 'trades-only', permissions: ['SMART_TRADES_READ'] })) as Secret;
    const client = await connect();
    const identifiers = [
      identifierFor('DealsChannel', apiKey, secret, '/smart_trades'),
      identifierFor('DealsChannel', readOnlyTrades.apiKey, readOnlyTrades.secret, '/deals'),
      identifierFor('TickersChannel', apiKey, secret, '/deals'),
      identifierFor('DealsChannel', 'no such key', secret, '/deals'),
      '{"channel":"DealsChannel"}',
      'not json',
    ];
    for (const identifier of identifiers) {
      client.subscribe(identifier);
      assert.deepEqual(await client.next((frame) => frame.identifier === identifier), { identifier, type: 'reject_subscription' });
    }
  });
});

describe('DealsChannel', () => {
  it('pushes the deal as GET /ver1/deals/:id/show shows it, for its own user only', async () => {
    const alice = await newUser(t);
    const bob = await newUser(t);
    const client = await connect();
    // Spaces in the identifier: it must come back exactly as sent.
    const identifier = dealsIdentifier(alice.credentials).replace('"users":', '"users": ');
    await subscribed(client, identifier);
    const bobsDeal = await startDeal(bob.credentials, bob.accountId);
    const deal = await startDeal(alice.credentials, alice.accountId);
    const shown = await getJson(t, alice, `/ver1/deals/${deal.id}/show`);
    await client.message(identifier, shown);
    assert.ok(client.messages(identifier).every((message: any) => message.id !== bobsDeal.id));
  });

  it('accepts a key signed with RSA', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const key = await t.createKey({ user: 'rsa-user', rsaPublicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() });
    const signature = sign('sha256', Buffer.from('/deals'), privateKey).toString('base64');
    const identifier = JSON.stringify({ channel: 'DealsChannel', users: [{ api_key: key.apiKey, signature }] });
    await subscribed(await connect(), identifier);
  });

  it('stops pushing after unsubscribe', async () => {
    const user = await newUser(t);
    const client = await connect();
    const first = dealsIdentifier(user.credentials);
    const second = first.replace('{', '{ ');
    await subscribed(client, first);
    await subscribed(client, second);
    client.send({ command: 'unsubscribe', identifier: first });
    const deal = await startDeal(user.credentials, user.accountId);
    await client.message(second, await getJson(t, user, `/ver1/deals/${deal.id}/show`));
    assert.deepEqual(client.messages(first), []);
  });

  it('disconnects the subscriptions of a revoked key', async () => {
    const key = await t.createKey({ user: 'revoked-user' });
    const client = await connect();
    await subscribed(client, identifierFor('DealsChannel', key.apiKey, key.secret, '/deals'));
    await t.core.apiKeys.revoke(key.id);
    const frame = await client.next((f) => f.type === 'disconnect', 'a disconnect');
    assert.deepEqual(frame, { type: 'disconnect', reason: 'unauthorized', reconnect: false });
    assert.equal(await client.closed, 1000);
  });
});

describe('SmartTradesChannel', () => {
  it('pushes the SmartTrade as GET /v2/smart_trades/:id shows it', async () => {
    const user = await newUser(t);
    const { apiKey, secret } = user.credentials as Secret;
    const identifier = identifierFor('SmartTradesChannel', apiKey, secret, '/smart_trades');
    const client = await connect('/smart_trades');
    await subscribed(client, identifier);
    const body = {
      account_id: user.accountId, pair: 'USDT_ETH',
      position: { type: 'buy', order_type: 'limit', units: { value: '1' }, price: { value: '90' } },
      take_profit: { enabled: true, steps: [{ order_type: 'limit', volume: '100', price: { value: '120', type: 'last' } }] },
    };
    const created = await postJson(t, '/v2/smart_trades', body, user.credentials);
    assert.equal(created.status, 201, created.text);
    await client.message(identifier, await getJson(t, user, `/v2/smart_trades/${created.body.id}`));
  });
});

describe('GridBotsChannel (an extension)', () => {
  let user: GridUser;
  let client: StreamClient;
  let identifier: string;
  before(async () => {
    user = await newUser(t);
    const { apiKey, secret } = user.credentials as Secret;
    identifier = identifierFor('GridBotsChannel', apiKey, secret, '/grid_bots');
    client = await connect();
    await subscribed(client, identifier);
  });

  it('pushes the grid bot as GET /ver1/grid_bots/:id shows it, and each new profit row', async () => {
    const id = (await startGrid(t, user, FIVE_LINES)).id;
    await client.message(identifier, await getJson(t, user, `/ver1/grid_bots/${id}`));
    await setPrices(t, admin, { USDT_BTC: '58900' });
    await setPrices(t, admin, { USDT_BTC: '60100' });
    const [row] = await getJson(t, user, `/ver1/grid_bots/${id}/profits`);
    await client.message(identifier, { type: 'GridBotProfit', grid_bot_id: id, ...row });
    await client.message(identifier, await getJson(t, user, `/ver1/grid_bots/${id}`));
    await setPrices(t, admin, { USDT_BTC: '60000' });
  });
});
