/**
 * Two engines on one PostgreSQL database, in one process so that time can be stepped: the lease
 * of an account decides which of them sends its orders, an engine stops sending once its lease ran
 * out by its own clock, and a batch of an engine whose lease was taken is refused by the database.
 * The exchange is one paper venue both engines reach, wrapped to record who sent what.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { EngineInput, StepResult } from '../domain/automation.ts';
import type { Exchange } from '../exchanges/exchange.ts';
import { PAPER_MARKETS } from '../exchanges/paper/paper-markets.ts';
import { PaperVenue } from '../exchanges/paper/paper-venue.ts';
import { ManualFeed } from '../market-data/manual-feed.ts';
import { dec } from '../shared/decimal.ts';
import type { Database } from '../store/database.ts';
import { SqlEngineRepository } from '../store/engine.repository.ts';
import { leaseGuard, SqlLeaseStore } from '../store/leases.repository.ts';
import { SqlPaperRepository } from '../store/paper.repository.ts';
import { openTestDatabase } from '../../test/support/database.ts';
import { AccountLeases } from './account-leases.ts';
import type { AutomationKind } from './automation-kind.ts';
import { Engine } from './engine.ts';
import { PaperTrading } from './paper-trading.ts';

const postgres = process.env.DATABASE_URL === undefined ? 'leases are for PostgreSQL: set DATABASE_URL to run these tests' : false;

/** Places one small limit buy far below the market on every tick it hears, keyed by the tick's number. */
interface LadderState {
  ticks: number;
}

const ladderKind: AutomationKind<LadderState, { type: 'start' }> = {
  name: 'ladder_test',
  orderIdPrefix: 'l',
  step(state, input: EngineInput | { type: 'start' }): StepResult<LadderState, never> {
    if (input.type !== 'tick') return { state, commands: [], events: [], records: [] };
    const ticks = state.ticks + 1;
    const price = input.price.div(2).toDecimalPlaces(2);
    return {
      state: { ticks },
      commands: [{ type: 'place_order', key: `t${ticks}`, pair: 'USDT_BTC', side: 'buy', orderType: 'limit', amount: dec('0.001'), price, role: 'entry' }],
      events: [{ message: `tick ${ticks}`, at: input.at }],
      records: [],
    };
  },
  watches: () => [{ pair: 'USDT_BTC', above: dec(0) }],
  isRunning: () => true,
  toJson: (state) => state,
  fromJson: (json) => json as LadderState,
};

const LEASE_MS = 1000;

