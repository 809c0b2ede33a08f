import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { closeGracefully, registerGracefulClose } from './graceful-close.ts';

/** A server whose one route answers only when the test lets it. */
async function heldServer() {
  const app = Fastify();
  registerGracefulClose(app);
  let entered!: () => void;
  const inHandler = new Promise<void>((resolve) => (entered = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let closeBegan!: () => void;
  const closing = new Promise<void>((resolve) => (closeBegan = resolve));
  app.addHook('preClose', async () => closeBegan());
  let calls = 0;
  app.get('/held', async () => {
    calls += 1;
    if (calls > 1) {
      entered();
      await released;
    }
    return { call: calls };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  const url = `http://127.0.0.1:${port}/held`;
  // The first call leaves a keep-alive connection, idle once its answer is read, that the held call reuses.
  const first = await fetch(url);
  assert.equal(first.headers.get('connection'), 'keep-alive');
  await first.json();
  return { app, url, inHandler, closing, release };
}

describe('closeGracefully', () => {
  it('answers a request in flight when the close begins, and closes its keep-alive connection after it', async () => {
    const { app, url, inHandler, closing, release } = await heldServer();
    const answer = fetch(url);
    await inHandler;
    const closed = closeGracefully(app, 60_000);
    await closing;
    release();
    const response = await answer;
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('connection'), 'close');
    assert.deepEqual(await response.json(), { call: 2 });
    await closed;
    assert.equal(app.server.listening, false);
  });

  it('cuts a request still unanswered once the grace period is over', async () => {
    const { app, url, inHandler, release } = await heldServer();
    const answer = fetch(url).then(
      () => 'answered',
      () => 'cut',
    );
    await inHandler;
    await closeGracefully(app, 20);
    assert.equal(await answer, 'cut');
    release();
  });
});
