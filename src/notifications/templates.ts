/** Each notification in plain words, with the figures a person wants first. */
import type {
  BotDisabledPayload,
  ConnectionPayload,
  DailySummaryPayload,
  DealPayload,
  GridCyclesPayload,
  OutboxNotification,
  SmartTradeClosedPayload,
  SmartTradeStopPayload,
} from './notification-events.ts';

const STATUS_WORDS: Record<string, string> = {
  completed: 'took profit',
  panic_sold: 'was closed at market price',
  stop_loss_finished: 'was closed by Stop Loss',
  cancelled: 'was cancelled',
  failed: 'failed',
};

const sums = (rows: Array<{ currency: string; profit: string }>) =>
  rows.length === 0 ? 'no profit' : rows.map((row) => `${row.profit} ${row.currency}`).join(', ');

function dealText(event: string, deal: DealPayload): string {
  const bot = `Bot "${deal.bot_name}", ${deal.pair} deal #${deal.deal_id}`;
  const average = deal.average_price === null ? '' : ` (average price ${deal.average_price} ${deal.quote})`;
  switch (event) {
    case 'deal_opened':
      return `${bot} opened: bought ${deal.entry_amount} ${deal.base} for ${deal.entry_volume} ${deal.quote}${average}.`;
    case 'safety_order_filled':
      return `${bot}: safety order ${deal.completed_safety_orders} of ${deal.max_safety_orders} filled; the deal now holds ${deal.entry_amount} ${deal.base} for ${deal.entry_volume} ${deal.quote}${average}.`;
    case 'stop_loss_triggered':
      return `${bot}: Stop Loss triggered; the deal was closed with a profit of ${deal.final_profit ?? '0'} ${deal.profit_currency}.`;
    default: {
      const usd = deal.usd_final_profit === null ? '' : ` (${deal.usd_final_profit} USD)`;
      return `${bot} ${STATUS_WORDS[deal.status] ?? 'closed'}: profit ${deal.final_profit ?? '0'} ${deal.profit_currency}${usd}.`;
    }
  }
}

const TRADE_ENDINGS: Record<string, string> = {
  finished: 'finished',
  stop_loss_finished: 'was closed by Stop Loss',
  panic_sold: 'was closed at market price',
  cancelled: 'was cancelled',
  failed: 'failed',
};

const tradeName = (trade: SmartTradeStopPayload | SmartTradeClosedPayload) =>
  `SmartTrade #${trade.smart_trade_id}, ${trade.pair} (${trade.side === 'buy' ? 'long' : 'short'})`;

function smartTradeClosedText(trade: SmartTradeClosedPayload): string {
  const ended = `${tradeName(trade)} ${TRADE_ENDINGS[trade.status] ?? 'ended'}`;
  const error = trade.error === null ? '' : ` (${trade.error})`;
  if (trade.profit === null) return `${ended}${error}; nothing was traded.`;
  return `${ended}${error}: profit ${trade.profit} ${trade.profit_currency} (${trade.profit_percentage}%).`;
}

const utc = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;

function duration(fromIso: string, toIso: string): string {
  const seconds = Math.max(0, Math.round((Date.parse(toIso) - Date.parse(fromIso)) / 1000));
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}

function connectionText(event: string, connection: ConnectionPayload): string {
  const account = `Exchange account "${connection.account_name}" (${connection.exchange})`;
  if (event === 'exchange_connection_lost') {
    return `${account} cannot be reached since ${utc(connection.since)} (${connection.failed_requests} requests failed in a row): ${connection.error}. Its bots' orders wait until it is back.`;
  }
  return `${account} is reachable again, after ${duration(connection.since, connection.at)} without a connection (since ${utc(connection.since)}).`;
}

export function renderText(notification: OutboxNotification): string {
  const payload = notification.payload;
  switch (notification.event) {
    case 'stop_loss_triggered':
      if ('smart_trade_id' in payload) {
        const trade = payload as unknown as SmartTradeStopPayload;
        return `${tradeName(trade)}: Stop Loss triggered at ${trade.trigger_price} ${trade.quote}; the position is being closed.`;
      }
      return dealText(notification.event, payload as unknown as DealPayload);
    case 'deal_opened':
    case 'safety_order_filled':
    case 'deal_closed':
      return dealText(notification.event, payload as unknown as DealPayload);
    case 'smart_trade_closed':
      return smartTradeClosedText(payload as unknown as SmartTradeClosedPayload);
    case 'grid_cycles_completed': {
      const grid = payload as unknown as GridCyclesPayload;
      const cycles = grid.cycles === 1 ? '1 cycle' : `${grid.cycles} cycles`;
      const usd = grid.usd_profit === null ? '' : ` (${grid.usd_profit} USD)`;
      return `Grid bot "${grid.bot_name}" on ${grid.pair} completed ${cycles} in the minute from ${grid.minute.slice(11, 16)} UTC: profit ${grid.profit} ${grid.quote}${usd}.`;
    }
    case 'bot_disabled': {
      const bot = payload as unknown as BotDisabledPayload;
      return `Bot #${bot.bot_id} was stopped by an error: ${bot.reason}`;
    }
    case 'exchange_connection_lost':
    case 'exchange_connection_recovered':
      return connectionText(notification.event, payload as unknown as ConnectionPayload);
    case 'daily_summary': {
      const day = payload as unknown as DailySummaryPayload;
      return `Summary of ${day.day} (UTC): ${day.deals_closed} deals closed, ${sums(day.deal_profits)}; ${day.grid_cycles} grid cycles, ${sums(day.grid_profits)}.`;
    }
    case 'test':
      return 'Tradeloop test notification: this target works.';
  }
}
