/**
 * The events a user can be notified of, and what the outbox keeps of each. Payload amounts are
 * decimal strings, as everywhere on the wire.
 */

export const NOTIFICATION_EVENTS = [
  'deal_opened',
  'safety_order_filled',
  'deal_closed',
  'stop_loss_triggered',
  'smart_trade_closed',
  'grid_cycles_completed',
  'bot_disabled',
  'exchange_connection_lost',
  'exchange_connection_recovered',
  'daily_summary',
  'test',
] as const;

export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

/** Events a target may filter on; `test` is only ever sent on request. */
export const FILTERABLE_EVENTS = NOTIFICATION_EVENTS.filter((event) => event !== 'test');

export interface DealPayload {
  bot_id: number;
  bot_name: string;
  deal_id: number;
  pair: string;
  base: string;
  quote: string;
  /** Base bought (or sold, for a short) by the deal's entries so far. */
  entry_amount: string;
  /** Quote the entries cost. */
  entry_volume: string;
  /** Average entry price, quote per base; null before any entry filled. */
  average_price: string | null;
  completed_safety_orders: number;
  max_safety_orders: number;
  status: string;
  final_profit: string | null;
  profit_currency: string;
  usd_final_profit: string | null;
}

interface SmartTradeFacts {
  smart_trade_id: number;
  pair: string;
  base: string;
  quote: string;
  /** buy: a long position; sell: a short one. */
  side: 'buy' | 'sell';
}

/** A SmartTrade's stop loss triggered (`stop_loss_triggered`); its closing order goes out. */
export interface SmartTradeStopPayload extends SmartTradeFacts {
  trigger_price: string;
}

export interface SmartTradeClosedPayload extends SmartTradeFacts {
  status: string;
  /** Realised, in the quote currency; null when nothing was bought (or sold, for a short). */
  profit: string | null;
  profit_percentage: string | null;
  profit_currency: string;
  error: string | null;
}

export interface GridCyclesPayload {
  bot_id: number;
  bot_name: string;
  pair: string;
  quote: string;
  /** The minute the cycles completed in (its start, UTC). */
  minute: string;
  cycles: number;
  profit: string;
  usd_profit: string | null;
}

export interface BotDisabledPayload {
  bot_id: number;
  kind: string;
  reason: string;
}

/** An exchange account became unreachable (`exchange_connection_lost`) or reachable again. */
export interface ConnectionPayload {
  account_id: number;
  account_name: string;
  /** The exchange's name (`Binance`) and market code (`binance`). */
  exchange: string;
  market_code: string;
  /** When its requests started failing. */
  since: string;
  /** When the change was noticed: the third failure in a row, or the first answer again. */
  at: string;
  /** The last failure, as the exchange adapter words it. */
  error: string;
  failed_requests: number;
}

export interface DailySummaryPayload {
  /** The UTC day summed up, YYYY-MM-DD. */
  day: string;
  deals_closed: number;
  deal_profits: Array<{ currency: string; profit: string }>;
  grid_cycles: number;
  grid_profits: Array<{ currency: string; profit: string }>;
}

/** One notification as the worker hands it to a target. */
export interface OutboxNotification {
  id: number;
  event: NotificationEvent;
  createdAt: Date;
  payload: Record<string, unknown>;
}
