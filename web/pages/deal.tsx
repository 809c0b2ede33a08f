/** A DCA deal on the chart: base order, safety orders placed and filled, average price, take profit, stop loss. */
import { useMemo, useRef, useState } from 'preact/hooks';
import type { Deal, MarketOrder } from '../api/types.ts';
import { useApp } from '../app-context.ts';
import { COLORS } from '../components/chart-theme.ts';
import { Figure, Table } from '../components/panel.tsx';
import { type ChartLine, PriceChart } from '../components/price-chart.tsx';
import { ErrorNote, Freshness, IntervalSelect, PendingPage } from '../components/status.tsx';
import { CandleCache, currencyRates, marketCodeOf, NO_REAL_CANDLES, PAPER } from '../lib/candles.ts';
import { formatAmount, formatStep, formatTime, pairLabel } from '../lib/format.ts';
import { filledOrders, toFill } from '../lib/orders.ts';
import { useAction } from '../lib/use-action.ts';
import { usePoll } from '../lib/use-poll.ts';

export function DealPage({ id }: { id: number }) {
  const { client } = useApp();
  const [candleInterval, setCandleInterval] = useState('1m');
  const candles = useRef(new CandleCache());
  const polled = usePoll(async (signal) => {
    const deal = await client.get<Deal>(`/ver1/deals/${id}/show`, { signal });
    const marketCode = await marketCodeOf(client, deal.account_id);
    const [orders, rates, candleList] = await Promise.all([
      client.get<MarketOrder[]>(`/ver1/deals/${id}/market_orders`, { signal }),
      currencyRates(marketCode, deal.pair, signal),
      candles.current.load(marketCode, deal.pair, candleInterval, signal),
    ]);
    return { deal, marketCode, orders, rates, candles: candleList };
  }, [id, candleInterval]);
  const data = polled.data;
  const fills = useMemo(() => (data ? filledOrders(data.orders).map(toFill) : []), [data?.orders]);
  const lines = useMemo(() => (data ? dealLines(data.deal, data.orders) : []), [data?.deal, data?.orders]);
  const action = useAction(() => void polled.reload());

  if (!data) return <PendingPage title={`Deal #${id}`} polled={polled} />;
  const { deal, rates } = data;
  const price = (value: string | null) => formatStep(value, rates?.priceStep);
  const quote = deal.from_currency;
  return (
    <section class="page">
      <header class="page-header">
        <div>
          <h1>
            Deal #{deal.id} <span class={`badge ${deal['finished?'] ? 'off' : 'on'}`}>{deal.localized_status}</span>
          </h1>
          <p class="muted">
            {pairLabel(deal.pair)} · <a href={`#/dca-bots/${deal.bot_id}`}>{deal.bot_name}</a> · opened {formatTime(deal.created_at)}
            {deal.closed_at && ` · closed ${formatTime(deal.closed_at)}`}
          </p>
        </div>
        <Freshness polled={polled} />
      </header>
      <div class="actions">
        <button
          type="button"
          disabled={action.busy || !deal['panic_sellable?']}
          onClick={() => confirm('Close this deal at market?') && action.run(() => client.post(`/ver1/deals/${id}/panic_sell`))}
        >
          Close at market
        </button>
        <button
          type="button"
          class="danger"
          disabled={action.busy || !deal['cancellable?']}
          onClick={() => confirm('Cancel this deal? Bought coins stay on the account.') && action.run(() => client.post(`/ver1/deals/${id}/cancel`))}
        >
          Cancel deal
        </button>
        <ErrorNote error={action.error} />
      </div>
      <dl class="figures">
        <Figure label="Price" value={`${price(deal.current_price)} ${quote}`} />
        <Figure label="Average price" value={`${price(deal.bought_average_price)} ${quote}`} />
        <Figure label="Take profit" value={deal.take_profit_price ? `${price(deal.take_profit_price)} ${quote}` : '–'} />
        <Figure label="Stop loss" value={deal.stop_loss_price ? `${price(deal.stop_loss_price)} ${quote}` : '–'} />
        <Figure label="Safety orders filled" value={`${deal.completed_safety_orders_count} of ${deal.max_safety_orders}`} />
        <Figure
          label={deal['finished?'] ? 'Profit USD' : 'Current profit USD'}
          value={formatAmount(deal['finished?'] ? deal.usd_final_profit : deal.actual_usd_profit, 2)}
          tone={deal['finished?'] ? deal.usd_final_profit : deal.actual_usd_profit}
        />
      </dl>
      <section class="panel" aria-label="Deal chart">
        <header class="panel-header">
          <h2>{pairLabel(deal.pair)} with the deal's orders</h2>
          <IntervalSelect value={candleInterval} onChange={setCandleInterval} />
        </header>
        <PriceChart candles={data.candles} lines={lines} fills={fills} priceStep={rates?.priceStep} label={`${deal.pair} deal chart`} viewKey={candleInterval} />
        {data.marketCode !== PAPER && <p class="muted">{NO_REAL_CANDLES}</p>}
        <p class="legend">base and average prices in blue · take profit green · stop loss red · dashed safety orders are placed, ▲▼ fills</p>
      </section>
      <section class="panel" aria-label="Orders">
        <header class="panel-header">
          <h2>Orders</h2>
        </header>
        <Table
          empty="No orders yet."
          head={['Order', 'Side', 'Price', 'Amount', 'Status', 'Updated']}
          rows={data.orders.map((order) => [
            order.deal_order_type ?? '',
            <span class={order.order_type === 'BUY' ? 'up' : 'down'}>{order.order_type}</span>,
            price(order.status_string === 'Filled' ? order.average_price : order.rate),
            order.quantity,
            order.status_string,
            formatTime(order.updated_at),
          ])}
        />
      </section>
    </section>
  );
}

function dealLines(deal: Deal, orders: MarketOrder[]): ChartLine[] {
  const lines: ChartLine[] = [];
  if (Number(deal.base_order_average_price) > 0) lines.push({ price: deal.base_order_average_price, color: COLORS.accent, title: 'base', dashed: true });
  if (Number(deal.bought_average_price) > 0) lines.push({ price: deal.bought_average_price, color: COLORS.accent, title: 'average' });
  if (deal.take_profit_price) lines.push({ price: deal.take_profit_price, color: COLORS.up, title: 'take profit' });
  if (deal.stop_loss_price) lines.push({ price: deal.stop_loss_price, color: COLORS.down, title: 'stop loss' });
  for (const order of orders) {
    if (order.status_string === 'Active' && order.deal_order_type?.includes('Safety')) {
      lines.push({ price: order.rate, color: COLORS.muted, title: 'safety', dashed: true });
    }
  }
  return lines;
}
