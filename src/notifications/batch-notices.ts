/**
 * What one engine batch has to say to people, read from the records the DCA and grid kinds write
 * in the batch's transaction. Pure: the outbox writer stores what these answer.
 *
 * DCA notices follow the deals' milestone records and take their figures from the deal's snapshot
 * at the end of the batch; SmartTrade notices follow the trade's stop-loss and closing records.
 * Each notice has a key that names it once, so storing a batch again stores its notices once.
 * Grid cycles are summed per bot and minute.
 */
import type { DcaRecord, DealMilestone, DealMilestoneRecord, DealRecord } from '../domain/dca-bot/step-output.ts';
import type { GridProfitRecord } from '../domain/grid-bot/grid-output.ts';
import type { KindRecords } from '../engine/engine-store.ts';
import { dec, type Decimal, ZERO } from '../shared/decimal.ts';
import type { SmartTradeRecord } from '../domain/smart-trade/trade-records.ts';
import type { DealPayload, NotificationEvent, SmartTradeClosedPayload, SmartTradeStopPayload } from './notification-events.ts';

export interface Notice {
  userId: number;
  event: NotificationEvent;
  dedupeKey: string;
  payload: Record<string, unknown>;
  at: Date;
}

/** A notice of an automation whose owner the store looks up (the record does not name them). */
export type AutomationNotice = Omit<Notice, 'userId'> & { automationId: number };

/** A grid bot's cycles completed within one minute of one batch. */
export interface GridCycles {
  botId: number;
  minute: Date;
  cycles: number;
  profit: Decimal;
  usdProfit: Decimal | null;
}

const MILESTONE_EVENTS: Record<DealMilestone, NotificationEvent> = {
  opened: 'deal_opened',
  safety_order_filled: 'safety_order_filled',
  closed: 'deal_closed',
};

/** The key that names a milestone once: a deal opens once, its n-th safety order fills once. */
function milestoneKey(record: DealMilestoneRecord): string {
  const event = MILESTONE_EVENTS[record.milestone];
  return record.milestone === 'safety_order_filled' ? `${event}:${record.dealId}:${record.safetyOrders}` : `${event}:${record.dealId}`;
}

export function dcaNotices(batch: KindRecords): Notice[] {
  const notices: Notice[] = [];
  for (const { automationId, records } of batch) {
    const latest = new Map<number, DealRecord>();
    for (const record of records as DcaRecord[]) if (record.type === 'deal') latest.set(record.deal.id, record);
    for (const record of records as DcaRecord[]) {
      if (record.type !== 'deal_milestone') continue;
      const owner = latest.get(record.dealId);
      if (!owner) continue;
      const payload = { ...dealPayload(automationId, owner), completed_safety_orders: record.safetyOrders };
      const at = new Date(record.at);
      notices.push({ userId: owner.userId, event: MILESTONE_EVENTS[record.milestone], dedupeKey: milestoneKey(record), payload, at });
      if (record.milestone === 'closed' && record.status === 'stop_loss_finished') {
        notices.push({ userId: owner.userId, event: 'stop_loss_triggered', dedupeKey: `stop_loss_triggered:${record.dealId}`, payload, at });
      }
    }
  }
  return notices;
}

export function smartTradeNotices(batch: KindRecords): AutomationNotice[] {
  const notices: AutomationNotice[] = [];
  for (const { automationId, records } of batch) {
    for (const record of records as SmartTradeRecord[]) {
      const facts = { smart_trade_id: automationId, pair: record.pair, base: record.base, quote: record.quote, side: record.side };
      if (record.type === 'stop_loss_triggered') {
        const payload: SmartTradeStopPayload = { ...facts, trigger_price: record.price };
        notices.push({ automationId, event: 'stop_loss_triggered', dedupeKey: `stop_loss_triggered:smart_trade:${automationId}`, payload: { ...payload }, at: record.at });
      } else {
        const payload: SmartTradeClosedPayload = {
          ...facts,
          status: record.status,
          profit: record.profit,
          profit_percentage: record.profitPercentage,
          profit_currency: record.quote,
          error: record.error,
        };
        notices.push({ automationId, event: 'smart_trade_closed', dedupeKey: `smart_trade_closed:${automationId}`, payload: { ...payload }, at: record.at });
      }
    }
  }
  return notices;
}

function dealPayload(botId: number, { deal, botName }: DealRecord): Record<string, unknown> {
  const amount = dec(deal.entryAmount);
  const payload: DealPayload = {
    bot_id: botId,
    bot_name: botName,
    deal_id: deal.id,
    pair: deal.pair,
    base: deal.base,
    quote: deal.quote,
    entry_amount: deal.entryAmount,
    entry_volume: deal.entryVolume,
    average_price: amount.isZero() ? null : dec(deal.entryVolume).div(amount).toDecimalPlaces(8).toFixed(),
    completed_safety_orders: deal.safetyCompleted,
    max_safety_orders: deal.settings.maxSafetyOrders,
    status: deal.status,
    final_profit: deal.finalProfit,
    profit_currency: deal.settings.profitCurrency === 'base_currency' ? deal.base : deal.quote,
    usd_final_profit: deal.usdProfit,
  };
  return { ...payload };
}

export function gridCycles(batch: KindRecords): GridCycles[] {
  const byMinute = new Map<string, GridCycles>();
  for (const { automationId, records } of batch) {
    for (const record of records as GridProfitRecord[]) {
      const minute = new Date(Math.floor(record.at.getTime() / 60_000) * 60_000);
      const key = `${automationId}:${minute.getTime()}`;
      let entry = byMinute.get(key);
      if (!entry) byMinute.set(key, (entry = { botId: automationId, minute, cycles: 0, profit: ZERO, usdProfit: ZERO }));
      entry.cycles += 1;
      entry.profit = entry.profit.plus(record.profit);
      entry.usdProfit = entry.usdProfit === null || record.usdProfit === null ? null : entry.usdProfit.plus(record.usdProfit);
    }
  }
  return [...byMinute.values()];
}
