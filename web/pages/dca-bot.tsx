/** A DCA bot: its figures, profit by day, settings, its deals with filters, and its actions. */
import { useMemo, useState } from 'preact/hooks';
import type { DcaBot, Deal, DealsStats, ProfitByDay } from '../api/types.ts';
import { useApp } from '../app-context.ts';
import { Figure, Table } from '../components/panel.tsx';
import { SeriesChart } from '../components/series-chart.tsx';
import { ErrorNote, Freshness, PendingPage } from '../components/status.tsx';
import { formatAmount, formatTime, pairLabel, profitClass } from '../lib/format.ts';
import { useAction } from '../lib/use-action.ts';
import { usePoll } from '../lib/use-poll.ts';

const SCOPES = [
  ['', 'All'],
  ['active', 'Active'],
  ['finished', 'Finished'],
  ['completed', 'Completed'],
  ['cancelled', 'Cancelled'],
  ['failed', 'Failed'],
];

export function DcaBotPage({ id }: { id: number }) {
  const { client } = useApp();
  const [scope, setScope] = useState('');
  const [since, setSince] = useState('');
  const polled = usePoll(
    async (signal) => {
      const [bot, stats, profit, deals] = await Promise.all([
        client.get<DcaBot>(`/ver1/bots/${id}/show`, { signal }),
        client.get<DealsStats>(`/ver1/bots/${id}/deals_stats`, { signal }),
        client.get<ProfitByDay>(`/ver1/bots/${id}/profit_by_day`, { query: { days: 30 }, signal }),
        client.get<Deal[]>('/ver1/deals', {
          query: { bot_id: id, limit: 100, ...(scope === '' ? {} : { scope }), ...(since === '' ? {} : { from: since }) },
          signal,
        }),
      ]);
      return { bot, stats, profit, deals };
    },
    [id, scope, since],
  );
  const data = polled.data;
  const bars = useMemo(
    () => (data?.profit.data ?? []).map((day) => ({ time: day.unix_timestamp, value: Number(day.profit.usd) })),
    [data?.profit],
  );
  const action = useAction(() => void polled.reload());

  if (!data) return <PendingPage title={`DCA bot #${id}`} polled={polled} />;
  const { bot, stats } = data;
  const post = (path: string, body: unknown = {}) => action.run(() => client.post(`/ver1/bots/${id}/${path}`, body));
  return (
    <section class="page">
      <header class="page-header">
        <div>
          <h1>
            {bot.name} <span class={`badge ${bot.is_enabled ? 'on' : 'off'}`}>{bot.is_enabled ? 'enabled' : 'disabled'}</span>
          </h1>
          <p class="muted">
            {bot.pairs.map(pairLabel).join(', ')} · {bot.account_name} · {bot.strategy} · created {formatTime(bot.created_at)}
          </p>
        </div>
        <Freshness polled={polled} />
      </header>
      <div class="actions">
        {bot.is_enabled ? (
          <button type="button" disabled={action.busy} onClick={() => post('disable')}>
            Disable
          </button>
        ) : (
          <button type="button" disabled={action.busy} onClick={() => post('enable')}>
            Enable
          </button>
        )}
        <button type="button" class="button secondary" disabled={action.busy} onClick={() => post('start_new_deal', { only_for_enabled: false })}>
          Start a deal now
        </button>
        <ErrorNote error={action.error} />
      </div>
      <dl class="figures">
        <Figure label="Active deals" value={String(stats.active)} />
        <Figure label="Completed deals" value={String(stats.completed + stats.panic_sold)} />
        <Figure label="Closed profit USD" value={formatAmount(stats.completed_deals_usd_profit, 2)} tone={stats.completed_deals_usd_profit} />
        <Figure label="Active profit USD" value={formatAmount(stats.active_deals_usd_profit, 2)} tone={stats.active_deals_usd_profit} />
        <Figure label="Funds in active deals" value={formatAmount(stats.funds_locked_in_active_deals, 2)} />
      </dl>
      <section class="panel" aria-label="Profit by day">
        <header class="panel-header">
          <h2>Profit by day, last 30 days (USD)</h2>
        </header>
        <SeriesChart bars={bars} label="Profit by day" daily />
      </section>
      <section class="panel" aria-label="Deals">
        <header class="panel-header">
          <h2>Deals</h2>
          <div class="actions">
            <label class="inline">
              Show{' '}
              <select value={scope} onChange={(event) => setScope(event.currentTarget.value)}>
                {SCOPES.map(([value, label]) => (
                  <option value={value}>{label}</option>
                ))}
              </select>
            </label>
            <label class="inline">
              Opened since <input type="date" value={since} onChange={(event) => setSince(event.currentTarget.value)} />
            </label>
          </div>
        </header>
        <Table
          empty="No deals match."
          head={['Deal', 'Pair', 'Status', 'Opened', 'Closed', 'Safety orders', 'Profit USD']}
          rows={data.deals.map((deal) => {
            const profit = deal['finished?'] ? deal.usd_final_profit : deal.actual_usd_profit;
            return [
              <a href={`#/deals/${deal.id}`}>#{deal.id}</a>,
              pairLabel(deal.pair),
              deal.localized_status,
              formatTime(deal.created_at),
              formatTime(deal.closed_at),
              `${deal.completed_safety_orders_count} / ${deal.max_safety_orders}`,
              <span class={profitClass(profit)}>{formatAmount(profit, 2)}</span>,
            ];
          })}
        />
      </section>
      <section class="panel" aria-label="Settings">
        <header class="panel-header">
          <h2>Settings</h2>
        </header>
        <dl class="settings">
          <dt>Base order</dt>
          <dd>
            {bot.base_order_volume} ({bot.base_order_volume_type.replace('_', ' ')})
          </dd>
          <dt>Safety orders</dt>
          <dd>
            {bot.safety_order_volume} each, {bot.active_safety_orders_count} active of {bot.max_safety_orders}, every {bot.safety_order_step_percentage} %
          </dd>
          <dt>Martingale</dt>
          <dd>
            volume ×{bot.martingale_volume_coefficient}, step ×{bot.martingale_step_coefficient}
          </dd>
          <dt>Take profit</dt>
          <dd>
            {bot.take_profit} % ({bot.take_profit_type})
          </dd>
          <dt>Stop loss</dt>
          <dd>{Number(bot.stop_loss_percentage) > 0 ? `${bot.stop_loss_percentage} %` : 'off'}</dd>
          <dt>Deals at once</dt>
          <dd>{bot.max_active_deals}</dd>
        </dl>
      </section>
    </section>
  );
}
