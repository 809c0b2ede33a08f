/**
 * DCA deals in memory, for backtests: the DCA kind's record sink (the latest snapshot of every
 * deal) and the DcaStore the services read, with the SQL store's filters and order. A deal's log is
 * read from its bot's, as the SQL store reads it.
 */
import type { Deal } from '../../domain/dca-bot/deal.ts';
import { type DcaRecord, dealLinePrefix } from '../../domain/dca-bot/step-output.ts';
import type { KindRecords } from '../../engine/engine-store.ts';
import type { DcaStore, DealFilter, ProfitFilter, ProfitSum, StoredDeal } from '../../services/deals.service.ts';
import { dec } from '../../shared/decimal.ts';

const PROFIT_STATUSES = new Set(['completed', 'panic_sold', 'stop_loss_finished']);

const SCOPES = new Map<string, (deal: Deal) => boolean>([
  ['active', (deal) => deal.closedAt === null],
  ['finished', (deal) => deal.closedAt !== null],
  ['completed', (deal) => deal.status === 'completed'],
  ['cancelled', (deal) => deal.status === 'cancelled'],
  ['failed', (deal) => deal.status === 'failed'],
]);

export class MemoryDcaStore implements DcaStore {
  private readonly deals = new Map<number, StoredDeal>();
  private readonly blacklists = new Map<number, string[]>();

  /** `botLog`: a bot's log lines, oldest first (the engine store's). */
  constructor(private readonly botLog: (botId: number) => Promise<Array<{ message: string; createdAt: Date }>>) {}

  readonly write = (batch: KindRecords): void => {
    for (const { automationId, records } of batch) {
      for (const record of records as DcaRecord[]) {
        if (record.type === 'deal') {
          const { deal, botName, accountId, userId } = record;
          this.deals.set(deal.id, { deal, botId: automationId, botName, accountId, userId });
        }
      }
    }
  };

  async listDeals(filter: DealFilter): Promise<StoredDeal[]> {
    const scope = filter.scope === undefined ? undefined : SCOPES.get(filter.scope);
    const selected = [...this.deals.values()].filter(({ deal, ...row }) =>
      row.userId === filter.userId &&
      (filter.accountIds === undefined || filter.accountIds.includes(row.accountId)) &&
      (filter.botId === undefined || row.botId === filter.botId) &&
      (filter.accountId === undefined || row.accountId === filter.accountId) &&
      (filter.from === undefined || deal.createdAt >= filter.from.getTime()) &&
      (filter.to === undefined || deal.createdAt <= filter.to.getTime()) &&
      (filter.base === undefined || deal.base === filter.base) &&
      (filter.quote === undefined || deal.quote === filter.quote) &&
      (filter.note === undefined || deal.note === filter.note) &&
      (scope === undefined || scope(deal)),
    );
    const sign = filter.direction === 'asc' ? 1 : -1;
    const key = sortKey(filter.order);
    selected.sort((a, b) => {
      const [x, y] = [key(a.deal), key(b.deal)];
      // NULLS LAST in both directions, as the SQL store sorts.
      if (x === null || y === null) return x === y ? sign * (a.deal.id - b.deal.id) : x === null ? 1 : -1;
      return sign * (x - y || a.deal.id - b.deal.id);
    });
    return selected.slice(filter.offset, filter.offset + filter.limit);
  }

  async findDeal(id: number): Promise<StoredDeal | undefined> {
    return this.deals.get(id);
  }

  async dealEvents(dealId: number): Promise<Array<{ message: string; createdAt: Date }>> {
    const stored = this.deals.get(dealId);
    if (!stored) return [];
    const prefix = dealLinePrefix(stored.deal.pair, dealId);
    return (await this.botLog(stored.botId))
      .filter((line) => line.message.startsWith(prefix))
      .map((line) => ({ message: line.message.slice(prefix.length), createdAt: line.createdAt }));
  }

  async profitSums(filter: ProfitFilter): Promise<ProfitSum[]> {
    const sums = new Map<string, ProfitSum>();
    for (const { deal } of this.profitDeals(filter)) {
      const currency = profitCurrency(deal);
      const sum = sums.get(currency) ?? { currency, profit: '0', usd: '0', btc: '0', count: 0 };
      sums.set(currency, {
        currency,
        profit: dec(sum.profit).plus(deal.finalProfit ?? 0).toFixed(),
        usd: dec(sum.usd).plus(deal.usdProfit ?? 0).toFixed(),
        btc: dec(sum.btc).plus(deal.btcProfit ?? 0).toFixed(),
        count: sum.count + 1,
      });
    }
    return [...sums.values()].sort((a, b) => (a.currency < b.currency ? -1 : 1));
  }

  async statusCounts(botId: number): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const { deal, botId: owner } of this.deals.values()) if (owner === botId) counts[deal.status] = (counts[deal.status] ?? 0) + 1;
    return counts;
  }

  async profitByDay(filter: ProfitFilter): Promise<Array<{ day: string; usd: string; btc: string }>> {
    const days = new Map<string, { day: string; usd: string; btc: string }>();
    for (const { deal } of this.profitDeals(filter)) {
      const day = new Date(deal.closedAt!).toISOString().slice(0, 10);
      const sum = days.get(day) ?? { day, usd: '0', btc: '0' };
      days.set(day, { day, usd: dec(sum.usd).plus(deal.usdProfit ?? 0).toFixed(), btc: dec(sum.btc).plus(deal.btcProfit ?? 0).toFixed() });
    }
    return [...days.values()].sort((a, b) => (a.day < b.day ? -1 : 1));
  }

  async blacklist(userId: number): Promise<string[]> {
    return [...(this.blacklists.get(userId) ?? [])];
  }

  async setBlacklist(userId: number, pairs: string[]): Promise<void> {
    this.blacklists.set(userId, [...pairs]);
  }

  private profitDeals(filter: ProfitFilter): StoredDeal[] {
    return [...this.deals.values()].filter(({ deal, ...row }) =>
      row.userId === filter.userId &&
      (filter.accountIds === undefined || filter.accountIds.includes(row.accountId)) &&
      (filter.accountId === undefined || row.accountId === filter.accountId) &&
      (filter.botId === undefined || row.botId === filter.botId) &&
      PROFIT_STATUSES.has(deal.status) &&
      deal.closedAt !== null &&
      (filter.closedFrom === undefined || deal.closedAt >= filter.closedFrom.getTime()) &&
      (filter.closedUntil === undefined || deal.closedAt <= filter.closedUntil.getTime()),
    );
  }
}

function profitCurrency(deal: Deal): string {
  return deal.settings.profitCurrency === 'base_currency' ? deal.base : deal.quote;
}

function sortKey(order: DealFilter['order']): (deal: Deal) => number | null {
  switch (order) {
    case 'created_at':
      return (deal) => deal.createdAt;
    case 'updated_at':
      return (deal) => deal.updatedAt;
    case 'closed_at':
      return (deal) => deal.closedAt;
    case 'profit':
      return (deal) => (deal.finalProfit === null ? null : Number(deal.finalProfit));
    case 'profit_percentage':
      return (deal) => profitPercentage(deal);
  }
}

function profitPercentage(deal: Deal): number | null {
  if (deal.finalProfit === null) return null;
  const invested = dec(deal.settings.profitCurrency === 'base_currency' ? deal.entryAmount : deal.entryVolume);
  return invested.isZero() ? 0 : dec(deal.finalProfit).div(invested).times(100).toNumber();
}
