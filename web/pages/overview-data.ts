/**
 * What the overview shows, from the public API: accounts of both modes, the automations of the
 * chosen mode, and profit booked per local day by grid bots (their profit rows) and DCA
 * deals (closed deals), in USD.
 */
import type { ApiClient, Mode } from '../api/client.ts';
import type { Account, BalanceRow, BotsStats, DcaBot, Deal, GridBot, GridProfit, SmartTrade } from '../api/types.ts';
import { localDay } from '../lib/format.ts';
import { type Section, settle } from '../lib/settle.ts';

export const PROFIT_DAYS = 30;

export interface AccountWithBalances {
  account: Account;
  mode: Mode;
  balances: Section<BalanceRow[]>;
}

export interface Overview {
  accounts: Section<AccountWithBalances[]>;
  gridBots: Section<GridBot[]>;
  dcaBots: Section<DcaBot[]>;
  deals: Section<Deal[]>;
  smartTrades: Section<SmartTrade[]>;
  /** Local day (YYYY-MM-DD) to USD profit booked that day. */
  profitByDay: Section<Map<string, number>>;
  totals: Section<{ today: number; week: number; total: number }>;
}

export async function loadOverview(client: ApiClient, signal: AbortSignal): Promise<Overview> {
  const since = new Date(Date.now() - PROFIT_DAYS * 86_400_000);
  since.setHours(0, 0, 0, 0);
  const [accounts, gridBots, dcaBots, deals, smartTrades, closedDeals, stats] = await Promise.all([
    settle(loadAccounts(client, signal), signal),
    settle(client.get<GridBot[]>('/ver1/grid_bots', { query: { limit: 1000 }, signal }), signal),
    settle(client.get<DcaBot[]>('/ver1/bots', { query: { limit: 100 }, signal }), signal),
    settle(client.get<Deal[]>('/ver1/deals', { query: { scope: 'active', limit: 1000 }, signal }), signal),
    settle(client.get<SmartTrade[]>('/v2/smart_trades', { query: { status: 'active', per_page: 100 }, signal }), signal),
    // The latest closed deals; those closed before the period are left out below.
    settle(client.get<Deal[]>('/ver1/deals', { query: { scope: 'finished', order: 'closed_at', order_direction: 'desc', limit: 1000 }, signal }), signal),
    settle(client.get<BotsStats>('/ver1/bots/stats', { signal }), signal),
  ]);
  const gridProfits = gridBots.ok ? await settle(profitRows(client, gridBots.value, since, signal), signal) : gridBots;
  const profitByDay: Section<Map<string, number>> = !gridProfits.ok
    ? gridProfits
    : !closedDeals.ok
      ? closedDeals
      : { ok: true, value: dailyProfit(gridProfits.value, closedDeals.value, since.getTime()) };
  const totals: Overview['totals'] =
    profitByDay.ok && gridBots.ok && stats.ok
      ? { ok: true, value: summarise(profitByDay.value, gridBots.value, stats.value) }
      : { ok: false, error: [profitByDay, gridBots, stats].flatMap((s) => (s.ok ? [] : [s.error]))[0]! };
  return { accounts, gridBots, dcaBots, deals, smartTrades, profitByDay, totals };
}

/** Each grid bot's profit rows, kept between refreshes and read again only when its count of cycles moved. */
const profitsByBot = new Map<number, { cycles: string; rows: GridProfit[] }>();

async function profitRows(client: ApiClient, bots: GridBot[], since: Date, signal: AbortSignal): Promise<GridProfit[]> {
  const lists = await Promise.all(
    bots.map(async (bot) => {
      if (bot.total_profits_count === '0') return [];
      const held = profitsByBot.get(bot.id);
      if (held?.cycles === bot.total_profits_count) return held.rows;
      const rows = await client.get<GridProfit[]>(`/ver1/grid_bots/${bot.id}/profits`, { query: { from: since.toISOString() }, signal });
      profitsByBot.set(bot.id, { cycles: bot.total_profits_count, rows });
      return rows;
    }),
  );
  return lists.flat();
}

async function loadAccounts(client: ApiClient, signal: AbortSignal): Promise<AccountWithBalances[]> {
  const lists = await Promise.all(
    (['paper', 'real'] as const).map(async (mode) =>
      (await client.get<Account[]>('/ver1/accounts', { mode, signal })).map((account) => ({ account, mode })),
    ),
  );
  return Promise.all(
    lists.flat().map(async ({ account, mode }) => ({
      account,
      mode,
      balances: await settle(
        client.post<BalanceRow[]>(`/ver1/accounts/${account.id}/account_table_data`, {}, { mode, signal }),
        signal,
      ),
    })),
  );
}

/** USD profit booked per local day since `since` (Unix ms). */
function dailyProfit(gridProfits: GridProfit[], closedDeals: Deal[], since: number): Map<string, number> {
  const byDay = new Map<string, number>();
  const add = (at: string, usd: string | null) => {
    if (usd === null || Date.parse(at) < since) return;
    const day = localDay(new Date(at));
    byDay.set(day, (byDay.get(day) ?? 0) + Number(usd));
  };
  for (const row of gridProfits) add(row.created_at, row.usd_profit);
  for (const deal of closedDeals) if (deal.closed_at) add(deal.closed_at, deal.usd_final_profit);
  return byDay;
}

function summarise(byDay: Map<string, number>, gridBots: GridBot[], stats: BotsStats) {
  const today = localDay(new Date());
  const weekStart = new Date();
  weekStart.setDate(weekStart.getDate() - 6);
  const firstWeekDay = localDay(weekStart);
  let week = 0;
  for (const [day, usd] of byDay) if (day >= firstWeekDay) week += usd;
  const gridTotal = gridBots.reduce((sum, bot) => sum + Number(bot.current_profit_usd), 0);
  return { today: byDay.get(today) ?? 0, week, total: gridTotal + stats.profits_in_usd.overall_usd_profit };
}
