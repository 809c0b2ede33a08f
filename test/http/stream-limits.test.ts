/**
 * Websocket connection caps: per API key (a subscription past it is rejected), per client address
 * (429 at the upgrade) and in all (503), each place given back when a connection closes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import type { Credentials } from '../support/signing.ts';
import { identifierFor, StreamClient } from '../support/stream-client.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
let wsUrl: string;
const open: WebSocket[] = [];

before(async () => {
  t = await startTestApp({ STREAM_MAX_CONNECTIONS: '4', STREAM_MAX_CONNECTIONS_PER_ADDRESS: '3', STREAM_MAX_CONNECTIONS_PER_KEY: '2' });
  wsUrl = `${t.baseUrl.replace('http', 'ws')}/websocket`;
});
after(async () => {
  for (const socket of open) socket.terminate();
  await t.close();
});

/** Opens a connection from a loopback address; answers 'open' or the HTTP status that refused it. */
function attempt(localAddress = '127.0.0.1'): Promise<'open' | number> {
  const socket = new WebSocket(wsUrl, { localAddress });
  return new Promise((resolve, reject) => {
    socket.once('open', () => {
      open.push(socket);
      resolve('open');
    });
    socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.once('error', reject);
  });
}

async function closeAll(): Promise<void> {
  await Promise.all(open.splice(0).map((socket) => new Promise((resolve) => {
    socket.once('close', resolve);
    socket.close();
  })));
}

/** Tries until the connection is let in: the server gives a place back once it sees the close. */
async function attemptUntilOpen(localAddress: string): Promise<void> {
  const until = Date.now() + 15_000;
  for (let result = await attempt(localAddress); result !== 'open'; result = await attempt(localAddress)) {
    if (Date.now() > until) assert.fail(`still refused with ${result}`);
  }
}

describe('websocket connection caps', () => {
  it('reject a subscription that would hold a key on more connections than its cap', async () => {
    const user = (await t.createKey({ permissions: ['BOTS_READ'] })) as Credentials & { secret: string };
    const identifier = identifierFor('DealsChannel', user.apiKey, user.secret, '/deals');
    const clients = await Promise.all([1, 2, 3].map(() => StreamClient.open(wsUrl)));
    const answers: string[] = [];
    for (const client of clients) {
      client.subscribe(identifier);
      answers.push((await client.next((frame) => frame.identifier === identifier && frame.type !== undefined, 'an answer')).type);
    }
    assert.deepEqual(answers, ['confirm_subscription', 'confirm_subscription', 'reject_subscription']);
    // A second subscription on a connection that already counts for the key is no new place.
    const again = identifierFor('GridBotsChannel', user.apiKey, user.secret, '/grid_bots');
    clients[0]!.subscribe(again);
    assert.equal((await clients[0]!.next((frame) => frame.identifier === again && frame.type !== undefined, 'an answer')).type, 'confirm_subscription');
    // Once a holder leaves, the key has a place again.
    clients[1]!.close();
    await clients[1]!.closed;
    const until = Date.now() + 15_000;
    let answer = 'reject_subscription';
    while (answer === 'reject_subscription' && Date.now() < until) {
      const retry = await StreamClient.open(wsUrl);
      retry.subscribe(identifier);
      answer = (await retry.next((frame) => frame.identifier === identifier && frame.type !== undefined, 'an answer')).type;
      retry.close();
      await retry.closed;
    }
    assert.equal(answer, 'confirm_subscription');
    for (const client of clients) client.close();
    await Promise.all(clients.map((client) => client.closed));
  });

  it('answer 429 past the cap of one address and 503 past the cap in all, and let in again after a close', async () => {
    await attemptUntilOpen('127.0.0.1');
    assert.deepEqual([await attempt('127.0.0.1'), await attempt('127.0.0.1')], ['open', 'open']);
    assert.equal(await attempt('127.0.0.1'), 429);
    assert.equal(await attempt('127.0.0.2'), 'open');
    assert.equal(await attempt('127.0.0.3'), 503);
    open.shift()!.close();
    await attemptUntilOpen('127.0.0.1');
    assert.equal(await attempt('127.0.0.3'), 503);
    await closeAll();
  });
});
