/**
 * One backtest: its progress while it runs; once finished, its figures, the candles it walked with
 * every fill marked and the orders left open, and its equity and drawdown curves.
 */
import { useMemo, useRef } from 'preact/hooks';
import type { Backtest, BacktestCandle, BacktestFill, BacktestResult } from '../api/types.ts';
import { useApp } from '../app-context.ts';
import { COLORS } from '../components/chart-theme.ts';
import { CurveChart } from '../components/curve-chart.tsx';
import { Figure, Table } from '../components/panel.tsx';
import { type ChartFill, type ChartLine, PriceChart } from '../components/price-chart.tsx';
import type { SeriesPoint } from '../components/series-chart.tsx';
import { ErrorNote, Freshness, PendingPage } from '../components/status.tsx';
import { formatAmount, formatTime, pairLabel, pairParts } from '../lib/format.ts';
import { navigate } from '../lib/router.ts';
import { useAction } from '../lib/use-action.ts';
import { usePoll } from '../lib/use-poll.ts';

/** The fills table shows the latest ones; the chart marks them all. */
const FILLS_SHOWN = 200;
/** The shipped candles are of USD-quoted pairs, priced in cents. */
const SHIPPED_PRICE_STEP = '0.01';

export function BacktestPage({ id }: { id: number }) {
  const { client } = useApp();
  // A finished backtest never changes: its result and candles are loaded once.
  const ended = useRef<{ backtest: Backtest; candles: BacktestCandle[] }>();
  const polled = usePoll(async (signal) => {
    if (ended.current) return ended.current;
    const backtest = await client.get<Backtest>(`/ext/backtests/${id}`, { signal });
    if (backtest.status === 'running') return { backtest, candles: [] };
    const candles = backtest.result ? await client.get<BacktestCandle[]>(`/ext/backtests/${id}/candles`, { signal }) : [];
    ended.current = { backtest, candles };
    return ended.current;
  }, [id]);
  const action = useAction(() => void polled.reload());

  if (!polled.data) return <PendingPage title={`Backtest #${id}`} polled={polled} />;
  const { backtest, candles } = polled.data;
  const remove = () =>
    action.run(async () => {
      await client.delete(`/ext/backtests/${id}`);
      if (backtest.status === 'running') ended.current = undefined;
      else navigate('/backtests');
    });
  return (
    <section class="page">
      <header class="page-header">
        <div>
          <h1>
            Backtest #{backtest.id} <span class={`badge ${backtest.status === 'finished' ? 'on' : ''}`}>{backtest.status}</span>
          </h1>
          <p class="muted">
            {backtest.kind.replace('_', ' ')} · {pairLabel(backtest.pair)} · {backtest.from} – {backtest.to}
            {backtest.result && ` · ${backtest.result.candles} candles of ${backtest.result.timeframe} from ${backtest.result.source}`}
          </p>
        </div>
        <Freshness polled={polled} />
      </header>
      <section class="panel" aria-label="Actions">
        <div class="actions">
          {backtest.status === 'running' && (
            <label class="inline">
              Progress <progress max={100} value={backtest.progress} aria-label="Progress" /> {backtest.progress} %
            </label>
          )}
          <button type="button" class="danger" disabled={action.busy} onClick={() => confirm(backtest.status === 'running' ? 'Cancel this backtest?' : 'Delete this backtest?') && remove()}>
            {backtest.status === 'running' ? 'Cancel' : 'Delete'}
          </button>
          <a class="button secondary" href="#/backtests">
            All backtests
          </a>
        </div>
        <ErrorNote error={action.error} />
        {backtest.error && (
          <p class="error-note" role="alert">
            {backtest.error.error_description ?? backtest.error.error}
          </p>
        )}
      </section>
      {backtest.result && <BacktestReport backtest={backtest} result={backtest.result} candles={candles} />}
    </section>
  );
}

