import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GridHarness, gridConfig } from '../domain/grid-bot/test-kit.ts';
import type { GridBotState } from '../domain/grid-bot/grid-bot-state.ts';
import type { Automation } from '../engine/automation-kind.ts';
import { dec } from '../shared/decimal.ts';
import { type GridBotFilter, selectGridBots } from './grid-bots-list.ts';

const day = (n: number) => new Date(Date.UTC(2024, 0, n));
function bot(id: number, accountId: number, options: { name: string; pair: string; profit: string; created: number; updated: number; on: boolean }): Automation<GridBotState> {
  const [quote, base] = options.pair.split('_') as [string, string];
  const state = new GridHarness(gridConfig({ name: options.name, pair: options.pair, base, quote }), 121).start().state;
  return {
    id,
    kind: 'grid_bot',
    userId: 1,
    accountId,
    state: { ...state, status: options.on ? 'running' : 'disabled', figures: { ...state.figures, profit: dec(options.profit) } },
    createdAt: day(options.created),
    updatedAt: day(options.updated),
  };
}

const BOTS = [
  bot(1, 10, { name: 'b', pair: 'USDT_BTC', profit: '5', created: 3, updated: 9, on: true }),
  bot(2, 10, { name: 'a', pair: 'USDT_ETH', profit: '1', created: 1, updated: 8, on: false }),
  bot(3, 20, { name: 'c', pair: 'BTC_ETH', profit: '9', created: 2, updated: 7, on: true }),
];
const ids = (filter: Partial<GridBotFilter>) => selectGridBots(BOTS, { limit: 10, offset: 0, ...filter }).map((b) => b.id);

describe(selectGridBots.name, () => {
  it('sorts by each of the seven fields, descending by default', () => {
    assert.deepEqual(ids({}), [3, 2, 1]);
    assert.deepEqual(ids({ sortBy: 'bot_id', sortDirection: 'asc' }), [1, 2, 3]);
    assert.deepEqual(ids({ sortBy: 'current_profit' }), [3, 1, 2]);
    assert.deepEqual(ids({ sortBy: 'profit', sortDirection: 'asc' }), [2, 1, 3]);
    assert.deepEqual(ids({ sortBy: 'pair', sortDirection: 'asc' }), [3, 1, 2]);
    assert.deepEqual(ids({ sortBy: 'created_at', sortDirection: 'asc' }), [2, 3, 1]);
    assert.deepEqual(ids({ sortBy: 'updated_at' }), [1, 2, 3]);
    assert.deepEqual(ids({ sortBy: 'name', sortDirection: 'asc' }), [2, 1, 3]);
  });

  it('filters by accounts, state, creation date and currencies, then pages', () => {
    assert.deepEqual(ids({ accountIds: [10] }), [2, 1]);
    assert.deepEqual(ids({ state: 'enabled' }), [3, 1]);
    assert.deepEqual(ids({ state: 'disabled' }), [2]);
    assert.deepEqual(ids({ from: day(2) }), [3, 1]);
    assert.deepEqual(ids({ base: 'eth' }), [3, 2]);
    assert.deepEqual(ids({ quote: 'USDT' }), [2, 1]);
    assert.deepEqual(ids({ limit: 1, offset: 1 }), [2]);
  });
});
