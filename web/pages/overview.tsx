import { useMemo } from 'preact/hooks';
import { useApp } from '../app-context.ts';
import { type SeriesPoint, SeriesChart } from '../components/series-chart.tsx';
import { Figure, SectionOf, Table } from '../components/panel.tsx';
import { ErrorNote, Freshness } from '../components/status.tsx';
import { formatAmount, formatSigned, formatTime, pairLabel, profitClass } from '../lib/format.ts';
import { usePoll } from '../lib/use-poll.ts';
import { loadOverview, PROFIT_DAYS } from './overview-data.ts';

export function OverviewPage() {
  const { client, session } = useApp();
  const polled = usePoll((signal) => loadOverview(client, signal), [client]);
  const data = polled.data;
  const dailyBars = useMemo(() => (data?.profitByDay.ok ? dayPoints(data.profitByDay.value) : []), [data]);

  return (
    <section class="page">
      <header class="page-header">
        <h1>Overview</h1>
        <Freshness polled={polled} />
      </header>
      {data && (
        <>
          <SectionOf title="Profit" section={data.totals}>
            {(totals) => (
              <dl class="figures">
                <Figure label="Today" value={`${formatSigned(totals.today)} USD`} tone={totals.today} />
                <Figure label="7 days" value={`${formatSigned(totals.week)} USD`} tone={totals.week} />
                <Figure label="Total" value={`${formatSigned(totals.total)} USD`} tone={totals.total} />
              </dl>
            )}
          </SectionOf>
          <SectionOf title={`Profit by day, last ${PROFIT_DAYS} days (USD)`} section={data.profitByDay}>
            {() => <SeriesChart bars={dailyBars} total={runningTotal(dailyBars)} label="Profit by day" daily />}
          </SectionOf>
          <SectionOf title="Accounts" section={data.accounts}>
            {(accounts) => (
              <div class="cards">
                {accounts.map(({ account, mode, balances }) => (
                  <article class="card" aria-label={account.name}>
                    <h3>
                      {account.name} <span class={`badge ${mode}`}>{mode}</span>
                    </h3>
                    <p class="big">${formatAmount(account.usd_amount, 2)}</p>
                    <p class="muted">
                      today <span class={profitClass(account.day_profit_usd)}>{formatSigned(account.day_profit_usd)}</span> USD · total{' '}
                      <span class={profitClass(account.total_usd_profit)}>{formatSigned(account.total_usd_profit)}</span> USD
                    </p>
                    {balances.ok ? (
                      <table class="compact">
                        <thead>
                          <tr>
                            <th scope="col">Coin</th>
                            <th scope="col" class="num">Amount</th>
                            <th scope="col" class="num">On orders</th>
                            <th scope="col" class="num">USD</th>
                          </tr>
                        </thead>
                        <tbody>
                          {balances.value.map((row) => (
                            <tr>
                              <td>{row.currency_code}</td>
                              <td class="num">{formatAmount(row.position)}</td>
                              <td class="num">{formatAmount(row.on_orders)}</td>
                              <td class="num">{formatAmount(row.usd_value, 2)}</td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    ) : (
                      <ErrorNote error={balances.error} />
                    )}
                  </article>
                ))}
              </div>
            )}
          </SectionOf>
          <SectionOf title={`Grid bots (${session.mode})`} section={data.gridBots} action={<a href="#/grid-bots/new">New grid bot</a>}>
            {(bots) => (
              <Table
                empty="No grid bots yet."
                head={['Bot', 'Pair', 'Status', 'Profit', 'Profit USD', 'Cycles']}
                rows={bots.map((bot) => [
                  <a href={`#/grid-bots/${bot.id}`}>{bot.name}</a>,
                  pairLabel(bot.pair),
                  bot.is_enabled ? 'running' : bot.status,
                  <span class={profitClass(bot.current_profit)}>{formatAmount(bot.current_profit)}</span>,
                  <span class={profitClass(bot.current_profit_usd)}>{formatAmount(bot.current_profit_usd, 2)}</span>,
                  bot.total_profits_count,
                ])}
              />
            )}
          </SectionOf>
          <SectionOf title={`DCA bots (${session.mode})`} section={data.dcaBots} action={<a href="#/dca-bots/new">New DCA bot</a>}>
            {(bots) => (
              <Table
                empty="No DCA bots yet."
                head={['Bot', 'Pairs', 'Status', 'Active deals', 'Active profit USD', 'Closed profit USD']}
                rows={bots.map((bot) => [
                  <a href={`#/dca-bots/${bot.id}`}>{bot.name}</a>,
                  bot.pairs.map(pairLabel).join(', '),
                  bot.is_enabled ? 'enabled' : 'disabled',
                  String(bot.active_deals_count),
                  <span class={profitClass(bot.active_deals_usd_profit)}>{formatAmount(bot.active_deals_usd_profit, 2)}</span>,
                  <span class={profitClass(bot.finished_deals_profit_usd)}>{formatAmount(bot.finished_deals_profit_usd, 2)}</span>,
                ])}
              />
            )}
          </SectionOf>
          <SectionOf title="Active deals" section={data.deals}>
            {(deals) => (
              <Table
                empty="No active deals."
                head={['Deal', 'Bot', 'Pair', 'Status', 'Opened', 'Profit USD']}
                rows={deals.map((deal) => [
                  <a href={`#/deals/${deal.id}`}>#{deal.id}</a>,
                  <a href={`#/dca-bots/${deal.bot_id}`}>{deal.bot_name}</a>,
                  pairLabel(deal.pair),
                  deal.localized_status,
                  formatTime(deal.created_at),
                  <span class={profitClass(deal.actual_usd_profit)}>{formatAmount(deal.actual_usd_profit, 2)}</span>,
                ])}
              />
            )}
          </SectionOf>
          <SectionOf title="Active SmartTrades" section={data.smartTrades} action={<a href="#/smart-trades/new">New SmartTrade</a>}>
            {(trades) => (
              <Table
                empty="No active SmartTrades."
                head={['Trade', 'Pair', 'Status', 'Price', 'Profit USD', 'Profit %']}
                rows={trades.map((trade) => [
                  <a href={`#/smart-trades/${trade.id}`}>#{trade.id}</a>,
                  pairLabel(trade.pair),
                  trade.status.title,
                  formatAmount(trade.data.current_price.last),
                  <span class={profitClass(trade.profit?.usd)}>{formatAmount(trade.profit?.usd, 2)}</span>,
                  <span class={profitClass(trade.profit?.percent)}>{formatAmount(trade.profit?.percent, 2)}</span>,
                ])}
              />
            )}
          </SectionOf>
        </>
      )}
    </section>
  );
}

function dayPoints(byDay: Map<string, number>): SeriesPoint[] {
  return [...byDay]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([day, value]) => ({ time: Date.UTC(+day.slice(0, 4), +day.slice(5, 7) - 1, +day.slice(8, 10)) / 1000, value }));
}

function runningTotal(points: SeriesPoint[]): SeriesPoint[] {
  let sum = 0;
  return points.map((point) => ({ time: point.time, value: (sum += point.value) }));
}
