import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EngineInput } from '../domain/automation.ts';
import { dec } from '../shared/decimal.ts';
import type { LiveAutomation } from './automation-kind.ts';
import { TickWakes } from './tick-wakes.ts';

const live = (id: number, source: string, pair: string) => ({ automation: { id, state: { pair } }, source }) as unknown as LiveAutomation;
const tick = (pair: string): EngineInput => ({ type: 'tick', pair, price: dec(1), bid: dec(1), ask: dec(1), at: new Date(0) });
const closed: EngineInput = { type: 'order_closed', key: 'k', status: 'cancelled', at: new Date(0) };
const usesOf = (entry: LiveAutomation) => [(entry.automation.state as { pair: string }).pair];
const ids = (taken: Array<{ live: LiveAutomation; input: EngineInput }>) => taken.map((entry) => `${entry.live.automation.id} ${entry.input.type}`);

describe('The automations a batch’s ticks woke', () => {
  it('give up those that use a pair on a source, each with its inputs in order, those that may order first', () => {
    const woken = new TickWakes();
    woken.add(live(1, 'paper', 'USDT_BTC'), tick('USDT_BTC'), false);
    woken.add(live(2, 'paper', 'USDT_ETH'), tick('USDT_ETH'), true);
    woken.add(live(3, 'account:7', 'USDT_BTC'), tick('USDT_BTC'), true);
    woken.add(live(4, 'paper', 'USDT_BTC'), tick('USDT_BTC'), true);
    // An order's end heard after the tick waits with it, and makes the one that only trailed one that may order.
    woken.add(live(1, 'paper', 'USDT_BTC'), closed, true);
    assert.deepEqual(ids(woken.takeUsing('paper', 'USDT_BTC', usesOf)), ['1 tick', '1 order_closed', '4 tick']);
    assert.equal(woken.size, 2);
    assert.deepEqual(ids(woken.takeNext()), ['2 tick', '3 tick']);
    assert.deepEqual(ids(woken.takeNext()), []);
  });

  it('give up those that may order before those that only trail', () => {
    const woken = new TickWakes();
    woken.add(live(1, 'paper', 'USDT_BTC'), tick('USDT_BTC'), false);
    woken.add(live(2, 'paper', 'USDT_BTC'), tick('USDT_BTC'), true);
    assert.deepEqual(ids(woken.takeUsing('paper', 'USDT_BTC', usesOf)), ['2 tick', '1 tick']);
    woken.add(live(1, 'paper', 'USDT_BTC'), tick('USDT_BTC'), false);
    woken.add(live(2, 'paper', 'USDT_BTC'), tick('USDT_BTC'), true);
    assert.deepEqual(ids(woken.takeNext()), ['2 tick']);
    assert.deepEqual(ids(woken.takeNext()), ['1 tick']);
    assert.equal(woken.size, 0);
  });
});
