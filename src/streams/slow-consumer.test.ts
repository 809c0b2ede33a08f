/**
 * A client that stops reading must not hold the hub up or make memory grow: its frames wait in a
 * bounded queue, one per entity, and when it reads again it gets each entity's latest state.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import WebSocket from 'ws';
import { hmacSecretKey } from '../auth/key-material.ts';
import type { AuthenticatedKey } from '../services/api-keys.service.ts';
import { ChannelAuthorizer } from './channels.ts';
import { StreamHub } from './stream-hub.ts';
import { attachStreamServer } from './stream-server.ts';

const SECRET = 'stream test secret';
const key: AuthenticatedKey = {
  id: 1,
  userId: 7,
  permissions: ['BOTS_READ'],
  signingKey: { scheme: 'hmac', secret: hmacSecretKey(SECRET), strict: false, signing: '3commas' },
};
const apiKeys = { authenticate: async (apiKey: string) => (apiKey === 'key' ? key : undefined) };

const versions = new Map<number, number>();
const PADDING = 'x'.repeat(20_000);
const UPDATES = 500;
const hub = new StreamHub(
  {
    gridBot: async (_userId, id) => ({ id, version: versions.get(id), padding: PADDING }),
    deal: async () => undefined,
    smartTrade: async () => undefined,
    gridProfit: () => undefined,
  },
  { debug: () => undefined },
  // The hub may take all the time here: this is about the connection's own queue.
  1,
);
const server = createServer();
const streams = attachStreamServer(server, { hub, authorizer: new ChannelAuthorizer(apiKeys), now: () => new Date(), queueLimit: 100 });
after(async () => {
  await streams.close();
  server.close();
});

describe('a slow consumer', () => {
  it('gets the latest state of each entity once it reads again, with older states dropped', async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const socket = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/websocket`);
    const latest = new Map<number, number>();
    let received = 0;
    let caughtUp: () => void = () => undefined;
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString());
      if (frame.type === 'confirm_subscription') caughtUp();
      if (!frame.message) return;
      received += 1;
      latest.set(frame.message.id, frame.message.version);
      if ([1, 2, 3].every((id) => latest.get(id) === UPDATES)) caughtUp();
    });
    await new Promise((resolve) => socket.once('open', resolve));
    const signature = createHmac('sha256', SECRET).update('/grid_bots').digest('hex');
    socket.send(JSON.stringify({ command: 'subscribe', identifier: JSON.stringify({ channel: 'GridBotsChannel', users: [{ api_key: 'key', signature }] }) }));
    await new Promise<void>((resolve) => (caughtUp = resolve));

    // The client stops reading while its three bots change UPDATES times each.
    const raw = (socket as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    raw.pause();
    for (let version = 1; version <= UPDATES; version += 1) {
      for (const id of [1, 2, 3]) versions.set(id, version);
      hub.noteCommitted({ automations: [1, 2, 3].map((id) => ({ id, kind: 'grid_bot', userId: 7, accountId: 1 })), records: [], events: [] });
      await nextTurn();
    }
    const [connection] = streams.connections;
    assert.ok(connection!.queueStats.waiting <= 3, JSON.stringify(connection!.queueStats));
    assert.ok(connection!.queueStats.replaced > 0, JSON.stringify(connection!.queueStats));

    const done = new Promise<void>((resolve) => (caughtUp = resolve));
    raw.resume();
    await done;
    assert.ok(received < 3 * UPDATES, `${received} frames for ${3 * UPDATES} updates`);
    socket.close();
  });
});
