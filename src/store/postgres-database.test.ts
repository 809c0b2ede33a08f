import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import { StorageUnavailableError } from '../shared/errors.ts';
import type { Database } from './database.ts';
import { DatabaseUnavailableError, openPostgres } from './postgres-database.ts';
import { StatementError } from './statement-error.ts';
import { listenInFrontOf } from '../../test/support/loopback-relay.ts';

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
  return {
    url: await listenInFrontOf(server, target),
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

describe('statements sent together in a transaction', () => {
  const url = process.env.DATABASE_URL;
  const skip = url ? false : 'needs PostgreSQL: set DATABASE_URL';
  const withTable = async (run: (db: Database, table: string) => Promise<void>) => {
    const db = await openPostgres(url!);
    const table = `tl_sent_together_${process.pid}_${Math.floor(Math.random() * 1e9)}`;
    await db.query(`CREATE TABLE ${table} (n int PRIMARY KEY, note text, tags text[], at timestamptz)`);
    try {
      await run(db, table);
    } finally {
      await db.query(`DROP TABLE ${table}`);
      await db.close();
    }
  };

  it('applies queued writes in order before a read, and commits them with the rest', { skip }, () =>
    withTable(async (db, table) => {
      const at = new Date('2026-11-28T06:00:00.123Z');
      const seen = await db.transaction(async (tx) => {
        await tx.write(`INSERT INTO ${table} (n, note, tags, at) VALUES ($1, $2, $3, $4)`, [1, "it's a back\\slash and $tl$", ['a"b', "c'd \\ e", null], at]);
        await tx.write(`UPDATE ${table} SET n = $1 WHERE n = $2`, [2, 1]);
        const rows = await tx.query<{ n: number }>(`SELECT n FROM ${table}`);
        await tx.write(`INSERT INTO ${table} (n) VALUES ($1)`, [3]);
        return rows.map((row) => row.n);
      });
      assert.deepEqual(seen, [2]);
      const rows = await db.query<{ n: number; note: string | null; tags: Array<string | null> | null; at: Date | null }>(`SELECT * FROM ${table} ORDER BY n`);
      assert.deepEqual(rows, [
        { n: 2, note: "it's a back\\slash and $tl$", tags: ['a"b', "c'd \\ e", null], at },
        { n: 3, note: null, tags: null, at: null },
      ]);
    }));

  it('rolls the whole transaction back when a queued write fails at the commit, and the connection serves the next one', { skip }, () =>
    withTable(async (db, table) => {
      await assert.rejects(
        db.transaction(async (tx) => {
          await tx.write(`INSERT INTO ${table} (n) VALUES ($1)`, [1]);
          await tx.query(`SELECT count(*) FROM ${table}`);
          await tx.write(`INSERT INTO ${table} (n) VALUES ($1)`, [2]);
          await tx.write(`INSERT INTO ${table} (n) VALUES ($1)`, [2]);
        }),
        (error: unknown) => error instanceof StatementError && error.code === '23505' && error.statement === `INSERT ${table}`,
      );
      assert.deepEqual(await db.query(`SELECT n FROM ${table}`), []);
      // Every pooled connection is back outside any transaction.
      await Promise.all(Array.from({ length: 8 }, (_, n) => db.transaction((tx) => tx.write(`INSERT INTO ${table} (n) VALUES ($1)`, [10 + n]))));
      assert.equal((await db.query(`SELECT n FROM ${table}`)).length, 8);
    }));
});
