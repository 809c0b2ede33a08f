import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import { StorageUnavailableError } from '../shared/errors.ts';
import { DatabaseUnavailableError, openPostgres } from './postgres-database.ts';

/** A loopback port with nothing listening: bound, noted, then released. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe(openPostgres.name, () => {
  it('reports an unreachable server clearly, without the password', async () => {
    const port = await closedPort();
    const url = `postgres://tradeloop:hunter2@127.0.0.1:${port}/tradeloop`;
    await assert.rejects(openPostgres(url), (error: unknown) => {
      assert.ok(error instanceof DatabaseUnavailableError);
      assert.ok(error.message.startsWith(`Cannot connect to PostgreSQL at 127.0.0.1:${port}/tradeloop: `));
      assert.ok(!error.message.includes('hunter2'));
      return true;
    });
  });
});

/** A loopback TCP relay to the PostgreSQL server that can be cut (every connection dropped) and restored. */
async function relayTo(target: URL) {
  const sockets = new Set<net.Socket>();
  let up = true;
  const server = net.createServer((client) => {
    if (!up) return void client.destroy();
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined).on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const relayed = new URL(target);
  relayed.hostname = '127.0.0.1';
  relayed.port = String((server.address() as net.AddressInfo).port);
  return {
    url: relayed.toString(),
    cut: () => {
      up = false;
      for (const socket of sockets) socket.destroy();
    },
    restore: () => void (up = true),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

describe('a PostgreSQL server that goes away', () => {
  const url = process.env.DATABASE_URL;
  it('is reported as unavailable while it is away, and used again once it is back', { skip: url ? false : 'needs PostgreSQL: set DATABASE_URL' }, async () => {
    const relay = await relayTo(new URL(url!));
    const db = await openPostgres(relay.url, undefined, [5, 5, 5]);
    try {
      await db.query('SELECT 1');
      const held = db.transaction(async (tx) => {
        relay.cut();
        return tx.query<{ n: number }>('SELECT 2 AS n');
      });
      await assert.rejects(held, StorageUnavailableError);
      await assert.rejects(db.query('SELECT 1'), StorageUnavailableError);
      relay.restore();
      assert.deepEqual(await db.query('SELECT 3 AS n'), [{ n: 3 }]);
      assert.deepEqual(await db.transaction((tx) => tx.query('SELECT 4 AS n')), [{ n: 4 }]);
    } finally {
      await db.close();
      await relay.close();
    }
  });

  it('runs a transaction whose connection was lost again on a new one', { skip: url ? false : 'needs PostgreSQL: set DATABASE_URL' }, async () => {
    const relay = await relayTo(new URL(url!));
    const db = await openPostgres(relay.url);
    let attempts = 0;
    try {
      const result = await db.transaction(async (tx) => {
        attempts += 1;
        if (attempts === 1) {
          relay.cut();
          setTimeout(relay.restore, 30);
        }
        return tx.query<{ n: number }>('SELECT 5 AS n');
      });
      assert.deepEqual([attempts, result], [2, [{ n: 5 }]]);
    } finally {
      await db.close();
      await relay.close();
    }
  });
});

describe('listening for notifications', () => {
  const url = process.env.DATABASE_URL;
  it('hears NOTIFY from other connections, and after its connection is lost, listens again and says so', { skip: url ? false : 'needs PostgreSQL: set DATABASE_URL' }, async () => {
    const relay = await relayTo(new URL(url!));
    const listening = await openPostgres(relay.url);
    const sender = await openPostgres(url!);
    const heard: string[] = [];
    let resumed = 0;
    const channel = `test_channel_${process.pid}`.replace(/\d/g, (digit) => 'abcdefghij'[Number(digit)]!);
    const waitFor = async (done: () => boolean) => {
      const deadline = Date.now() + 30_000;
      while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.ok(done());
    };
    const stop = await listening.listen!(channel, { onNotify: (payload) => heard.push(payload), onResumed: () => void (resumed += 1) });
    try {
      await sender.query('SELECT pg_notify($1, $2)', [channel, 'one']);
      await waitFor(() => heard.length === 1);
      relay.cut();
      await sender.query('SELECT pg_notify($1, $2)', [channel, 'missed']);
      relay.restore();
      await waitFor(() => resumed === 1);
      await sender.query('SELECT pg_notify($1, $2)', [channel, 'two']);
      await waitFor(() => heard.length === 2);
      assert.deepEqual(heard, ['one', 'two']);
    } finally {
      await stop();
      await listening.close();
      await sender.close();
      await relay.close();
    }
  });
});
