/**
 * The lease statements on their own: taking many accounts in one statement leaves live leases of
 * other engines alone, an engine learns when another's lease will expire before its next look, and
 * an account's tick-log position follows its engine's and stays where the engine left it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openTestDatabase } from '../../test/support/database.ts';
import type { EngineOrder } from '../engine/automation-kind.ts';
import type { Database, Sql } from './database.ts';
import { SqlEngineRepository } from './engine.repository.ts';
import { handBackIn, leaseGuard, paperFence, SqlLeaseStore } from './leases.repository.ts';
import { positionWrite, SqlTickLog } from './tick-log.repository.ts';

describe('SqlLeaseStore', () => {
  let db: Database;
  let store: SqlLeaseStore;
  const accountIds: number[] = [];

  before(async () => {
    db = await openTestDatabase();
    store = new SqlLeaseStore(db);
    const [user] = await db.query<{ id: number }>("INSERT INTO users (name) VALUES ('leases') RETURNING id");
    for (let index = 0; index < 4; index += 1) {
      const [account] = await db.query<{ id: number }>(
        "INSERT INTO accounts (user_id, name, market_code) VALUES ($1, $2, 'paper_trading') RETURNING id",
        [user!.id, `paper ${index}`],
      );
      accountIds.push(Number(account!.id));
    }
  });
  after(() => db.close());

  const positions = async () => {
    const rows = await db.query<{ account_id: number; tick_seq: number | null; stored: number | null }>(
      `SELECT p.account_id, p.tick_seq, l.tick_seq AS stored FROM account_positions p JOIN account_leases l USING (account_id)
       WHERE p.account_id = ANY($1::bigint[]) ORDER BY p.account_id`,
      [accountIds],
    );
    return rows.map((row) => [Number(row.tick_seq), Number(row.stored)]);
  };

  const identity = (id: string) => ({ id, host: 'test', pid: 1, role: 'engine' });
  /** The engines' leases, and so those of every account they hold, expire (or expire in `seconds`). */
  const expireLeases = (engineIds: readonly string[], seconds = -1) =>
    db.query('UPDATE engines SET lease_until = now() + make_interval(secs => $2) WHERE id = ANY($1::text[])', [[...engineIds], seconds]);
  const holders = async () =>
    (await db.query<{ engine_id: string | null }>('SELECT engine_id FROM account_leases WHERE account_id = ANY($1::bigint[]) ORDER BY account_id', [accountIds])).map(
      (row) => row.engine_id,
    );

  it('takes free accounts in one statement, but not those another engine holds', async () => {
    const [a, b, c, d] = accountIds as [number, number, number, number];
    for (const id of ['engine-1', 'engine-2']) await store.register(identity(id));
    assert.deepEqual([...(await store.take('unregistered', [a, b], 60_000))], [], 'an engine not registered takes nothing');
    assert.deepEqual([...(await store.take('engine-1', [a, b], 60_000))], [[a, 1], [b, 1]]);
    const taken = await store.take('engine-2', [a, b, c, d], 60_000);
    assert.deepEqual([...taken].sort(([x], [y]) => x - y), [[c, 1], [d, 1]]);
    assert.deepEqual([...(await store.take('engine-2', [], 60_000))], []);
  });

  it("takes with the next epoch the accounts of an engine whose lease expired, and renews the taker's", async () => {
    const [a, b, c, d] = accountIds as [number, number, number, number];
    await expireLeases(['engine-1']);
    await expireLeases(['engine-2'], 1);
    assert.deepEqual([...(await store.take('engine-2', [a], 60_000))], [[a, 2]]);
    await expireLeases(['engine-1'], 60);
    // Taking renewed engine-2's lease, so engine-1 cannot take its accounts in the second it had left.
    assert.deepEqual([...(await store.take('engine-1', [a, c, d], 60_000))], []);
    assert.deepEqual(await holders(), ['engine-2', 'engine-1', 'engine-2', 'engine-2']);
    assert.deepEqual([...(await store.heartbeat('engine-2', 60_000))].map(({ accountId, epoch }) => [accountId, epoch]), [[a, 2], [c, 1], [d, 1]]);
    assert.deepEqual([...(await store.heartbeat('engine-1', 60_000))].map(({ accountId, epoch }) => [accountId, epoch]), [[b, 1]]);
  });

  it("renews an engine's leases without writing its lease rows", async () => {
    // A row written gets a new version, with the writing transaction's id as its xmin.
    const versions = async () => (await db.query<{ xmin: string }>('SELECT xmin::text FROM account_leases ORDER BY account_id')).map((row) => row.xmin);
    const before = await versions();
    const [engine] = await db.query<{ xmin: string }>("SELECT xmin::text FROM engines WHERE id = 'engine-2'");
    await store.heartbeat('engine-2', 60_000);
    assert.deepEqual(await versions(), before);
    const [renewed] = await db.query<{ xmin: string }>("SELECT xmin::text FROM engines WHERE id = 'engine-2'");
    assert.notEqual(renewed!.xmin, engine!.xmin, "the engine's row is");
  });

  it('tells when the first lease of another engine expires within the window', async () => {
    // engine-1 holds b, engine-2 holds a, c and d, each for a minute.
    assert.equal(await store.nextForeignExpiry('engine-1', 5_000), undefined);
    await expireLeases(['engine-2'], 2);
    const inMs = await store.nextForeignExpiry('engine-1', 5_000);
    assert.ok(inMs !== undefined && inMs > 1_000 && inMs <= 2_000, `expected about 2 s, got ${inMs}`);
    // Its own leases and expired ones are not waited for.
    assert.equal(await store.nextForeignExpiry('engine-2', 5_000), undefined);
    await expireLeases(['engine-2']);
    assert.equal(await store.nextForeignExpiry('engine-1', 5_000), undefined);
  });

  it("keeps an account at its engine's position without rewriting it, and where the engine left it", async () => {
    const [a, b, c, d] = accountIds as [number, number, number, number];
    const log = new SqlTickLog(db);
    await store.register(identity('engine-3'));
    await store.register(identity('engine-4'));
    await db.query('DELETE FROM account_leases');
    await store.take('engine-3', [a, b], 60_000);
    await store.take('engine-4', [c, d], 60_000);
    await log.setPosition('engine-3', 10, [a, b]);
    await log.setPosition('engine-4', 5, [c]);
    await log.setPosition('engine-3', 20, [a, b]);
    await log.setPosition('engine-4', 7, [c]);
    // d is held but not running yet: it keeps no position of engine-4's.
    assert.deepEqual(await positions(), [[20, 10], [20, 10], [7, 5], [0, 0]]);

    // Taken after its lease expired: the position engine-3 reached goes with the account.
    await expireLeases(['engine-3']);
    await store.take('engine-4', [a], 60_000);
    await log.setPosition('engine-3', 30, [b]);
    assert.deepEqual(await positions(), [[20, 20], [30, 10], [7, 5], [0, 0]]);

    // Handed back, then forgotten: each account keeps where its engine stood.
    await log.setPosition('engine-4', 25, [a, c]);
    await db.transaction((tx) => handBackIn(tx, 'engine-4'));
    await db.query("UPDATE engines SET last_seen_at = now() - interval '1 hour' WHERE id = 'engine-3'");
    await store.heartbeat('engine-1', 60_000);
    assert.deepEqual(await positions(), [[25, 25], [30, 30], [25, 25], [0, 0]]);
    const engines = await db.query<{ id: string }>("SELECT id FROM engines WHERE id IN ('engine-3', 'engine-4')");
    assert.deepEqual(engines, []);
  });
});

