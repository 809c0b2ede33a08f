/**
 * DCA deals, their logs and the pairs blacklist. `writeDcaRecords` is the DCA bot kind's record
 * writer: it runs inside the engine's batch transaction, so the deals table never disagrees with
 * the bot states stored beside it.
 */
import type { Deal } from '../domain/dca-bot/deal.ts';
import type { DcaRecord, DealRecord } from '../domain/dca-bot/step-output.ts';
import type { DcaStore, DealFilter, ProfitFilter, ProfitSum, StoredDeal } from '../services/deals.service.ts';
import type { KindRecords } from '../engine/engine-store.ts';
import { dec } from '../shared/decimal.ts';
import type { Sql } from './database.ts';
import { columns } from './unnest.ts';

interface DealRow {
  bot_id: string | number;
  bot_name: string;
  account_id: string | number;
  user_id: string | number;
  data: string;
  /** Null in rows written before the settings had a column of their own (migration 0089). */
  settings: string | null;
}

const DEAL_COLUMNS = 'bot_id, bot_name, account_id, user_id, data, settings';

const toStored = (row: DealRow): StoredDeal => ({
  deal: dealOf(row),
  botId: Number(row.bot_id),
  botName: row.bot_name,
  accountId: Number(row.account_id),
  userId: Number(row.user_id),
});

function dealOf(row: DealRow): Deal {
  const deal = JSON.parse(row.data) as Deal;
  if (row.settings !== null) deal.settings = JSON.parse(row.settings) as Deal['settings'];
  return deal;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms));

export async function writeDcaRecords(sql: Sql, batch: KindRecords): Promise<void> {
  const latest = new Map<number, DealRecord & { botId: number }>();
  for (const { automationId, records } of batch) {
    for (const record of records as DcaRecord[]) if (record.type === 'deal') latest.set(record.deal.id, { ...record, botId: automationId });
  }
  if (latest.size === 0) return;
  const rows = [...latest.values()].map(({ deal, botId, botName, accountId, userId }) => {
    // The settings have a column of their own, after the text (migration 0089).
    const { settings, ...moving } = deal;
    return [
      deal.id, botId, botName, accountId, userId, deal.pair, deal.base, deal.quote, deal.status, deal.closedAt !== null,
      settings.profitCurrency === 'base_currency' ? deal.base : deal.quote, deal.finalProfit, percentage(deal),
      deal.usdProfit, deal.btcProfit, deal.note, new Date(deal.createdAt), new Date(deal.updatedAt), iso(deal.closedAt),
      JSON.stringify(moving), JSON.stringify(settings),
    ];
  });
  // Updated where stored and inserted where not, as the journal is: an upsert locks each stored
  // row before updating it, a WAL record of its own. An active deal's text is rewritten only when
  // its status moves: readers take an active deal from its bot's state (DealsService.view), and an
  // unchanged text is left out of the update's log record. A new deal's lines are in its bot's
  // event rows after the last one logged before it began (the batch's own rows are written first).
  await sql.write(
    `WITH c AS (SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::bigint[], $5::bigint[], $6::text[], $7::text[],
       $8::text[], $9::text[], $10::boolean[], $11::text[], $12::numeric[], $13::numeric[], $14::numeric[], $15::numeric[],
       $16::text[], $17::timestamptz[], $18::timestamptz[], $19::timestamptz[], $20::text[], $21::text[])
       AS c (id, bot_id, bot_name, account_id, user_id, pair, base, quote, status, finished, profit_currency, final_profit,
         final_profit_percentage, usd_final_profit, btc_final_profit, note, created_at, updated_at, closed_at, data, settings)),
     updated AS (
       UPDATE dca_deals d SET bot_name = c.bot_name, status = c.status, finished = c.finished,
         profit_currency = c.profit_currency, final_profit = c.final_profit,
         final_profit_percentage = c.final_profit_percentage, usd_final_profit = c.usd_final_profit,
         btc_final_profit = c.btc_final_profit, note = c.note, updated_at = c.updated_at, closed_at = c.closed_at,
         data = CASE WHEN c.finished OR c.status <> d.status THEN c.data ELSE d.data END, settings = c.settings
       FROM c WHERE d.id = c.id RETURNING d.id
     )
     INSERT INTO dca_deals (id, bot_id, bot_name, account_id, user_id, pair, base, quote, status, finished, profit_currency,
       final_profit, final_profit_percentage, usd_final_profit, btc_final_profit, note, created_at, updated_at, closed_at, data, settings,
       log_after)
     SELECT c.*, coalesce((SELECT max(e.id) FROM automation_events e WHERE e.automation_id = c.bot_id AND e.created_at < c.created_at), 0)
     FROM c WHERE c.id NOT IN (SELECT id FROM updated)`,
    columns(rows, 21),
  );
}

