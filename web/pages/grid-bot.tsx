import { useMemo, useRef, useState } from 'preact/hooks';
import type { GridBot, GridProfit, MarketOrder, RequiredBalances } from '../api/types.ts';
import type { Section } from '../lib/settle.ts';
import { useApp } from '../app-context.ts';
import { COLORS } from '../components/chart-theme.ts';
import { Figure, SectionOf, Table } from '../components/panel.tsx';
import { type ChartFill, type ChartLine, PriceChart } from '../components/price-chart.tsx';
import { type SeriesPoint, SeriesChart } from '../components/series-chart.tsx';
import { ErrorNote, Freshness, IntervalSelect, PendingPage } from '../components/status.tsx';
import { formatAmount, formatStep, formatTime, pairLabel, pairParts } from '../lib/format.ts';
import { NO_REAL_CANDLES, PAPER } from '../lib/candles.ts';
import { filledOrders, toFill } from '../lib/orders.ts';
import { navigate } from '../lib/router.ts';
import { useAction } from '../lib/use-action.ts';
import { usePoll } from '../lib/use-poll.ts';
import { GridBotFeed } from './grid-bot-data.ts';

export function GridBotPage({ id }: { id: number }) {
  const { client } = useApp();
  const [candleInterval, setCandleInterval] = useState('1m');
  const feed = useRef(new GridBotFeed(client, id));
  const polled = usePoll((signal) => feed.current.load(candleInterval, signal), [id, candleInterval]);
  const data = polled.data;

  // Balancing market orders are the bot's fills too.
  const filled = useMemo(() => (data ? filledOrders([...data.orders, ...data.balancingOrders]) : []), [data?.orders, data?.balancingOrders]);
  const fills = useMemo<ChartFill[]>(() => filled.map(toFill), [filled]);
  const recentFills = useMemo(() => [...filled].sort((a, b) => b.updated_at.localeCompare(a.updated_at)).slice(0, 50), [filled]);
  const lines = useMemo(() => (data ? chartLines(data.bot) : []), [data?.bot]);
  const cycles = useMemo(() => (data ? profitPoints(data.profits) : { bars: [], total: [] }), [data?.profits]);

  if (!data) return <PendingPage title={`Grid bot #${id}`} polled={polled} />;
  const { bot, rates } = data;
  const { base, quote } = pairParts(bot.pair);
  const price = (value: string | null) => formatStep(value, rates?.priceStep);
  const openOrders = data.orders.filter((order) => order.status_string === 'Active');

  return (
    <section class="page">
      <header class="page-header">
        <div>
          <h1>
            {bot.name} <span class={`badge ${bot.is_enabled ? 'on' : 'off'}`}>{bot.status}</span>
          </h1>
          <p class="muted">
            {pairLabel(bot.pair)} · {bot.account_name} · created {formatTime(bot.created_at)}
          </p>
        </div>
        <Freshness polled={polled} />
      </header>
      <GridBotActions bot={bot} onDone={() => void polled.reload()} />
      {bot.error && <p class="error-note">{bot.error}</p>}
      <dl class="figures">
        <Figure label="Price" value={`${price(bot.current_price)} ${quote}`} />
        <Figure label="Grid profit" value={`${formatAmount(bot.current_profit)} ${quote}`} tone={bot.current_profit} testId="grid-profit" />
        <Figure label="Profit USD" value={formatAmount(bot.current_profit_usd, 2)} tone={bot.current_profit_usd} />
        <Figure label="Cycles" value={bot.total_profits_count} testId="grid-cycles" />
        <Figure label="Unrealised" value={`${formatAmount(bot.unrealized_profit_loss)} ${quote}`} tone={bot.unrealized_profit_loss} />
      </dl>
      <section class="panel" aria-label="Price chart">
        <header class="panel-header">
          <h2>
            {pairLabel(bot.pair)} with grid lines and fills
          </h2>
          <IntervalSelect value={candleInterval} onChange={setCandleInterval} />
        </header>
        <PriceChart candles={data.candles} lines={lines} fills={fills} priceStep={rates?.priceStep} label={`${bot.pair} candles`} viewKey={candleInterval} />
        {data.marketCode !== PAPER && <p class="muted">{NO_REAL_CANDLES}</p>}
        <p class="legend">
          <span class="swatch buy" /> buy line · <span class="swatch sell" /> sell line · dashed: no order placed · ▲ buy fills · ▼ sell fills
        </p>
      </section>
      <section class="panel" aria-label="Profit per cycle">
        <header class="panel-header">
          <h2>Profit per cycle ({quote})</h2>
        </header>
        <SeriesChart bars={cycles.bars} total={cycles.total} label="Profit per cycle" />
      </section>
      <div class="columns">
        <section class="panel" aria-label="Settings">
          <header class="panel-header">
            <h2>Settings</h2>
          </header>
          <dl class="settings">
            <dt>Range</dt>
            <dd>
              {price(bot.lower_price)} – {price(bot.upper_price)} {quote}
            </dd>
            <dt>Lines</dt>
            <dd>
              {bot.grids_quantity}, {bot.grid_type}
            </dd>
            <dt>Per line</dt>
            <dd>
              {bot.quantity_per_grid} {base}
            </dd>
            <dt>Start price</dt>
            <dd>{price(bot.start_price)}</dd>
            <dt>Stop loss</dt>
            <dd>
              {bot.lower_stop_loss_enabled ? `below ${price(bot.lower_stop_loss_price)}` : 'lower off'},{' '}
              {bot.upper_stop_loss_enabled ? `above ${price(bot.upper_stop_loss_price)}` : 'upper off'}
            </dd>
            <dt>Trailing</dt>
            <dd>
              up {bot.trailing_up_enabled === 'true' ? 'on' : 'off'}, down {bot.trailing_down_enabled === 'true' ? 'on' : 'off'}
            </dd>
            <dt>Investment</dt>
            <dd>
              {formatAmount(bot.investment_base_currency)} {base} + {formatAmount(bot.investment_quote_currency)} {quote}
            </dd>
            <dt>Note</dt>
            <dd>{bot.note ?? '–'}</dd>
          </dl>
        </section>
        <SectionOf
          title="Required balances"
          section={data.required ?? ({ ok: true, value: undefined } as Section<RequiredBalances | undefined>)}
        >
          {(required) =>
            required === undefined ? (
              <p class="muted">The bot is disabled: it needs nothing until it is enabled again.</p>
            ) : (
            <dl class="settings">
              <dt>Required</dt>
              <dd>
                {formatAmount(required.required_balance.base.quantity)} {base} + {formatAmount(required.required_balance.quote.quantity)} {quote}
              </dd>
              <dt>Missing</dt>
              <dd>
                {formatAmount(required.missing_balance.base.quantity)} {base} + {formatAmount(required.missing_balance.quote.quantity)} {quote}
              </dd>
              <dt>Balancing</dt>
              <dd>{required.need_balancing ? (required.balancing_available ? 'needed, possible' : 'needed, not possible') : 'not needed'}</dd>
            </dl>
            )
          }
        </SectionOf>
      </div>
      <div class="columns">
        <section class="panel" aria-label="Open orders">
          <header class="panel-header">
            <h2>Open orders ({openOrders.length})</h2>
          </header>
          <OrderTable orders={openOrders} price={price} time="created_at" empty="No open orders." />
        </section>
        <section class="panel" aria-label="Recent fills">
          <header class="panel-header">
            <h2>Recent fills ({filled.length} in all)</h2>
          </header>
          <OrderTable orders={recentFills} price={price} time="updated_at" empty="No fills yet." />
        </section>
      </div>
      <section class="panel" aria-label="Events">
        <header class="panel-header">
          <h2>Events</h2>
        </header>
        <ol class="events">
          {data.events.map((event) => (
            <li>
              <time dateTime={event.created_at}>{formatTime(event.created_at)}</time> {event.message}
            </li>
          ))}
        </ol>
      </section>
    </section>
  );
}