describe("an engine batch's transaction", () => {
  let db: Database;
  before(async () => {
    db = await openTestDatabase();
  });
  after(() => db.close());

  it('writes the position before the lease check, locking the engine row before lease rows as the heartbeat does', async () => {
    await new SqlLeaseStore(db).register({ id: 'e-position', host: 'h', pid: 1, role: 'engine' });
    let seenByGuard: number | null | undefined;
    const repository = new SqlEngineRepository(db, async (tx) => {
      const [row] = await tx.query<{ tick_seq: number | null }>("SELECT tick_seq FROM engines WHERE id = 'e-position'");
      seenByGuard = row?.tick_seq ?? null;
    });
    const position = (seq: number) => positionWrite('e-position', seq);
    await repository.save({ automations: [], events: [], orders: [], records: [], position: position(7) });
    assert.equal(seenByGuard, 7);
    // A batch carrying an older position than one recorded since leaves the newer.
    await repository.save({ automations: [], events: [], orders: [], records: [], position: position(5) });
    const [row] = await db.query<{ tick_seq: number }>("SELECT tick_seq FROM engines WHERE id = 'e-position'");
    assert.equal(Number(row!.tick_seq), 7);
  });

  it('lets the paper fence use the lease rows the batch check read, reading only the others', async () => {
    const [user] = await db.query<{ id: number }>("INSERT INTO users (name) VALUES ('fence') RETURNING id");
    const accounts: number[] = [];
    for (let index = 0; index < 4; index += 1) {
      const [account] = await db.query<{ id: number }>("INSERT INTO accounts (user_id, name, market_code) VALUES ($1, $2, 'paper_trading') RETURNING id", [user!.id, `fence ${index}`]);
      accounts.push(Number(account!.id));
    }
    const [mine, theirs, unleased, alsoMine] = accounts as [number, number, number, number];
    const leases = new SqlLeaseStore(db);
    for (const id of ['e-mine', 'e-theirs']) await leases.register({ id, host: 'h', pid: 1, role: 'engine' });
    const epochs = new Map([...(await leases.take('e-mine', [mine, alsoMine], 60_000)), ...(await leases.take('e-theirs', [theirs], 60_000))]);
    const guard = leaseGuard('e-mine', () => epochs, 60_000);
    const fence = paperFence('e-mine', () => epochs);
    /** The accounts each lease read of the fence asked for, and what it refused. */
    const fenced = (checkFirst: boolean) =>
      db.transaction(async (tx) => {
        const asked: number[][] = [];
        const watched: Sql = {
          query: (text, params) => {
            if (text.includes('FROM account_leases WHERE account_id = ANY')) asked.push([...(params![0] as number[])]);
            return tx.query(text, params);
          },
          write: (text, params) => tx.write(text, params),
        };
        const order = { accountId: mine } as EngineOrder;
        if (checkFirst) await guard(watched, { automations: [], events: [], orders: [order], records: [] });
        return { asked, refused: await fence(watched, accounts, 'held') };
      });
    assert.deepEqual(await fenced(false), { asked: [accounts], refused: [theirs, unleased] });
    assert.deepEqual(await fenced(true), { asked: [[theirs, unleased, alsoMine]], refused: [theirs, unleased] });
  });
});
