/** Orders as the charts and tables show them. */
import type { MarketOrder } from '../api/types.ts';
import type { ChartFill } from '../components/price-chart.tsx';

export const filledOrders = (orders: MarketOrder[]) => orders.filter((order) => order.status_string === 'Filled');

/** A fill's time is when its order last changed: when it filled. */
export const toFill = (order: MarketOrder): ChartFill => ({
  time: Math.floor(Date.parse(order.updated_at) / 1000),
  side: order.order_type === 'BUY' ? 'buy' : 'sell',
});
