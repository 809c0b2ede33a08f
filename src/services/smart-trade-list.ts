/**
 * The SmartTrade list's filters, order and pages, as the reference names them: status scopes
 * (`finished` counts every way a trade can complete, `successfully_finished` only its targets),
 * sorting by dates, status or profit, and `page`/`per_page`.
 */
import { smartTradeType } from '../domain/smart-trade/availability.ts';
import { figures, profit } from '../domain/smart-trade/ledger.ts';
import { parsePair } from '../domain/market/pair.ts';
import { ENDED } from '../domain/smart-trade/smart-trade.transitions.ts';
import type { SmartTradeState, TradeStatus } from '../domain/smart-trade/smart-trade.types.ts';
import type { Automation } from '../engine/automation-kind.ts';
import type { SmartTradeView } from './smart-trades.service.ts';

export interface SmartTradeListQuery {
  account_id?: number;
  pair?: string;
  type?: string;
  status?: string;
  page: number;
  per_page: number;
  order_by: 'created_at' | 'updated_at' | 'closed_at' | 'status' | 'profit' | 'profit_percentage';
  order_direction: 'asc' | 'desc';
  from?: Date;
  to?: Date;
  base?: string;
  quote?: string;
}

const FINISHED: ReadonlySet<TradeStatus> = new Set(['finished', 'stop_loss_finished', 'panic_sold']);
const ALL = () => true;
const STATUS_SCOPES = new Map<string, (status: TradeStatus) => boolean>([
  ['all', ALL],
  ['active', (status) => !ENDED.has(status)],
  ['finished', (status) => FINISHED.has(status)],
  ['successfully_finished', (status) => status === 'finished'],
  ['successfully_finish', (status) => status === 'finished'],
  ['cancelled', (status) => status === 'cancelled'],
  ['failed', (status) => status === 'failed'],
]);
const STATUS_ORDER: TradeStatus[] = [
  'created', 'waiting_position', 'waiting_targets', 'pending_reduce_funds', 'panic_sell_pending', 'cancellation_pending',
  'finished', 'stop_loss_finished', 'panic_sold', 'cancelled', 'failed',
];

export function matches({ accountId, createdAt, state }: Automation<SmartTradeState>, query: SmartTradeListQuery): boolean {
  const { config } = state;
  const scope = STATUS_SCOPES.get(query.status ?? 'all') ?? ALL;
  return (
    (query.account_id === undefined || accountId === query.account_id) &&
    (query.pair === undefined || config.pair === parsePair(query.pair)?.code) &&
    (query.type === undefined || smartTradeType(state) === query.type) &&
    (query.base === undefined || config.base === query.base.toUpperCase()) &&
    (query.quote === undefined || config.quote === query.quote.toUpperCase()) &&
    (query.from === undefined || createdAt >= query.from) &&
    (query.to === undefined || createdAt <= query.to) &&
    scope(state.status)
  );
}

/** Sorted (ties by id) and cut to the asked page. */
export function page(views: SmartTradeView[], query: SmartTradeListQuery): SmartTradeView[] {
  const key = sortKey(query.order_by);
  const direction = query.order_direction === 'asc' ? 1 : -1;
  views.sort((a, b) => direction * (compare(key(a), key(b)) || a.id - b.id));
  return views.slice((query.page - 1) * query.per_page, query.page * query.per_page);
}

type SortValue = number | string;

function sortKey(orderBy: SmartTradeListQuery['order_by']): (view: SmartTradeView) => SortValue {
  switch (orderBy) {
    case 'created_at':
      return (view) => view.createdAt.getTime();
    case 'updated_at':
      return (view) => view.updatedAt.getTime();
    case 'closed_at':
      return (view) => view.state.closedAt?.getTime() ?? Number.MAX_SAFE_INTEGER;
    case 'status':
      return (view) => STATUS_ORDER.indexOf(view.state.status);
    case 'profit':
    case 'profit_percentage': {
      const field = orderBy === 'profit' ? 'volume' : 'percent';
      return (view) => {
        const result = profit(view.state, figures(view.state), view.quote, !ENDED.has(view.state.status));
        return result ? result[field].toNumber() : 0;
      };
    }
  }
}

const compare = (a: SortValue, b: SortValue) => (a < b ? -1 : a > b ? 1 : 0);

