/**
 * Who may call what: every route under /public/api, with the permission its key needs and whether
 * the request must be signed. Routes look themselves up here when they are registered, and a route
 * missing from this table fails at startup, so this file is the complete list.
 */
import type { Permission } from '../auth/permissions.ts';

export interface RouteAccess {
  signed: boolean;
  permission: Permission;
}

const open: RouteAccess = { signed: false, permission: 'NONE' };
const signed = (permission: Permission): RouteAccess => ({ signed: true, permission });

export const ACCESS_TABLE = {
  'GET /openapi.json': open,
  'GET /ver1/ping': open,
  'GET /ver1/time': open,
  'GET /ver1/validate': signed('NONE'),

  'POST /ver1/users/change_mode': signed('ACCOUNTS_WRITE'),
  'GET /ver1/users/current_mode': signed('ACCOUNTS_READ'),
  'GET /ver1/users/permissions_info': signed('NONE'),
  'PUT /ver1/users/locale': signed('NONE'),

  'GET /ver1/accounts/market_list': open,
  'GET /ver1/accounts/market_pairs': open,
  'GET /v2/accounts/market_pairs': open,
  'GET /ver1/accounts/currency_rates': open,
  'GET /ver1/accounts/currency_rates_with_leverage_data': open,
  'POST /ver1/accounts/new': signed('ACCOUNTS_WRITE'),
  'GET /ver1/accounts': signed('ACCOUNTS_READ'),
  'GET /ver1/accounts/:account_id': signed('ACCOUNTS_READ'),
  'POST /ver1/accounts/update': signed('ACCOUNTS_WRITE'),
  'POST /ver1/accounts/:account_id/rename': signed('ACCOUNTS_WRITE'),
  'POST /ver1/accounts/:account_id/remove': signed('ACCOUNTS_WRITE'),
  'POST /ver1/accounts/:account_id/load_balances': signed('ACCOUNTS_READ'),
  'POST /ver1/accounts/:account_id/account_table_data': signed('ACCOUNTS_READ'),
  'POST /ver1/accounts/:account_id/pie_chart_data': signed('ACCOUNTS_READ'),
  'GET /ver1/accounts/:account_id/active_trading_entities': signed('ACCOUNTS_READ'),
  'GET /ver1/accounts/:account_id/balance_chart_data': signed('ACCOUNTS_READ'),
  'GET /ver1/accounts/types_to_connect': signed('NONE'),
  'POST /ver1/accounts/types_to_connect': signed('NONE'),
  'GET /ver1/accounts/:account_id/leverage_data': signed('ACCOUNTS_READ'),
  'POST /ver1/accounts/:account_id/leverage_data': signed('ACCOUNTS_READ'),
  'POST /ver1/accounts/:account_id/sell_all_to_btc': signed('ACCOUNTS_WRITE'),
  'POST /ver1/accounts/:account_id/sell_all_to_usd': signed('ACCOUNTS_WRITE'),
  'GET /ver1/accounts/:account_id/volume/daily': signed('ACCOUNTS_READ'),
  'GET /ver1/accounts/:account_id/volume/monthly': signed('ACCOUNTS_READ'),
  'GET /ver1/accounts/:account_id/volume/total': signed('ACCOUNTS_READ'),

  'POST /ver1/grid_bots/manual': signed('BOTS_WRITE'),
  'GET /ver1/grid_bots': signed('BOTS_READ'),
  'GET /ver1/grid_bots/:id': signed('BOTS_READ'),
  'PATCH /ver1/grid_bots/:id/manual': signed('BOTS_WRITE'),
  'POST /ver1/grid_bots/:id/enable': signed('BOTS_WRITE'),
  'POST /ver1/grid_bots/:id/disable': signed('BOTS_WRITE'),
  'POST /ver1/grid_bots/:id/note': signed('BOTS_WRITE'),
  'DELETE /ver1/grid_bots/:id': signed('BOTS_WRITE'),
  'GET /ver1/grid_bots/:id/required_balances': signed('BOTS_READ'),
  'GET /ver1/grid_bots/:id/events': signed('BOTS_READ'),
  'GET /ver1/grid_bots/:id/market_orders': signed('BOTS_READ'),
  'GET /ver1/grid_bots/:id/profits': signed('BOTS_READ'),

  'GET /ver1/bots/strategy_list': signed('BOTS_READ'),
  'GET /ver1/bots/pairs_black_list': signed('BOTS_READ'),
  'POST /ver1/bots/update_pairs_black_list': signed('BOTS_WRITE'),
  'POST /ver1/bots/create_bot': signed('BOTS_WRITE'),
  'GET /ver1/bots': signed('BOTS_READ'),
  'GET /ver1/bots/stats': signed('BOTS_READ'),
  'GET /ver1/bots/stats_by_date': signed('BOTS_READ'),
  'GET /ver1/bots/:bot_id/profit_by_day': signed('BOTS_READ'),
  'GET /ver1/bots/:bot_id/deals_stats': signed('BOTS_READ'),
  'POST /ver1/bots/:bot_id/copy_and_create': signed('BOTS_WRITE'),
  'PATCH /ver1/bots/:bot_id/update': signed('BOTS_WRITE'),
  'POST /ver1/bots/:bot_id/disable': signed('BOTS_WRITE'),
  'POST /ver1/bots/:bot_id/enable': signed('BOTS_WRITE'),
  'POST /ver1/bots/:bot_id/start_new_deal': signed('BOTS_WRITE'),
  'POST /ver1/bots/:bot_id/delete': signed('BOTS_WRITE'),
  'POST /ver1/bots/:bot_id/panic_sell_all_deals': signed('BOTS_WRITE'),
  'POST /ver1/bots/:bot_id/cancel_all_deals': signed('BOTS_WRITE'),
  'GET /ver1/bots/:bot_id/show': signed('BOTS_READ'),
  // The body's email_token is the credential (docs/signals.md); TradingView cannot sign.
  'POST /trade_signal/trading_view': open,

  'GET /ver1/deals': signed('BOTS_READ'),
  'GET /ver1/deals/:deal_id/show': signed('BOTS_READ'),
  'PATCH /ver1/deals/:deal_id/update_deal': signed('BOTS_WRITE'),
  'POST /ver1/deals/:deal_id/update_tp': signed('BOTS_WRITE'),
  'POST /ver1/deals/:deal_id/panic_sell': signed('BOTS_WRITE'),
  'POST /ver1/deals/:deal_id/convert_to_smart_trade': signed('SMART_TRADES_WRITE'),
  'POST /ver1/deals/:deal_id/panic_sell_step': signed('BOTS_WRITE'),
  'POST /ver1/deals/:deal_id/cancel': signed('BOTS_WRITE'),
  'GET /ver1/deals/:deal_id/market_orders': signed('BOTS_READ'),
  'GET /ver1/deals/:deal_id/data_for_adding_funds': signed('BOTS_READ'),
  'POST /ver1/deals/:deal_id/add_funds': signed('BOTS_WRITE'),
  'POST /ver1/deals/:deal_id/update_max_safety_orders': signed('BOTS_WRITE'),
  'POST /ver1/deals/:deal_id/cancel_order': signed('BOTS_WRITE'),

  'POST /v2/smart_trades': signed('SMART_TRADES_WRITE'),
  'GET /v2/smart_trades': signed('SMART_TRADES_READ'),
  'GET /v2/smart_trades/:id': signed('SMART_TRADES_READ'),
  'PATCH /v2/smart_trades/:id': signed('SMART_TRADES_WRITE'),
  'DELETE /v2/smart_trades/:id': signed('SMART_TRADES_WRITE'),
  'POST /v2/smart_trades/:id/close_by_market': signed('SMART_TRADES_WRITE'),
  'POST /v2/smart_trades/:id/add_funds': signed('SMART_TRADES_WRITE'),
  // The reference asks for the write permission on this read.
  'GET /v2/smart_trades/:id/reduce_funds_info': signed('SMART_TRADES_WRITE'),
  'POST /v2/smart_trades/:id/reduce_funds': signed('SMART_TRADES_WRITE'),
  'POST /v2/smart_trades/:id/set_note': signed('SMART_TRADES_WRITE'),
  'POST /v2/smart_trades/:id/force_start': signed('SMART_TRADES_WRITE'),
  'POST /v2/smart_trades/:id/force_process': signed('SMART_TRADES_WRITE'),
  'GET /v2/smart_trades/:id/trades': signed('SMART_TRADES_READ'),
  'POST /v2/smart_trades/:id/trades/:trade_id/close_by_market': signed('SMART_TRADES_WRITE'),
  'DELETE /v2/smart_trades/:id/trades/:trade_id': signed('SMART_TRADES_WRITE'),

  'POST /ver1/trades': signed('SMART_TRADES_WRITE'),
  'GET /ver1/trades': signed('SMART_TRADES_READ'),
  'GET /ver1/trades/history': signed('SMART_TRADES_READ'),
  'GET /ver1/trades/:uuid': signed('SMART_TRADES_READ'),
  'POST /ver1/trades/:uuid/cancel': signed('SMART_TRADES_WRITE'),

  'POST /ext/users': signed('ADMIN'),
  'GET /ext/users': signed('ADMIN'),
  'POST /ext/api_keys': signed('ADMIN'),
  'GET /ext/api_keys': signed('ADMIN'),
  'DELETE /ext/api_keys/:id': signed('ADMIN'),
  'GET /ext/engines': signed('ADMIN'),
  'POST /ext/paper/ticks': signed('ADMIN'),
  'POST /ext/paper/fees': signed('ADMIN'),
  'POST /ext/backtests': signed('BOTS_WRITE'),
  'GET /ext/backtests': signed('BOTS_READ'),
  'GET /ext/backtests/:id': signed('BOTS_READ'),
  'GET /ext/backtests/:id/candles': signed('BOTS_READ'),
  'DELETE /ext/backtests/:id': signed('BOTS_WRITE'),
  'GET /ext/notifications': signed('BOTS_READ'),
  'POST /ext/notifications': signed('BOTS_WRITE'),
  'GET /ext/notifications/:id': signed('BOTS_READ'),
  'PATCH /ext/notifications/:id': signed('BOTS_WRITE'),
  'DELETE /ext/notifications/:id': signed('BOTS_WRITE'),
  'POST /ext/notifications/:id/test': signed('BOTS_WRITE'),
  'GET /ext/paper/candles': open,
} as const satisfies Record<string, RouteAccess>;

export type RouteKey = keyof typeof ACCESS_TABLE;

export function accessFor(method: string, url: string): RouteAccess | undefined {
  return (ACCESS_TABLE as Record<string, RouteAccess>)[`${method} ${url}`];
}
