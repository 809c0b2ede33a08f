import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CompanionWrite } from '../../engine/engine-store.ts';
import type { ExchangeOrder } from '../../exchanges/exchange.ts';
import type { PaperChanges } from '../../exchanges/paper-state.ts';
import { dec, ZERO } from '../../shared/decimal.ts';
import { MemoryEngineStore } from './memory-engine-store.ts';
import { MemoryPaperStore } from './memory-paper-store.ts';

const at = new Date(Date.UTC(2024, 0, 1));

const resting: ExchangeOrder = {
  id: 'P-1',
  clientOrderId: 'tl-1',
  pair: 'BTC_USDT',
  side: 'buy',
  type: 'limit',
  price: dec('100'),
  amount: dec('1'),
  filled: ZERO,
  filledTotal: ZERO,
  fee: ZERO,
  feeCurrency: 'BTC',
  status: 'open',
  createdAt: at,
  updatedAt: at,
};

const changes: PaperChanges = {
  balances: [{ accountId: 7, balances: [{ currency: 'USDT', free: dec('900'), locked: dec('100') }] }],
  orders: [{ accountId: 7, order: resting, journaled: true }],
  fills: [],
};

describe('MemoryEngineStore with the paper exchange as its companion', () => {
  it("keeps the paper exchange's changes taken by a batch in the memory paper store, with the batch", async () => {
    const paperStore = new MemoryPaperStore();
    const store = new MemoryEngineStore();
    const write: CompanionWrite = (tx) => paperStore.writeIn(tx, changes).then(() => undefined);
    await store.save({ automations: [], events: [], orders: [], records: [], companion: [write] });
    const [account] = (await paperStore.load()).accounts;
    assert.equal(account?.accountId, 7);
    assert.deepEqual(account.balances.map((balance) => [balance.currency, balance.free.toFixed(), balance.locked.toFixed()]), [['USDT', '900', '100']]);
    assert.deepEqual(account.openOrders.map((order) => order.clientOrderId), ['tl-1']);
  });

  it('gives a companion no SQL to run, and takes no position writes', async () => {
    const store = new MemoryEngineStore();
    const sqlWrite: CompanionWrite = (tx) => tx.write('SELECT 1');
    await assert.rejects(store.save({ automations: [], events: [], orders: [], records: [], companion: [sqlWrite] }), /runs no SQL/);
    await assert.rejects(store.save({ automations: [], events: [], orders: [], records: [], position: async () => {} }), /no position writes/);
  });
});