async function until(what: string, condition: () => boolean | Promise<boolean>, deadlineMs = 30_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`Timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('Engines sharing one database through account leases', { skip: postgres }, () => {
  let db: Database;
  let paper: PaperTrading;
  let userId: number;
  let accountId: number;

  before(async () => {
    db = await openTestDatabase();
    const [user] = await db.query<{ id: number }>("INSERT INTO users (name) VALUES ('leases') RETURNING id");
    userId = user!.id;
    const [account] = await db.query<{ id: number }>(
      "INSERT INTO accounts (user_id, name, market_code) VALUES ($1, 'paper', 'paper_trading') RETURNING id",
      [userId],
    );
    accountId = account!.id;
    paper = new PaperTrading(new PaperVenue(PAPER_MARKETS), new SqlPaperRepository(db), new ManualFeed());
    await paper.start();
    await paper.openAccount(accountId, [{ currency: 'USDT', free: dec('100000'), locked: dec(0) }]);
  });
  after(async () => {
    await paper?.stop();
    await db?.close();
  });

  function startEngine(name: string) {
    const sent: string[] = [];
    const logs: string[] = [];
    const logger = {
      info: (_object: object, message: string) => void logs.push(message),
      warn: (_object: object, message: string) => void logs.push(message),
      error: (_object: object, message: string) => void logs.push(message),
    };
    const store = new SqlLeaseStore(db);
    const engineId = `test-${name}-${process.pid}`;
    let engine: Engine | undefined;
    const leases = new AccountLeases({ store, engineId, leaseMs: LEASE_MS, logger, onLost: (id) => void engine?.dropAccount(id) });
    engine = new Engine({
      store: new SqlEngineRepository(db, leaseGuard(engineId, () => leases.epochs(), LEASE_MS)),
      exchangeFor: async (id) => recording(await paper.exchange(id), sent),
      batchOrders: (work) => paper.batch(work),
      clock: () => new Date(),
      logger,
      kinds: [ladderKind],
      leases,
    });
    return { engine, leases, store, engineId, sent, logs };
  }

  const tick = (price: string) => paper.applyTicks([{ pair: 'USDT_BTC', price: dec(price), at: new Date() }]);
  const storedKeys = async (automationId: number) =>
    (await db.query<{ order_key: string }>('SELECT order_key FROM engine_orders WHERE automation_id = $1 ORDER BY id', [automationId])).map((row) => row.order_key);

  it('sends nothing once the lease ran out by the engine clock, and is refused by the database once another engine took it', async () => {
    const a = startEngine('a');
    await a.store.register({ id: a.engineId, host: 'test', pid: process.pid, role: 'engine' });
    await a.engine.start();
    const ladder = await a.engine.create(ladderKind, { userId, accountId, state: { ticks: 0 } });
    assert.ok(a.leases.owns(accountId));
    await a.engine.act(ladderKind, ladder.id, { type: 'start' });
    await tick('60000');
    await a.engine.settled();
    assert.deepEqual(a.sent, [`tll${ladder.id}xt1`]);

    // Engine a is frozen (no heartbeat): past its own deadline it keeps stepping and storing
    // while nobody else holds the account, but it sends nothing.
    await until('engine a stops acting for the account', () => !a.leases.mayAct(accountId));
    await tick('60100');
    await a.engine.settled();
    assert.deepEqual(a.sent, [`tll${ladder.id}xt1`]);
    assert.deepEqual(await storedKeys(ladder.id), ['t1', 't2']);

    // Engine b takes the account once the lease expired on the database's clock, and sends the
    // order a journaled but held back.
    const b = startEngine('b');
    await b.store.register({ id: b.engineId, host: 'test', pid: process.pid, role: 'engine' });
    await b.engine.start();
    await until('engine b takes the expired lease', () => b.leases.take(accountId));
    await b.engine.loadAccount(accountId);
    assert.deepEqual(b.sent, [`tll${ladder.id}xt2`]);

    // Both hear the next tick: a's batch is refused by the lease check and a drops the account;
    // b places the order, once.
    await b.leases.renew();
    await tick('60200');
    await a.engine.settled();
    await b.engine.settled();
    assert.deepEqual(a.sent, [`tll${ladder.id}xt1`]);
    assert.deepEqual(b.sent, [`tll${ladder.id}xt2`, `tll${ladder.id}xt3`]);
    assert.deepEqual(await storedKeys(ladder.id), ['t1', 't2', 't3']);
    assert.ok(a.logs.includes('engine lost an account to another engine'));
    assert.equal(a.leases.owns(accountId), false);
    const open = await (await paper.exchange(accountId)).openOrders('USDT_BTC');
    assert.deepEqual(open.map((order) => order.clientOrderId).sort(), ['t1', 't2', 't3'].map((key) => `tll${ladder.id}x${key}`).sort());

    // A later tick moves only b; a renewal tells a nothing new.
    await a.leases.renew();
    await b.leases.renew();
    await tick('60300');
    await a.engine.settled();
    await b.engine.settled();
    assert.deepEqual(a.sent, [`tll${ladder.id}xt1`]);
    assert.deepEqual(b.sent, ['t2', 't3', 't4'].map((key) => `tll${ladder.id}x${key}`));
    assert.deepEqual(await storedKeys(ladder.id), ['t1', 't2', 't3', 't4']);

    // An action for the account through a is refused, not run twice.
    await assert.rejects(a.engine.act(ladderKind, ladder.id, { type: 'start' }), { name: 'AccountOwnedElsewhereError' });
    await assert.rejects(a.engine.remove(ladderKind, ladder.id), { name: 'AccountOwnedElsewhereError' });
    assert.equal((await db.query('SELECT id FROM automations WHERE id = $1', [ladder.id])).length, 1);

    await b.leases.handBack();
    assert.ok(b.logs.includes('engine handed back its accounts'));
    const [lease] = await db.query<{ engine_id: string | null }>('SELECT engine_id FROM account_leases WHERE account_id = $1', [accountId]);
    assert.equal(lease!.engine_id, null);
    await a.engine.stop();
    await b.engine.stop();
  });
});

/** The exchange, with every order placement it receives noted by client order id. */
function recording(exchange: Exchange, sent: string[]): Exchange {
  return new Proxy(exchange, {
    get(target, property) {
      if (property === 'placeOrder') {
        return (request: Parameters<Exchange['placeOrder']>[0]) => {
          sent.push(request.clientOrderId);
          return target.placeOrder(request);
        };
      }
      const value = Reflect.get(target, property) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
