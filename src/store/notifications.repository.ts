/** Notification targets, the outbox and its deliveries in SQL (migration 0031). */
import type { AutomationNotice, GridCycles, Notice } from '../notifications/batch-notices.ts';
import type { NotificationEvent, OutboxNotification } from '../notifications/notification-events.ts';
import type {
  DueDelivery,
  NewTarget,
  NotificationStore,
  NotificationTarget,
  TargetChanges,
} from '../notifications/notification-store.ts';
import type { Database, Sql } from './database.ts';
import { columns } from './unnest.ts';

interface TargetRow {
  id: string | number;
  user_id: string | number;
  kind: NotificationTarget['kind'];
  name: string;
  url: string | null;
  chat_id: string | null;
  secret_sealed: string;
  events: string[];
  enabled: boolean;
  status: NotificationTarget['status'];
  consecutive_failures: number;
  last_error: string | null;
  last_delivered_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const TARGET_COLUMNS = `id, user_id, kind, name, url, chat_id, secret_sealed, events, enabled, status, consecutive_failures,
  last_error, last_delivered_at, created_at, updated_at`;

const toTarget = (row: TargetRow): NotificationTarget => ({
  id: Number(row.id),
  userId: Number(row.user_id),
  kind: row.kind,
  name: row.name,
  url: row.url,
  chatId: row.chat_id,
  secretSealed: row.secret_sealed,
  events: row.events as NotificationEvent[],
  enabled: row.enabled,
  status: row.status,
  consecutiveFailures: row.consecutive_failures,
  lastError: row.last_error,
  lastDeliveredAt: row.last_delivered_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const json = (value: unknown): Record<string, unknown> => (typeof value === 'string' ? JSON.parse(value) : (value as Record<string, unknown>));

const TARGETS_CHANNEL = 'tradeloop_notification_targets';

export class SqlNotificationsRepository implements NotificationStore {
  constructor(private readonly sql: Sql & Pick<Database, 'listen'>) {}

  async list(userId: number): Promise<NotificationTarget[]> {
    const rows = await this.sql.query<TargetRow>(`SELECT ${TARGET_COLUMNS} FROM notification_targets WHERE user_id = $1 ORDER BY id`, [userId]);
    return rows.map(toTarget);
  }

  async get(userId: number, id: number): Promise<NotificationTarget | undefined> {
    const [row] = await this.sql.query<TargetRow>(`SELECT ${TARGET_COLUMNS} FROM notification_targets WHERE user_id = $1 AND id = $2`, [userId, id]);
    return row && toTarget(row);
  }

  async insert(target: NewTarget): Promise<NotificationTarget> {
    const [row] = await this.sql.query<TargetRow>(
      `INSERT INTO notification_targets (user_id, kind, name, url, chat_id, secret_sealed, events, enabled, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7::text[], $8, $9, $9) RETURNING ${TARGET_COLUMNS}`,
      [target.userId, target.kind, target.name, target.url, target.chatId, target.secretSealed, target.events, target.enabled, target.createdAt],
    );
    return toTarget(row!);
  }

  async update(userId: number, id: number, changes: TargetChanges, at: Date): Promise<NotificationTarget | undefined> {
    const [row] = await this.sql.query<TargetRow>(
      `UPDATE notification_targets SET name = coalesce($3, name), url = coalesce($4, url), chat_id = coalesce($5, chat_id),
         secret_sealed = coalesce($6, secret_sealed), events = coalesce($7::text[], events), enabled = coalesce($8, enabled),
         status = 'active', consecutive_failures = 0, updated_at = $9
       WHERE user_id = $1 AND id = $2 RETURNING ${TARGET_COLUMNS}`,
      [userId, id, changes.name ?? null, changes.url ?? null, changes.chatId ?? null, changes.secretSealed ?? null,
        changes.events ?? null, changes.enabled ?? null, at],
    );
    return row && toTarget(row);
  }

  async remove(userId: number, id: number): Promise<boolean> {
    const rows = await this.sql.query('DELETE FROM notification_targets WHERE user_id = $1 AND id = $2 RETURNING id', [userId, id]);
    return rows.length > 0;
  }

  async anyEnabled(): Promise<boolean> {
    const rows = await this.sql.query('SELECT 1 FROM notification_targets WHERE enabled LIMIT 1');
    return rows.length > 0;
  }

  /** Migration 0032's trigger notifies with the schema's name; other schemas' changes are not ours. */
  async watchTargets(onChange: () => void): Promise<(() => Promise<void>) | undefined> {
    if (!this.sql.listen) return undefined;
    const [row] = await this.sql.query<{ schema: string }>('SELECT current_schema() AS schema');
    return this.sql.listen(TARGETS_CHANNEL, {
      onNotify: (schema) => {
        if (schema === row!.schema) onChange();
      },
      onResumed: onChange,
    });
  }

  async writeNotices(sql: Sql, notices: readonly Notice[]): Promise<void> {
    if (notices.length === 0) return;
    await sql.write(
      `INSERT INTO notification_outbox (user_id, event, dedupe_key, payload, created_at, deliver_after)
       SELECT n.user_id, n.event, n.dedupe_key, n.payload, n.at, n.at
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::jsonb[], $5::timestamptz[]) AS n (user_id, event, dedupe_key, payload, at)
       WHERE EXISTS (SELECT 1 FROM notification_targets t WHERE t.user_id = n.user_id AND t.enabled)
       ON CONFLICT (dedupe_key) DO NOTHING`,
      columns(notices.map((n) => [n.userId, n.event, n.dedupeKey, JSON.stringify(n.payload), n.at]), 5),
    );
  }

  async writeAutomationNotices(sql: Sql, notices: readonly AutomationNotice[]): Promise<void> {
    if (notices.length === 0) return;
    await sql.write(
      `INSERT INTO notification_outbox (user_id, event, dedupe_key, payload, created_at, deliver_after)
       SELECT a.user_id, n.event, n.dedupe_key, n.payload, n.at, n.at
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::jsonb[], $5::timestamptz[]) AS n (automation_id, event, dedupe_key, payload, at)
       JOIN automations a ON a.id = n.automation_id
       WHERE EXISTS (SELECT 1 FROM notification_targets t WHERE t.user_id = a.user_id AND t.enabled)
       ON CONFLICT (dedupe_key) DO NOTHING`,
      columns(notices.map((n) => [n.automationId, n.event, n.dedupeKey, JSON.stringify(n.payload), n.at]), 5),
    );
  }

  insertNotices(notices: readonly Notice[]): Promise<void> {
    return this.writeNotices(this.sql, notices);
  }

  async writeGridCycles(sql: Sql, cycles: readonly GridCycles[], deliverAfter: (minute: Date) => Date): Promise<void> {
    if (cycles.length === 0) return;
    // The bot's name and pair are added when the row is sent (see `due`), off the engine's path.
    await sql.write(
      `INSERT INTO notification_outbox AS o (user_id, event, dedupe_key, payload, created_at, deliver_after)
       SELECT a.user_id, 'grid_cycles_completed', 'grid_cycles_completed:' || c.bot_id || ':' || c.minute_ms,
         jsonb_build_object('bot_id', c.bot_id, 'minute', to_char(c.minute AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
           'cycles', c.cycles, 'profit', c.profit, 'usd_profit', c.usd_profit),
         c.minute, c.deliver_after
       FROM unnest($1::bigint[], $2::bigint[], $3::timestamptz[], $4::int[], $5::text[], $6::text[], $7::timestamptz[])
         AS c (bot_id, minute_ms, minute, cycles, profit, usd_profit, deliver_after)
       JOIN automations a ON a.id = c.bot_id
       WHERE EXISTS (SELECT 1 FROM notification_targets t WHERE t.user_id = a.user_id AND t.enabled)
       ON CONFLICT (dedupe_key) DO UPDATE SET payload = o.payload || jsonb_build_object(
         'cycles', (o.payload->>'cycles')::int + (EXCLUDED.payload->>'cycles')::int,
         'profit', ((o.payload->>'profit')::numeric + (EXCLUDED.payload->>'profit')::numeric)::text,
         'usd_profit', ((o.payload->>'usd_profit')::numeric + (EXCLUDED.payload->>'usd_profit')::numeric)::text)
       WHERE NOT o.fanned_out`,
      columns(
        cycles.map((c) => [c.botId, c.minute.getTime(), c.minute, c.cycles, c.profit.toFixed(), c.usdProfit?.toFixed() ?? null, deliverAfter(c.minute)]),
        7,
      ),
    );
  }

  async fanOut(now: Date): Promise<void> {
    await this.sql.query(
      `WITH due AS (
         UPDATE notification_outbox SET fanned_out = true WHERE NOT fanned_out AND deliver_after <= $1
         RETURNING id, user_id, event)
       INSERT INTO notification_deliveries (outbox_id, target_id, next_attempt_at)
       SELECT due.id, t.id, $1 FROM due JOIN notification_targets t ON t.user_id = due.user_id AND t.enabled
         AND (cardinality(t.events) = 0 OR due.event = ANY (t.events))
       ON CONFLICT DO NOTHING`,
      [now],
    );
  }

  async due(now: Date, limit: number, claimUntil: Date): Promise<DueDelivery[]> {
    // Claimed until `claimUntil`, so that servers sharing the database never send one delivery at
    // once; a claim that a crash left behind runs out and the delivery is tried again.
    const rows = await this.sql.query<
      TargetRow & { outbox_id: string | number; attempts: number; event: string; payload: unknown; outbox_created_at: Date; bot: unknown }
    >(
      `WITH claimed AS (
         UPDATE notification_deliveries d SET next_attempt_at = $3, claimed = true
         FROM (SELECT x.outbox_id, x.target_id FROM notification_deliveries x
               JOIN notification_targets t ON t.id = x.target_id AND t.enabled
               WHERE x.status = 'pending' AND x.next_attempt_at <= $1
               ORDER BY x.outbox_id LIMIT $2 FOR UPDATE OF x SKIP LOCKED) due
         WHERE d.outbox_id = due.outbox_id AND d.target_id = due.target_id
         RETURNING d.outbox_id, d.target_id, d.attempts)
       SELECT d.outbox_id, d.attempts, o.event, o.payload, o.created_at AS outbox_created_at,
         CASE WHEN o.event = 'grid_cycles_completed' THEN (SELECT jsonb_build_object('bot_name', b.config->>'name',
           'pair', b.config->>'pair', 'quote', b.config->>'quote') FROM (SELECT a.state::jsonb #> '{v,config}' AS config
           FROM automations a WHERE a.id = (o.payload->>'bot_id')::bigint) b) END AS bot,
         ${TARGET_COLUMNS.split(',').map((column) => `t.${column.trim()}`).join(', ')}
       FROM claimed d JOIN notification_outbox o ON o.id = d.outbox_id JOIN notification_targets t ON t.id = d.target_id
       ORDER BY d.outbox_id`,
      [now, limit, claimUntil],
    );
    return rows.map((row) => ({
      notification: {
        id: Number(row.outbox_id),
        event: row.event as OutboxNotification['event'],
        createdAt: row.outbox_created_at,
        payload: row.bot === null ? json(row.payload) : { ...json(row.payload), ...json(row.bot) },
      },
      target: toTarget(row),
      attempts: row.attempts,
    }));
  }

  async releaseClaims(now: Date): Promise<void> {
    await this.sql.query(`UPDATE notification_deliveries SET claimed = false, next_attempt_at = $1 WHERE claimed AND status = 'pending'`, [now]);
  }

  async delivered(delivery: DueDelivery, at: Date): Promise<void> {
    await this.sql.query(
      `WITH done AS (
         UPDATE notification_deliveries SET status = 'delivered', attempts = attempts + 1, delivered_at = $3, last_error = NULL, claimed = false
         WHERE outbox_id = $1 AND target_id = $2 RETURNING target_id)
       UPDATE notification_targets SET status = 'active', consecutive_failures = 0, last_delivered_at = $3
       WHERE id IN (SELECT target_id FROM done)`,
      [delivery.notification.id, delivery.target.id, at],
    );
  }

  async attemptFailed(delivery: DueDelivery, error: string, retryAt: Date | null, at: Date): Promise<void> {
    await this.sql.query(
      `WITH failed AS (
         UPDATE notification_deliveries SET attempts = attempts + 1, last_error = $3, claimed = false,
           status = CASE WHEN $4::timestamptz IS NULL THEN 'failed' ELSE 'pending' END,
           next_attempt_at = coalesce($4::timestamptz, next_attempt_at)
         WHERE outbox_id = $1 AND target_id = $2 RETURNING target_id)
       UPDATE notification_targets SET consecutive_failures = consecutive_failures + 1, last_error = $3,
         status = CASE WHEN $4::timestamptz IS NULL THEN 'failing' ELSE status END, updated_at = $5
       WHERE id IN (SELECT target_id FROM failed)`,
      [delivery.notification.id, delivery.target.id, error, retryAt, at],
    );
  }

  async writeDailySummaries(day: string, from: Date, to: Date): Promise<void> {
    await this.sql.query(
      `WITH users_with_targets AS (
         SELECT DISTINCT user_id FROM notification_targets
         WHERE enabled AND created_at < $3::timestamptz AND (cardinality(events) = 0 OR 'daily_summary' = ANY (events))),
       deals AS (
         SELECT user_id, profit_currency AS currency, count(*) AS closed, sum(final_profit) AS profit FROM dca_deals
         WHERE closed_at >= $2::timestamptz AND closed_at < $3::timestamptz AND user_id IN (SELECT user_id FROM users_with_targets)
         GROUP BY user_id, profit_currency),
       bots AS (
         SELECT p.automation_id, count(*) AS cycles, sum(p.profit) AS profit FROM grid_profits p
         WHERE p.created_at >= $2::timestamptz AND p.created_at < $3::timestamptz
           AND p.automation_id IN (SELECT id FROM automations WHERE user_id IN (SELECT user_id FROM users_with_targets))
         GROUP BY p.automation_id),
       grids AS (
         SELECT a.user_id, a.state::jsonb #>> '{v,config,quote}' AS currency, sum(b.cycles) AS cycles, sum(b.profit) AS profit
         FROM bots b JOIN automations a ON a.id = b.automation_id
         GROUP BY 1, 2)
       INSERT INTO notification_outbox (user_id, event, dedupe_key, payload, created_at, deliver_after)
       SELECT u.user_id, 'daily_summary', 'daily_summary:' || u.user_id || ':' || $1::text,
         jsonb_build_object('day', $1::text,
           'deals_closed', coalesce((SELECT sum(closed) FROM deals d WHERE d.user_id = u.user_id), 0),
           'deal_profits', coalesce((SELECT jsonb_agg(jsonb_build_object('currency', d.currency, 'profit', d.profit::text) ORDER BY d.currency)
             FROM deals d WHERE d.user_id = u.user_id AND d.profit IS NOT NULL), '[]'::jsonb),
           'grid_cycles', coalesce((SELECT sum(cycles) FROM grids g WHERE g.user_id = u.user_id), 0),
           'grid_profits', coalesce((SELECT jsonb_agg(jsonb_build_object('currency', g.currency, 'profit', g.profit::text) ORDER BY g.currency)
             FROM grids g WHERE g.user_id = u.user_id), '[]'::jsonb)),
         $3::timestamptz, $3::timestamptz
       FROM users_with_targets u
       ON CONFLICT (dedupe_key) DO NOTHING`,
      [day, from, to],
    );
  }
}