function percentage(deal: Deal): string | null {
  if (deal.finalProfit === null) return null;
  const invested = dec(deal.settings.profitCurrency === 'base_currency' ? deal.entryAmount : deal.entryVolume);
  return invested.isZero() ? '0' : dec(deal.finalProfit).div(invested).times(100).toDecimalPlaces(4).toFixed();
}

const ORDER_COLUMNS: Record<DealFilter['order'], string> = {
  created_at: 'created_at',
  updated_at: 'updated_at',
  closed_at: 'closed_at',
  profit: 'final_profit',
  profit_percentage: 'final_profit_percentage',
};

/** A Map, not an object: a scope such as `constructor` must find nothing rather than a prototype member. */
const SCOPES = new Map([
  ['active', 'NOT finished'],
  ['finished', 'finished'],
  ['completed', `status = 'completed'`],
  ['cancelled', `status = 'cancelled'`],
  ['failed', `status = 'failed'`],
]);

/** Builds `WHERE` conditions with numbered parameters. */
class Conditions {
  readonly parts: string[] = [];
  readonly params: unknown[] = [];

  add(sqlWithPlaceholder: string, value: unknown): void {
    this.params.push(value);
    this.parts.push(sqlWithPlaceholder.replace('?', `$${this.params.length}`));
  }

  get where(): string {
    return this.parts.length === 0 ? '' : `WHERE ${this.parts.join(' AND ')}`;
  }
}

function profitConditions(filter: ProfitFilter): Conditions {
  const conditions = new Conditions();
  conditions.add('user_id = ?', filter.userId);
  if (filter.accountIds !== undefined) conditions.add('account_id = ANY(?::bigint[])', filter.accountIds);
  if (filter.accountId !== undefined) conditions.add('account_id = ?', filter.accountId);
  if (filter.botId !== undefined) conditions.add('bot_id = ?', filter.botId);
  conditions.parts.push(`status IN ('completed', 'panic_sold', 'stop_loss_finished')`);
  if (filter.closedFrom !== undefined) conditions.add('closed_at >= ?', filter.closedFrom);
  if (filter.closedUntil !== undefined) conditions.add('closed_at <= ?', filter.closedUntil);
  return conditions;
}

export class SqlDcaRepository implements DcaStore {
  constructor(private readonly sql: Sql) {}

  async listDeals(filter: DealFilter): Promise<StoredDeal[]> {
    const conditions = new Conditions();
    conditions.add('user_id = ?', filter.userId);
    if (filter.accountIds !== undefined) conditions.add('account_id = ANY(?::bigint[])', filter.accountIds);
    if (filter.botId !== undefined) conditions.add('bot_id = ?', filter.botId);
    if (filter.accountId !== undefined) conditions.add('account_id = ?', filter.accountId);
    if (filter.from !== undefined) conditions.add('created_at >= ?', filter.from);
    if (filter.to !== undefined) conditions.add('created_at <= ?', filter.to);
    if (filter.base !== undefined) conditions.add('base = ?', filter.base);
    if (filter.quote !== undefined) conditions.add('quote = ?', filter.quote);
    if (filter.note !== undefined) conditions.add('note = ?', filter.note);
    const scope = filter.scope === undefined ? undefined : SCOPES.get(filter.scope);
    if (scope) conditions.parts.push(scope);
    const direction = filter.direction === 'asc' ? 'ASC' : 'DESC';
    conditions.params.push(filter.limit, filter.offset);
    const rows = await this.sql.query<DealRow>(
      `SELECT ${DEAL_COLUMNS} FROM dca_deals ${conditions.where}
       ORDER BY ${ORDER_COLUMNS[filter.order]} ${direction} NULLS LAST, id ${direction}
       LIMIT $${conditions.params.length - 1} OFFSET $${conditions.params.length}`,
      conditions.params,
    );
    return rows.map(toStored);
  }

