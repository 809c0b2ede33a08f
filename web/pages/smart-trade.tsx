/** A SmartTrade on the chart: entry, take-profit steps, stop loss (with trailing); and its actions. */
import { useMemo, useRef, useState } from 'preact/hooks';
import type { FieldErrors } from '../api/errors.ts';
import type { SmartTrade, SmartTradePart } from '../api/types.ts';
import { useApp } from '../app-context.ts';
import { COLORS } from '../components/chart-theme.ts';
import { Field } from '../components/form-field.tsx';
import { Figure, Table } from '../components/panel.tsx';
import { type ChartFill, type ChartLine, PriceChart } from '../components/price-chart.tsx';
import { ErrorNote, Freshness, IntervalSelect, PendingPage } from '../components/status.tsx';
import { CandleCache, currencyRates, NO_REAL_CANDLES, PAPER } from '../lib/candles.ts';
import { formatAmount, formatStep, formatTime, pairLabel, pairParts } from '../lib/format.ts';
import { useAction } from '../lib/use-action.ts';
import { usePoll } from '../lib/use-poll.ts';

export function SmartTradePage({ id }: { id: number }) {
  const { client } = useApp();
  const [candleInterval, setCandleInterval] = useState('1m');
  const candles = useRef(new CandleCache());
  const polled = usePoll(
    async (signal) => {
      const trade = await client.get<SmartTrade>(`/v2/smart_trades/${id}`, { signal });
      const [parts, rates, candleList] = await Promise.all([
        client.get<SmartTradePart[]>(`/v2/smart_trades/${id}/trades`, { signal }),
        currencyRates(trade.account.type, trade.pair, signal),
        candles.current.load(trade.account.type, trade.pair, candleInterval, signal),
      ]);
      return { trade, parts, rates, candles: candleList };
    },
    [id, candleInterval],
  );
  const data = polled.data;
  const lines = useMemo(() => (data ? tradeLines(data.trade) : []), [data?.trade]);
  const fills = useMemo<ChartFill[]>(
    () =>
      (data?.parts ?? [])
        .filter((part) => Number(part.realised_amount) > 0)
        .map((part) => ({ time: Math.floor(Date.parse(part.updated_at) / 1000), side: part.order_side })),
    [data?.parts],
  );

  if (!data) return <PendingPage title={`SmartTrade #${id}`} polled={polled} />;
  const { trade, rates } = data;
  const { quote } = pairParts(trade.pair);
  const price = (value: string | null | undefined) => formatStep(value, rates?.priceStep);
  return (
    <section class="page">
      <header class="page-header">
        <div>
          <h1>
            SmartTrade #{trade.id} <span class={`badge ${trade.data.finished ? 'off' : 'on'}`}>{trade.status.title}</span>
          </h1>
          <p class="muted">
            {trade.position.type === 'buy' ? 'Long' : 'Short'} {pairLabel(trade.pair)} · {trade.account.name} · created {formatTime(trade.data.created_at)}
            {trade.data.closed_at && ` · closed ${formatTime(trade.data.closed_at)}`}
          </p>
        </div>
        <Freshness polled={polled} />
      </header>
      <SmartTradeActions trade={trade} onDone={() => void polled.reload()} />
      <dl class="figures">
        <Figure label="Price" value={`${price(trade.data.current_price.last)} ${quote}`} />
        <Figure label="Entry" value={`${price(trade.data.average_enter_price ?? trade.position.price.value)} ${quote}`} />
        <Figure label="Units" value={`${trade.data.entered_amount} of ${trade.position.units.value}`} />
        <Figure label="Profit" value={`${formatAmount(trade.profit?.volume)} ${quote}`} tone={trade.profit?.volume} />
        <Figure label="Profit %" value={formatAmount(trade.profit?.percent, 2)} tone={trade.profit?.percent} />
      </dl>
      <section class="panel" aria-label="SmartTrade chart">
        <header class="panel-header">
          <h2>{pairLabel(trade.pair)} with entry and targets</h2>
          <IntervalSelect value={candleInterval} onChange={setCandleInterval} />
        </header>
        <PriceChart candles={data.candles} lines={lines} fills={fills} priceStep={rates?.priceStep} label={`${trade.pair} SmartTrade chart`} viewKey={candleInterval} />
        {trade.account.type !== PAPER && <p class="muted">{NO_REAL_CANDLES}</p>}
        <p class="legend">entry in blue · take-profit steps green · stop loss red (dashed while trailing) · ▲▼ fills</p>
      </section>
      <section class="panel" aria-label="Parts">
        <header class="panel-header">
          <h2>Entry, targets and stop loss</h2>
        </header>
        <Table
          empty="No parts."
          head={['Part', 'Side', 'Status', 'Filled', 'Price', 'Updated']}
          rows={data.parts.map((part) => [
            part.trade_purpose.replace('_', ' '),
            <span class={part.order_side === 'buy' ? 'up' : 'down'}>{part.order_side}</span>,
            part.status.replace('_', ' '),
            part.realised_amount,
            price(part.realised_price),
            formatTime(part.updated_at),
          ])}
        />
      </section>
    </section>
  );
}

