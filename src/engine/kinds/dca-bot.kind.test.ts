import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newBotState } from '../../domain/dca-bot/dca-bot-state.ts';
import { BotHarness } from '../../domain/dca-bot/test-support/bot-harness.ts';
import { botConfig } from '../../domain/dca-bot/test-support/fixtures.ts';
import { applyChanges, packChanges, type StateChange } from '../state-changes.ts';
import { dcaBotKind } from './dca-bot.kind.ts';

describe('DCA bot kind', () => {
  it("finds on its states what differs between their JSON, over a deal's fills, its edit, its close and the bot's edit", () => {
    const h = new BotHarness(newBotState({ userId: 1, accountId: 2, config: botConfig() }));
    h.context.setPrice('USDT_ETH', '100');
    const states = [h.state];
    const keep = () => void states.push(h.state);
    h.act({ type: 'start_deal', pair: 'USDT_ETH', skipSignalChecks: false, skipOpenDealsChecks: false, onlyForEnabled: false });
    keep();
    for (const price of ['99', '97.7']) {
      h.tick('USDT_ETH', price);
      keep();
    }
    h.act({ type: 'deal', dealId: 1000, action: { type: 'update_max_safety_orders', maxSafetyOrders: 2 } });
    keep();
    for (const price of ['99.5', '102', '100.5']) {
      h.tick('USDT_ETH', price);
      keep();
    }
    h.act({ type: 'update', config: botConfig({ name: 'renamed' }) });
    keep();
    assert.equal(h.state.finishedDealsCount, 1);
    assert.notEqual(h.state.deals[0]?.id, 1000);

    const stored = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;
    for (const [i, base] of states.entries()) {
      for (const next of states.slice(i)) {
        const changes: StateChange[] = [];
        dcaBotKind.changesBetween!(base, next, [], changes);
        assert.deepEqual(applyChanges(stored(base), stored(packChanges(changes)) as never), stored(next));
      }
    }
  });
});
