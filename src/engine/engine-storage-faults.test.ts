import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { EngineInput, StepResult } from '../domain/automation.ts';
import { PAPER_MARKETS } from '../exchanges/paper/paper-markets.ts';
import { PaperVenue } from '../exchanges/paper/paper-venue.ts';
import { ManualFeed } from '../market-data/manual-feed.ts';
import { dec } from '../shared/decimal.ts';
import { StorageUnavailableError } from '../shared/errors.ts';
import type { Database } from '../store/database.ts';
import { SqlEngineRepository } from '../store/engine.repository.ts';
import { SqlPaperRepository } from '../store/paper.repository.ts';
import { openTestDatabase } from '../../test/support/database.ts';
import { startPaperEngine } from '../../test/support/paper-engine-process.ts';
import type { AutomationKind } from './automation-kind.ts';
import { type CommittedBatch, type EngineBatch, type EngineStore, QUARANTINED, type QuarantineRecord, type RecordWriter } from './engine-store.ts';
import { PaperTrading } from './paper-trading.ts';

/**
 * Places one limit buy below the first price it hears (`market`: a market buy). A poisoned one
 * also logs a text with a NUL character, which PostgreSQL refuses to store, so its part of any
 * batch it is in fails.
 */
interface BuyerState {
  poisoned: boolean;
  market?: boolean;
  status: 'watching' | 'placed' | 'quarantined';
  reason?: string;
}

const buyerKind: AutomationKind<BuyerState, { type: 'start' }> = {
  name: 'buyer_test',
  orderIdPrefix: 'y',
  step(state, input: EngineInput | { type: 'start' }): StepResult<BuyerState, never> {
    const result: StepResult<BuyerState, never> = { state, commands: [], events: [], records: [] };
    if (input.type !== 'tick' || state.status !== 'watching') return result;
    result.state = { ...state, status: 'placed' };
    const order = state.market ? { orderType: 'market' as const } : { orderType: 'limit' as const, price: input.price.minus(1000) };
    result.commands.push({ type: 'place_order', key: 'b', pair: 'USDT_BTC', side: 'buy', amount: dec('0.001'), role: 'entry', ...order });
    result.events.push({ message: state.poisoned ? 'placed\u0000' : 'placed', at: input.at });
    return result;
  },
  watches: (state) => (state.status === 'watching' ? [{ pair: 'USDT_BTC', above: dec(0) }] : []),
  isRunning: (state) => state.status !== 'quarantined',
  quarantine: (state, reason) => ({ ...state, status: 'quarantined', reason }),
  toJson: (state) => state,
  fromJson: (json) => json as BuyerState,
};

/** The real store, made unreachable on demand for a number of saves (Infinity: for good). */
class FaultyStore extends SqlEngineRepository {
  failingSaves = 0;
  failed = 0;
  onFailure: () => Promise<void> = async () => {};

  override async save(batch: EngineBatch): Promise<void> {
    if (this.failingSaves > 0) {
      this.failingSaves -= 1;
      this.failed += 1;
      await this.onFailure();
      throw new StorageUnavailableError('connection refused');
    }
    return super.save(batch);
  }
}

const at = new Date(Date.UTC(2024, 0, 1));

