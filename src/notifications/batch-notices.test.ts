import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Deal } from '../domain/dca-bot/deal.ts';
import type { DcaRecord, DealMilestone } from '../domain/dca-bot/step-output.ts';
import type { GridProfitRecord } from '../domain/grid-bot/grid-output.ts';
import type { SmartTradeRecord } from '../domain/smart-trade/trade-records.ts';
import { dec } from '../shared/decimal.ts';
import { dcaNotices, gridCycles, smartTradeNotices } from './batch-notices.ts';

const AT = Date.parse('2026-03-02T10:00:30Z');

function deal(changes: Partial<Deal>): Deal {
  return {
    id: 7, pair: 'USDT_ETH', base: 'ETH', quote: 'USDT', status: 'bought', entryAmount: '1.5', entryVolume: '150',
    safetyCompleted: 0, finalProfit: null, usdProfit: null, settings: { maxSafetyOrders: 3, profitCurrency: 'quote_currency' },
    ...changes,
  } as unknown as Deal;
}

type Milestone = [DealMilestone, number, Deal['status']];

const records = (dealState: Deal, ...milestones: Milestone[]): DcaRecord[] => [
  ...milestones.map(([milestone, safetyOrders, status]) => ({ type: 'deal_milestone' as const, dealId: dealState.id, milestone, safetyOrders, status, at: AT })),
  { type: 'deal', deal: dealState, botName: 'night owl', accountId: 3, userId: 9 },
];

describe('dcaNotices', () => {
  it('names a deal opening, each safety order, a close and a stop loss once each, by key', () => {
    const cases: Array<[Deal, Milestone[], Array<[string, string, number]>]> = [
      [deal({}), [['opened', 0, 'bought']], [['deal_opened', 'deal_opened:7', 0]]],
      [
        deal({ safetyCompleted: 3 }),
        [['safety_order_filled', 2, 'bought'], ['safety_order_filled', 3, 'bought']],
        [['safety_order_filled', 'safety_order_filled:7:2', 2], ['safety_order_filled', 'safety_order_filled:7:3', 3]],
      ],
      [deal({ status: 'completed', finalProfit: '3.2' }), [['closed', 0, 'completed']], [['deal_closed', 'deal_closed:7', 0]]],
      [
        deal({ status: 'stop_loss_finished', finalProfit: '-7.5' }),
        [['closed', 1, 'stop_loss_finished']],
        [['deal_closed', 'deal_closed:7', 1], ['stop_loss_triggered', 'stop_loss_triggered:7', 1]],
      ],
      [deal({}), [], []],
    ];
    for (const [state, milestones, expected] of cases) {
      const notices = dcaNotices([{ automationId: 4, records: records(state, ...milestones) }]);
      assert.deepEqual(notices.map((n) => [n.event, n.dedupeKey, n.payload.completed_safety_orders]), expected, JSON.stringify(milestones));
      for (const notice of notices) {
        assert.equal(notice.userId, 9);
        assert.deepEqual(notice.at, new Date(AT));
        assert.equal(notice.payload.bot_id, 4);
        assert.equal(notice.payload.bot_name, 'night owl');
        assert.equal(notice.payload.average_price, '100');
      }
    }
  });
});

describe('smartTradeNotices', () => {
  it('names a SmartTrade’s stop loss and its end once each, by the trade, for the store to find its owner', () => {
    const facts = { pair: 'USDT_SOL', base: 'SOL', quote: 'USDT', side: 'sell' as const, at: new Date(AT) };
    const notices = smartTradeNotices([
      {
        automationId: 42,
        records: [
          { type: 'stop_loss_triggered', ...facts, price: '161' },
          { type: 'closed', ...facts, status: 'stop_loss_finished', profit: '-11.2', profitPercentage: '-7', error: null },
        ] satisfies SmartTradeRecord[],
      },
    ]);
    assert.deepEqual(notices.map((n) => [n.automationId, n.event, n.dedupeKey]), [
      [42, 'stop_loss_triggered', 'stop_loss_triggered:smart_trade:42'],
      [42, 'smart_trade_closed', 'smart_trade_closed:42'],
    ]);
    assert.deepEqual(notices[1]!.payload, {
      smart_trade_id: 42, pair: 'USDT_SOL', base: 'SOL', quote: 'USDT', side: 'sell',
      status: 'stop_loss_finished', profit: '-11.2', profit_percentage: '-7', profit_currency: 'USDT', error: null,
    });
  });
});

describe('gridCycles', () => {
  const profit = (at: string, amount: string, usd: string | null): GridProfitRecord => ({
    lineId: 1, linePrice: dec('100'), side: 'buy', orderPlaced: true, profit: dec(amount), usdProfit: usd === null ? null : dec(usd), at: new Date(at),
  });

  it('sums each bot’s cycles per minute, and leaves the dollar sum unknown once a cycle had no rate', () => {
    const cycles = gridCycles([
      { automationId: 1, records: [profit('2026-03-02T10:00:01Z', '0.1', '0.1'), profit('2026-03-02T10:00:59Z', '0.25', '0.25'), profit('2026-03-02T10:01:00Z', '0.3', null)] },
      { automationId: 2, records: [profit('2026-03-02T10:00:30Z', '1', '1')] },
    ]);
    assert.deepEqual(
      cycles.map((c) => [c.botId, c.minute.toISOString(), c.cycles, c.profit.toFixed(), c.usdProfit?.toFixed() ?? null]),
      [
        [1, '2026-03-02T10:00:00.000Z', 2, '0.35', '0.35'],
        [1, '2026-03-02T10:01:00.000Z', 1, '0.3', null],
        [2, '2026-03-02T10:00:00.000Z', 1, '1', '1'],
      ],
    );
  });
});