function GridBotActions({ bot, onDone }: { bot: GridBot; onDone(): void }) {
  const { client } = useApp();
  const { busy, error, run: act } = useAction(onDone);
  const remove = () =>
    act(async () => {
      if (!confirm(`Delete ${bot.name}? Its orders are cancelled and its history is deleted.`)) return;
      await client.delete(`/ver1/grid_bots/${bot.id}`);
      navigate('/');
    });
  return (
    <div class="actions">
      {bot.is_enabled ? (
        <button type="button" disabled={busy} onClick={() => act(() => client.post(`/ver1/grid_bots/${bot.id}/disable`))}>
          Disable
        </button>
      ) : (
        <button type="button" disabled={busy} onClick={() => act(() => client.post(`/ver1/grid_bots/${bot.id}/enable`))}>
          Enable
        </button>
      )}
      <a class="button" href={`#/grid-bots/${bot.id}/edit`}>
        Edit
      </a>
      <button type="button" class="danger" disabled={busy} onClick={remove}>
        Delete
      </button>
      <ErrorNote error={error} />
    </div>
  );
}

function OrderTable(props: { orders: MarketOrder[]; price(value: string): string; time: 'created_at' | 'updated_at'; empty: string }) {
  return (
    <Table
      empty={props.empty}
      head={['Side', 'Price', 'Amount', props.time === 'created_at' ? 'Placed' : 'Filled']}
      rows={props.orders.map((order) => [
        <span class={order.order_type === 'BUY' ? 'up' : 'down'}>{order.order_type}</span>,
        props.price(order.status_string === 'Filled' ? order.average_price : order.rate),
        order.quantity,
        formatTime(order[props.time]),
      ])}
    />
  );
}


function chartLines(bot: GridBot): ChartLine[] {
  const lines: ChartLine[] = bot.grid_lines.map((line) => ({
    price: line.price,
    color: line.side === 'buy' ? COLORS.up : line.side === 'sell' ? COLORS.down : COLORS.muted,
    title: line.order_placed ? (line.side ?? '') : '',
    dashed: !line.order_placed,
  }));
  if (bot.lower_stop_loss_enabled && bot.lower_stop_loss_price) {
    lines.push({ price: bot.lower_stop_loss_price, color: COLORS.warning, title: 'stop loss', dashed: true });
  }
  if (bot.upper_stop_loss_enabled && bot.upper_stop_loss_price) {
    lines.push({ price: bot.upper_stop_loss_price, color: COLORS.warning, title: 'stop loss', dashed: true });
  }
  return lines;
}

/** Profit per cycle, summed per minute (the chart needs one point per time), and its running total. */
function profitPoints(profits: GridProfit[]): { bars: SeriesPoint[]; total: SeriesPoint[] } {
  const byMinute = new Map<number, number>();
  for (const row of profits) {
    const minute = Math.floor(Date.parse(row.created_at) / 60_000) * 60;
    byMinute.set(minute, (byMinute.get(minute) ?? 0) + Number(row.profit));
  }
  const bars = [...byMinute].sort(([a], [b]) => a - b).map(([time, value]) => ({ time, value }));
  let sum = 0;
  return { bars, total: bars.map((bar) => ({ time: bar.time, value: (sum += bar.value) })) };
}
