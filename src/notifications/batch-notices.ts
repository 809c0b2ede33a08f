/**
 * What one engine batch has to say to people, read from the records the DCA and grid kinds write
 * in the batch's transaction. Pure: the outbox writer stores what these answer.
 *
 * DCA notices follow the deal's own log lines (the domain's one account of what happened) and take
 * their figures from the deal's snapshot at the end of the batch. Each DCA notice has a key that
 * names it once (a deal opens once, its n-th safety order fills once), so storing a batch again
 * stores its notices once. Grid cycles are summed per bot and minute.
 */
import type { DealRecord, DcaRecord } from '../domain/dca-bot/step-output.ts';
import type { Deal } from '../domain/dca-bot/deal.ts';
import type { GridProfitRecord } from '../domain/grid-bot/grid-output.ts';
import type { KindRecords } from '../engine/engine-store.ts';
import { dec, type Decimal, ZERO } from '../shared/decimal.ts';
import type { DealPayload, NotificationEvent } from './notification-events.ts';

export interface Notice {
  userId: number;
  event: NotificationEvent;
  dedupeKey: string;
  payload: Record<string, unknown>;
  at: Date;
}

/** A grid bot's cycles completed within one minute of one batch. */
export interface GridCycles {
  botId: number;
  minute: Date;
  cycles: number;
  profit: Decimal;
  usdProfit: Decimal | null;
}

const ENDINGS = ['Deal completed', 'Deal closed at market price', 'Deal closed by Stop Loss', 'Deal cancelled', 'Deal failed'];

function dealEvent(message: string): { event: NotificationEvent; key: (deal: Deal) => string } | undefined {
  if (message.startsWith('Base order executed')) return { event: 'deal_opened', key: (deal) => `deal_opened:${deal.id}` };
  if (/^Safety trade \d+ executed/.test(message)) {
    return { event: 'safety_order_filled', key: (deal) => `safety_order_filled:${deal.id}:${deal.safetyCompleted}` };
  }
  if (ENDINGS.some((ending) => message.startsWith(ending)) && message.includes('. Profit:')) {
    return { event: 'deal_closed', key: (deal) => `deal_closed:${deal.id}` };
  }
  return undefined;
}

export function dcaNotices(batch: KindRecords): Notice[] {
  const notices: Notice[] = [];
  for (const { automationId, records } of batch) {
    const latest = new Map<number, DealRecord>();
    for (const record of records as DcaRecord[]) if (record.type === 'deal') latest.set(record.deal.id, record);
    for (const record of records as DcaRecord[]) {
      if (record.type !== 'deal_event') continue;
      const found = dealEvent(record.message);
      const owner = latest.get(record.dealId);
      if (!found || !owner) continue;
      const { deal } = owner;
      const payload = dealPayload(automationId, owner);
      const at = new Date(record.at);
      notices.push({ userId: owner.userId, event: found.event, dedupeKey: found.key(deal), payload, at });
      if (found.event === 'deal_closed' && deal.status === 'stop_loss_finished') {
        notices.push({ userId: owner.userId, event: 'stop_loss_triggered', dedupeKey: `stop_loss_triggered:${deal.id}`, payload, at });
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