function BacktestReport({ backtest, result, candles }: { backtest: Backtest; result: BacktestResult; candles: BacktestCandle[] }) {
  const { quote } = pairParts(backtest.pair);
  const f = result.figures;
  const fills = useMemo<ChartFill[]>(() => result.fills.map((fill) => ({ time: Math.floor(Date.parse(fill.at) / 1000), side: fill.side })), [result]);
  const lines = useMemo<ChartLine[]>(
    () =>
      result.orders
        .filter((order) => order.status === 'open' && order.price !== null)
        .map((order) => ({ price: order.price!, color: order.side === 'buy' ? COLORS.up : COLORS.down, title: order.role.replace('_', ' '), dashed: true })),
    [result],
  );
  const equity = useMemo(() => points(result.series.equity), [result]);
  const drawdown = useMemo(() => points(result.series.drawdown), [result]);
  const money = (name: string) => `${formatAmount(f[name], 2)} ${quote}`;
  const percent = (name: string) => (f[name] === null ? '–' : `${formatAmount(f[name], 2)} %`);
  const ratio = (name: string) => formatAmount(f[name], 2);
  const count = backtest.kind === 'grid' ? ['Grid cycles', f.grid_cycles] : backtest.kind === 'dca' ? ['Deals', f.deals] : ['Trades', f.trades];
  return (
    <>
      <dl class="figures" aria-label="Figures">
        <Figure label="Net profit" value={money('net_profit')} tone={f.net_profit} testId="net-profit" />
        <Figure label="Net profit %" value={percent('net_profit_percentage')} tone={f.net_profit_percentage} />
        <Figure label="Buy and hold %" value={percent('buy_and_hold_return_percentage')} tone={f.buy_and_hold_return_percentage} />
        <Figure label="Annualised %" value={percent('annualised_return_percentage')} tone={f.annualised_return_percentage} />
        <Figure label="Max drawdown %" value={percent('max_drawdown_percentage')} />
        <Figure label="Drawdown days" value={formatAmount(Number(f.max_drawdown_duration_seconds) / 86_400, 1)} />
        <Figure label="Sharpe" value={ratio('sharpe')} />
        <Figure label="Sortino" value={ratio('sortino')} />
        <Figure label="Calmar" value={ratio('calmar')} />
        <Figure label="Win rate" value={percent('win_rate_percentage')} />
        <Figure label="Profit factor" value={ratio('profit_factor')} />
        <Figure label="Fees paid" value={money('fees_paid')} />
        <Figure label={String(count[0])} value={String(count[1])} />
        <Figure label="Exposure" value={percent('exposure_percentage')} />
        {backtest.kind === 'dca' && <Figure label="Most safety orders" value={String(f.max_safety_orders_used ?? '–')} />}
      </dl>
      <section class="panel" aria-label="Backtest chart">
        <header class="panel-header">
          <h2>{pairLabel(backtest.pair)} with every fill</h2>
        </header>
        <PriceChart candles={candles} lines={lines} fills={fills} priceStep={SHIPPED_PRICE_STEP} label={`${backtest.pair} backtest chart`} />
        <p class="legend">▲ buys · ▼ sells · dashed: orders still open at the end</p>
      </section>
      <section class="panel" aria-label="Equity">
        <header class="panel-header">
          <h2>Account value ({quote})</h2>
        </header>
        <CurveChart points={equity} color={COLORS.accent} label="Equity curve" precision={2} />
      </section>
      <section class="panel" aria-label="Drawdown">
        <header class="panel-header">
          <h2>Drawdown (%)</h2>
        </header>
        <CurveChart points={drawdown} color={COLORS.down} label="Drawdown curve" precision={2} />
      </section>
      <section class="panel" aria-label="Fills">
        <header class="panel-header">
          <h2>
            Fills{result.fills.length > FILLS_SHOWN && ` (the latest ${FILLS_SHOWN} of ${result.fills.length})`}
          </h2>
        </header>
        <Table
          empty="No fills."
          head={['Time', 'Order', 'Side', 'Price', 'Amount', 'Fee']}
          rows={latestFirst(result.fills)
            .slice(0, FILLS_SHOWN)
            .map((fill) => [
              formatTime(fill.at),
              fill.role.replace('_', ' '),
              <span class={fill.side === 'buy' ? 'up' : 'down'}>{fill.side}</span>,
              fill.price,
              fill.amount,
              `${formatAmount(fill.fee)} ${fill.fee_currency}`,
            ])}
        />
      </section>
    </>
  );
}

/** Fills are listed by order; the table shows them by time, the latest first. */
function latestFirst(fills: BacktestFill[]): BacktestFill[] {
  return [...fills].sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
}

function points(series: Array<[number, string]>): SeriesPoint[] {
  return series.map(([at, value]) => ({ time: Math.floor(at / 1000), value: Number(value) }));
}
