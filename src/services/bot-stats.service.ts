/**
 * DCA profit statistics, all from real deals. Closed deals count when completed, closed at market
 * or stopped out, with their profit in their profit currency and in USD/BTC at the rates of their
 * close; "today" is since UTC midnight. Active deals count at the current price: their unrealised
 * profit at the bid (long) or ask (short), and the funds they lock (what their position cost plus
 * what their working entry orders reserve), in USD now.
 */
import type { DcaBotState } from '../domain/dca-bot/dca-bot-state.ts';
import { fundsLocked, profitCurrency, unrealisedProfit } from '../domain/dca-bot/deal-profit.ts';
import { PROFIT_STATUSES } from '../domain/dca-bot/deal.ts';
import type { Automation } from '../engine/automation-kind.ts';
import { dcaBotKind } from '../engine/kinds/dca-bot.kind.ts';
import { dec, type Decimal, ZERO } from '../shared/decimal.ts';
import type { DcaEngine, DcaPrices, DcaStore, ProfitSum } from './deals.service.ts';
import type { AccountsService } from './accounts.service.ts';
import type { UserMode } from './repositories.ts';
import { USD_STABLECOINS } from './valuation.ts';

export interface ActiveFigures {
  count: number;
  usdProfit: Decimal;
  btcProfit: Decimal;
  usdLocked: Decimal;
  btcLocked: Decimal;
}

/** Statistics cover the accounts of the request's mode, narrowed to one account or one bot. */
export interface StatsFilter {
  accountId?: number;
  botId?: number;
}

const DAY_MS = 86_400_000;
const startOfUtcDay = (at: Date) => new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);
const number = (value: Decimal, places: number) => Number(value.toDecimalPlaces(places).toFixed());
const text = (value: Decimal | string, places = 8) => dec(value).toDecimalPlaces(places).toFixed();
/** Profits per currency, exact: the plain sum of the deals' final_profit. */
const byCurrency = (sums: ProfitSum[]) => Object.fromEntries(sums.map((sum) => [sum.currency, dec(sum.profit).toFixed()]));
const total = (sums: ProfitSum[], field: 'usd' | 'btc') => sums.reduce((acc, sum) => acc.plus(dec(sum[field])), ZERO);

export class BotStatsService {
  constructor(
    private readonly store: DcaStore,
    private readonly engine: DcaEngine,
    private readonly prices: DcaPrices,
    private readonly accounts: AccountsService,
    private readonly now: () => Date,
  ) {}

  async stats(userId: number, mode: UserMode, filter: StatsFilter) {
    const accountIds = await this.accounts.idsOf(userId, mode);
    const scope = { userId, accountIds: [...accountIds], ...filter };
    const [overall, today, bots] = await Promise.all([
      this.store.profitSums(scope),
      this.store.profitSums({ ...scope, closedFrom: startOfUtcDay(this.now()) }),
      this.bots(userId, filter),
    ]);
    const active = await this.activeFigures(bots.filter((bot) => accountIds.has(bot.accountId)));
    return {
      overall_stats: byCurrency(overall),
      today_stats: byCurrency(today),
      profits_in_usd: {
        overall_usd_profit: number(total(overall, 'usd'), 2),
        today_usd_profit: number(total(today, 'usd'), 2),
        active_deals_usd_profit: number(active.usdProfit, 9),
        funds_locked_in_active_deals: number(active.usdLocked, 9),
      },
    };
  }

  async dealsStats(bot: Automation<DcaBotState>) {
    const [counts, sums, active] = await Promise.all([
      this.store.statusCounts(bot.id),
      this.store.profitSums({ userId: bot.userId, botId: bot.id }),
      this.activeFigures([bot]),
    ]);
    const quotes = new Set(bot.state.config.pairs.map((pair) => pair.split('_')[0]));
    return {
      active: active.count,
      completed: counts.completed ?? 0,
      panic_sold: counts.panic_sold ?? 0,
      from_currency_is_dollars: [...quotes].every((quote) => quote !== undefined && USD_STABLECOINS.includes(quote)),
      completed_deals_usd_profit: text(total(sums, 'usd')),
      completed_deals_btc_profit: text(total(sums, 'btc'), 18),
      funds_locked_in_active_deals: text(active.usdLocked, 9),
      btc_funds_locked_in_active_deals: text(active.btcLocked, 18),
      active_deals_usd_profit: text(active.usdProfit, 9),
      active_deals_btc_profit: text(active.btcProfit, 18),
    };
  }

  async profitByDay(bot: Automation<DcaBotState>, days: number) {
    const from = new Date(startOfUtcDay(this.now()).getTime() - (days - 1) * DAY_MS);
    const rows = await this.store.profitByDay({ userId: bot.userId, botId: bot.id, closedFrom: from });
    return {
      data: rows.map((row) => ({
        s_date: row.day,
        unix_timestamp: Date.parse(`${row.day}T00:00:00Z`) / 1000,
        profit: { btc: text(row.btc), usd: text(row.usd, 2) },
      })),
    };
  }

  async statsByDate(userId: number, mode: UserMode, date: Date, filter: StatsFilter) {
    const from = startOfUtcDay(date);
    const accountIds = [...(await this.accounts.idsOf(userId, mode))];
    const sums = await this.store.profitSums({ userId, accountIds, ...filter, closedFrom: from, closedUntil: new Date(from.getTime() + DAY_MS - 1) });
    return { stats: byCurrency(sums), usd_profit: text(total(sums, 'usd')), btc_profit: text(total(sums, 'btc'), 18) };
  }

  /** The user's bots, narrowed to one account or one bot. */
  async bots(userId: number, filter: StatsFilter): Promise<Automation<DcaBotState>[]> {
    const bots = await this.engine.list(dcaBotKind, { userId, ...(filter.accountId === undefined ? {} : { accountId: filter.accountId }) });
    return filter.botId === undefined ? bots : bots.filter((bot) => bot.id === filter.botId);
  }

  async activeFigures(bots: readonly Automation<DcaBotState>[]): Promise<ActiveFigures> {
    const figures: ActiveFigures = { count: 0, usdProfit: ZERO, btcProfit: ZERO, usdLocked: ZERO, btcLocked: ZERO };
    for (const bot of bots) {
      const btcUsd = await this.prices.usdRate(bot.accountId, 'BTC');
      for (const deal of bot.state.deals) {
        if (PROFIT_STATUSES.includes(deal.status)) continue;
        figures.count += 1;
        const [quote, profitUsd, quoteUsd] = await Promise.all([
          this.prices.quote(bot.accountId, deal.pair),
          this.prices.usdRate(bot.accountId, profitCurrency(deal)),
          this.prices.usdRate(bot.accountId, deal.quote),
        ]);
        const profit = quote && profitUsd ? unrealisedProfit(deal, quote.bid, quote.ask).times(profitUsd) : ZERO;
        const locked = quoteUsd ? fundsLocked(deal).times(quoteUsd) : ZERO;
        figures.usdProfit = figures.usdProfit.plus(profit);
        figures.usdLocked = figures.usdLocked.plus(locked);
        if (btcUsd) {
          figures.btcProfit = figures.btcProfit.plus(profit.div(btcUsd));
          figures.btcLocked = figures.btcLocked.plus(locked.div(btcUsd));
        }
      }
    }
    return figures;
  }
}