describe('Engine storage faults', () => {
  let db: Database;
  let userId: number;

  before(async () => {
    db = await openTestDatabase();
    const [user] = await db.query<{ id: number }>("INSERT INTO users (name) VALUES ('f') RETURNING id");
    userId = user!.id;
  });
  after(() => db.close());

  /** `storeThrough`: the engine stores the paper exchange's changes in its batches, as a server does. */
  async function startProcess(store: EngineStore, onStorageLost?: (error: Error) => void, writers: Record<string, RecordWriter> = {}, storeThrough = false) {
    const p = await startPaperEngine(db, userId, store, { kinds: [buyerKind], at, writers, storeThrough, ...(onStorageLost ? { onStorageLost } : {}) });
    const create = (poisoned = false, market = false) =>
      p.engine.create(buyerKind, { userId, accountId: p.accountId, state: { poisoned, market, status: 'watching' } }, { type: 'start' });
    return { ...p, create };
  }

  it('quarantines the automation storage refuses and stores and sends the rest of its batch', async () => {
    const recorded: QuarantineRecord[] = [];
    // The quarantine's record is written with it: what the writer stores commits with the stop.
    const noteQuarantine: RecordWriter = async (sql, batch) => {
      for (const { automationId, records } of batch) {
        recorded.push(...(records as QuarantineRecord[]));
        await sql.query('INSERT INTO automation_events (automation_id, messages, created_at) VALUES ($1, ARRAY[$2::text], $3)', [automationId, 'noted', at]);
      }
    };
    const p = await startProcess(new SqlEngineRepository(db), undefined, { [QUARANTINED]: noteQuarantine });
    const healthy = [await p.create(), await p.create()];
    const poisoned = await p.create(true);
    const heard: CommittedBatch[] = [];
    p.engine.onCommitted((batch) => void heard.push(batch));
    await p.tick('60000');

    for (const { id } of healthy) {
      assert.deepEqual((await p.engine.orders(id)).map((o) => [o.key, o.status]), [['b', 'open']]);
    }
    assert.deepEqual(await p.openOrders(), healthy.map(({ id }) => `tly${id}xb`).sort());
    assert.deepEqual(await p.engine.orders(poisoned.id), []);
    const stopped = (await p.engine.get(buyerKind, poisoned.id))!;
    assert.equal(stopped.state.status, 'quarantined');
    assert.match(stopped.state.reason!, /^Stopped: its changes could not be stored \(INSERT automation_events failed with SQLSTATE 22021\)$/);
    const events = await p.engine.events(poisoned.id, { limit: 5, offset: 0 });
    assert.deepEqual(events.map((event) => event.message).sort(), [stopped.state.reason!, 'noted'].sort());
    assert.deepEqual(recorded, [{ kind: 'buyer_test', userId, reason: stopped.state.reason, at }]);
    assert.deepEqual(p.errors, ['automation quarantined']);
    // After-commit listeners (streams) hear of the stop once it is stored.
    const stops = heard.filter((batch) => batch.quarantined !== undefined);
    assert.deepEqual(stops.map((batch) => [batch.automations.map((a) => a.id), batch.quarantined]), [[[poisoned.id], [{ id: poisoned.id, reason: stopped.state.reason }]]]);
    assert.ok(heard.every((batch) => batch.quarantined !== undefined || batch.automations.every((a) => a.id !== poisoned.id)));

    // It stays stopped: a later tick leaves it alone, and a restart does not resume it.
    await p.tick('61000');
    assert.deepEqual(await p.engine.orders(poisoned.id), []);
    await p.stop();
    const again = await startProcess(new SqlEngineRepository(db));
    await again.tick('62000');
    assert.equal((await again.engine.get(buyerKind, poisoned.id))!.state.status, 'quarantined');
    await again.stop();
  });

  it('with the paper exchange stored in its batches, takes back the order of an automation storage refused', async () => {
    const p = await startProcess(new SqlEngineRepository(db), undefined, {}, true);
    const healthy = await p.create();
    const poisoned = await p.create(true);
    await p.tick('60000');

    // Both limit buys rested at once, in memory, before the batch was stored; the refused one is
    // cancelled, and what it locked is free again in storage too.
    assert.deepEqual((await p.engine.orders(healthy.id)).map((o) => [o.key, o.status]), [['b', 'open']]);
    assert.deepEqual(await p.engine.orders(poisoned.id), []);
    assert.equal((await p.engine.get(buyerKind, poisoned.id))!.state.status, 'quarantined');
    assert.deepEqual(await p.openOrders(), [`tly${healthy.id}xb`]);
    assert.deepEqual(await p.storedUsdt(), ['9941', '59']);
    await p.stop();
  });

  it('with the paper exchange stored in its batches, stores the market order of an automation storage refused as the exchange filled it', async () => {
    const p = await startProcess(new SqlEngineRepository(db), undefined, {}, true);
    const poisoned = await p.create(true, true);
    await p.tick('60000');

    assert.equal((await p.engine.get(buyerKind, poisoned.id))!.state.status, 'quarantined');
    assert.deepEqual((await p.engine.orders(poisoned.id)).map((o) => [o.key, o.status, o.filled]), [['b', 'filled', '0.001']]);
    // Its fill, at the ask with the paper exchange's slippage, is stored with the funds it took.
    const [spent] = await db.query<{ total: string }>('SELECT sum(amount * price)::text AS total FROM paper_trades WHERE account_id = $1', [p.accountId]);
    assert.deepEqual(await p.storedUsdt(), [dec('10000').minus(spent!.total).toFixed(), '0']);
    await p.stop();
  });

  // A batch with a refused part is stored as each automation's part, then the paper exchange's
  // changes: a process that dies between two of those, or before the batch that frees what the
  // refused order locked, leaves stored balances that its stored open orders do not explain.
  for (const [when, stopsAfter, stored, corrected] of [
    ['after the healthy part, before the balances', (batch: EngineBatch) => batch.orders.some((order) => order.status === 'open'), ['10000', '0'], '0'],
    ['after the balances, before the funds are freed', (batch: EngineBatch) => batch.automations.length === 0 && batch.companion !== undefined, ['9882', '118'], '118'],
  ] as const) {
    it(`puts back on restart what the open orders hold back, when the process stopped ${when} of a batch with a refused part`, async () => {
      let placed = false;
      const store = new (class extends FaultyStore {
        override async save(batch: EngineBatch): Promise<void> {
          await super.save(batch);
          if (placed && stopsAfter(batch)) this.failingSaves = Infinity;
        }
      })(db);
      const p = await startProcess(store, () => {}, {}, true);
      const healthy = await p.create();
      await p.create(true);
      placed = true;
      await p.tick('60000');
      await p.stop();
      assert.deepEqual(await p.storedUsdt(), stored);

      const warnings: unknown[] = [];
      const restarted = new PaperTrading(new PaperVenue(PAPER_MARKETS), new SqlPaperRepository(db), new ManualFeed(), undefined, {
        // The other tests' accounts are read too.
        warn: (object) => void ((object as { accountId: number }).accountId === p.accountId && warnings.push(object)),
      });
      await restarted.start();
      const exchange = await restarted.exchange(p.accountId);
      assert.deepEqual((await exchange.openOrders()).map((order) => order.clientOrderId), [`tly${healthy.id}xb`]);
      const usdt = (await exchange.balances()).find((balance) => balance.currency === 'USDT')!;
      assert.deepEqual([usdt.free.toFixed(), usdt.locked.toFixed()], ['9941', '59']);
      assert.deepEqual(warnings, [{ accountId: p.accountId, corrected: [{ currency: 'USDT', locked: corrected, backed: '59' }] }]);
      await restarted.stop();
    });
  }

  it('stores no quarantine whose record cannot be written: the two are one transaction', async () => {
    const refuse: RecordWriter = async () => {
      throw new Error('refused');
    };
    const p = await startProcess(new SqlEngineRepository(db), undefined, { [QUARANTINED]: refuse });
    const poisoned = await p.create(true);
    await p.tick('60000');
    const stored = await db.query<{ state: string; running: boolean }>('SELECT state::text, running FROM automations WHERE id = $1', [poisoned.id]);
    assert.deepEqual([JSON.parse(stored[0]!.state).v.status, stored[0]!.running], ['watching', true]);
    assert.deepEqual(await p.engine.events(poisoned.id, { limit: 5, offset: 0 }), []);
    assert.ok(p.errors.includes('the quarantine of an automation could not be stored'), p.errors.join());
    await p.stop();
  });

  it('while storage is unreachable, sends nothing and keeps the inputs, then stores and sends once it is back', async () => {
    const store = new FaultyStore(db);
    const p = await startProcess(store);
    const buyer = await p.create();
    store.failingSaves = 3;
    const sentWhileDown: string[][] = [];
    store.onFailure = async () => void sentWhileDown.push(await p.openOrders());
    await p.tick('60000');

    assert.equal(store.failed, 3);
    assert.deepEqual(sentWhileDown, [[], [], []]);
    assert.deepEqual((await p.engine.orders(buyer.id)).map((o) => [o.key, o.status]), [['b', 'open']]);
    assert.deepEqual(await p.openOrders(), [`tly${buyer.id}xb`]);
    await p.stop();
  });

  it('with the paper exchange stored in its batches, stores an order placed while storage was unreachable once it is back', async () => {
    const store = new FaultyStore(db);
    const p = await startProcess(store, undefined, {}, true);
    const buyer = await p.create();
    store.failingSaves = 3;
    const storedWhileDown: unknown[] = [];
    store.onFailure = async () => void storedWhileDown.push(await p.storedUsdt());
    await p.tick('60000');

    assert.equal(store.failed, 3);
    assert.deepEqual(storedWhileDown, [['10000', '0'], ['10000', '0'], ['10000', '0']]);
    assert.deepEqual((await p.engine.orders(buyer.id)).map((o) => [o.key, o.status]), [['b', 'open']]);
    assert.deepEqual(await p.storedUsdt(), ['9941', '59']);
    await p.stop();
  });

  it('stops and reports when storage does not come back, and sends nothing it could not store', async () => {
    const store = new FaultyStore(db);
    const lost: Error[] = [];
    const p = await startProcess(store, (error) => void lost.push(error));
    const buyer = await p.create();
    store.failingSaves = Infinity;
    await p.tick('60000');

    assert.equal(store.failed, 5);
    assert.equal(lost.length, 1);
    assert.deepEqual(await p.openOrders(), []);
    await assert.rejects(p.engine.settled(), StorageUnavailableError);
    store.failingSaves = 0;
    assert.deepEqual(await p.engine.orders(buyer.id), []);
    await p.stop();
  });
});