  async findDeal(id: number): Promise<StoredDeal | undefined> {
    const rows = await this.sql.query<DealRow>(
      `SELECT ${DEAL_COLUMNS} FROM dca_deals WHERE id = $1`,
      [id],
    );
    return rows[0] && toStored(rows[0]);
  }

  /**
   * The deal's lines from its bot's event rows (without the deal's pair and id that lead them
   * there, as `dealLinePrefix` writes them), or from `dca_deal_events` once the bot is removed
   * (and in rows written before 0090).
   */
  async dealEvents(dealId: number): Promise<Array<{ message: string; createdAt: Date }>> {
    const rows = await this.sql.query<{ message: string; created_at: Date }>(
      `SELECT message, created_at FROM (
         SELECT coalesce(m.message, e.message) AS message, e.created_at, 0 AS source, e.id AS row_id, m.n
         FROM dca_deal_events e LEFT JOIN LATERAL unnest(e.messages) WITH ORDINALITY AS m (message, n) ON true
         WHERE e.deal_id = $1
         UNION ALL
         SELECT substr(m.message, length(p.prefix) + 1), e.created_at, 1, e.id, m.n
         FROM dca_deals d CROSS JOIN LATERAL (SELECT d.pair || ' deal #' || d.id || ': ' AS prefix) p
           JOIN automation_events e ON e.automation_id = d.bot_id AND e.id > d.log_after
           CROSS JOIN LATERAL unnest(e.messages) WITH ORDINALITY AS m (message, n)
         WHERE d.id = $1 AND starts_with(m.message, p.prefix)
       ) lines ORDER BY source, row_id, n`,
      [dealId],
    );
    return rows.map((row) => ({ message: row.message, createdAt: new Date(row.created_at) }));
  }

  async profitSums(filter: ProfitFilter): Promise<ProfitSum[]> {
    const conditions = profitConditions(filter);
    const rows = await this.sql.query<{ currency: string; profit: string; usd: string; btc: string; count: string | number }>(
      `SELECT profit_currency AS currency, COALESCE(SUM(final_profit), 0)::text AS profit,
         COALESCE(SUM(usd_final_profit), 0)::text AS usd, COALESCE(SUM(btc_final_profit), 0)::text AS btc, COUNT(*) AS count
       FROM dca_deals ${conditions.where} GROUP BY profit_currency ORDER BY profit_currency`,
      conditions.params,
    );
    return rows.map((row) => ({ currency: row.currency, profit: row.profit, usd: row.usd, btc: row.btc, count: Number(row.count) }));
  }

  async statusCounts(botId: number): Promise<Record<string, number>> {
    const rows = await this.sql.query<{ status: string; count: string | number }>(
      'SELECT status, COUNT(*) AS count FROM dca_deals WHERE bot_id = $1 GROUP BY status',
      [botId],
    );
    return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
  }

  async profitByDay(filter: ProfitFilter): Promise<Array<{ day: string; usd: string; btc: string }>> {
    const conditions = profitConditions(filter);
    const rows = await this.sql.query<{ day: string; usd: string; btc: string }>(
      `SELECT to_char(closed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, COALESCE(SUM(usd_final_profit), 0)::text AS usd,
         COALESCE(SUM(btc_final_profit), 0)::text AS btc
       FROM dca_deals ${conditions.where} GROUP BY 1 ORDER BY 1`,
      conditions.params,
    );
    return rows;
  }

  async blacklist(userId: number): Promise<string[]> {
    const rows = await this.sql.query<{ pairs: string[] }>('SELECT pairs FROM dca_pairs_blacklist WHERE user_id = $1', [userId]);
    return rows[0]?.pairs ?? [];
  }

  async setBlacklist(userId: number, pairs: string[]): Promise<void> {
    await this.sql.query(
      `INSERT INTO dca_pairs_blacklist (user_id, pairs) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE SET pairs = EXCLUDED.pairs`,
      [userId, pairs],
    );
  }
}