function SmartTradeActions({ trade, onDone }: { trade: SmartTrade; onDone(): void }) {
  const { client } = useApp();
  const action = useAction(onDone);
  const [units, setUnits] = useState('');
  const [note, setNote] = useState(trade.note ?? '');
  const base = `/v2/smart_trades/${trade.id}`;
  const fields: FieldErrors | undefined = action.error?.fields;
  const funds = (kind: 'add_funds' | 'reduce_funds') =>
    action.run(() => client.post(`${base}/${kind}`, { order_type: 'market', units: { value: units } }));
  return (
    <section class="panel" aria-label="Actions">
      <div class="actions">
        <button
          type="button"
          disabled={action.busy || !trade.data.panic_sell_available}
          onClick={() => confirm('Close this trade at market?') && action.run(() => client.post(`${base}/close_by_market`))}
        >
          Close at market
        </button>
        <button
          type="button"
          class="danger"
          disabled={action.busy || !trade.data.cancel_available}
          onClick={() => confirm('Cancel this trade? Its open orders are cancelled.') && action.run(() => client.delete(base))}
        >
          Cancel
        </button>
      </div>
      <div class="field-row inline-form">
        <Field label={`Units (${pairParts(trade.pair).base})`} name="units[value]" errors={fields}>
          <input id="units[value]" value={units} inputMode="decimal" onInput={(event) => setUnits(event.currentTarget.value)} />
        </Field>
        <button type="button" class="button secondary" disabled={action.busy || !trade.data.add_funds_available} onClick={() => funds('add_funds')}>
          Add at market
        </button>
        <button type="button" class="button secondary" disabled={action.busy || !trade.data.reduce_funds_available} onClick={() => funds('reduce_funds')}>
          Reduce at market
        </button>
      </div>
      <div class="field-row inline-form">
        <Field label="Note" name="note" errors={fields}>
          <input id="note" value={note} maxLength={300} onInput={(event) => setNote(event.currentTarget.value)} />
        </Field>
        <button type="button" class="button secondary" disabled={action.busy} onClick={() => action.run(() => client.post(`${base}/set_note`, { note }))}>
          Save note
        </button>
      </div>
      {action.error && Object.keys(action.error.fields).length === 0 && <ErrorNote error={action.error} />}
    </section>
  );
}

function tradeLines(trade: SmartTrade): ChartLine[] {
  const lines: ChartLine[] = [];
  const entry = trade.data.average_enter_price ?? trade.position.price.value;
  if (entry) lines.push({ price: entry, color: COLORS.accent, title: 'entry' });
  trade.take_profit.steps.forEach((step, index) => {
    if (step.price.value) lines.push({ price: step.price.value, color: COLORS.up, title: `TP${index + 1} ${step.volume} %`, dashed: step.status.type === 'finished' });
  });
  const stop = trade.stop_loss.conditional;
  if (trade.stop_loss.enabled && stop?.price.value) {
    const trailing = stop.trailing.enabled ? ` trailing ${stop.trailing.percent} %` : '';
    lines.push({ price: stop.price.value, color: COLORS.down, title: `stop loss${trailing}`, dashed: stop.trailing.enabled });
  }
  return lines;
}
