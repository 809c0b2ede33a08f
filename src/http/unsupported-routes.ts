/**
 * Reference endpoints this server does not serve, with the reason docs/api-compatibility.md gives.
 * A request for one answers 501 and says so, where any other unknown path is a plain 404: a
 * client then learns that its call is right and the server lacks it, not that it has a typo.
 */

const NO_SHAPE = 'not planned: the reference documents no response for it, and an invented one would mislead clients';
const DEPOSITS = 'not planned: deposits and withdrawals happen on the exchange itself, and paper accounts have no addresses or networks';
const REMOVED_AI = 'not planned: removed from the reference on 2023-12-29';
const TRANSFER = 'not planned: moving funds between accounts works differently on each exchange';
const LOOSE = 'not planned: loose accounts (balances tracked without an exchange connection)';
const MARKETPLACE = 'not planned: the marketplace holds 3Commas-hosted presets and signals';

/** `METHOD path` relative to /public/api; `:name` matches one segment, a trailing `*` any rest. */
export const UNSUPPORTED_ROUTES: Record<string, string> = {
  'POST /ver1/grid_bots/ai': REMOVED_AI,
  'GET /ver1/grid_bots/ai_settings': REMOVED_AI,
  'PATCH /ver1/grid_bots/:id/ai': REMOVED_AI,
  'GET /ver1/accounts/summary': NO_SHAPE,
  'GET /ver1/accounts/:id/networks_info': DEPOSITS,
  'GET /ver1/accounts/:id/deposit_data': DEPOSITS,
  'POST /ver1/accounts/:id/convert_dust_to_bnb': 'not planned: a Binance-only call',
  'POST /ver1/accounts/transfer': TRANSFER,
  'GET /ver1/accounts/transfer_history': TRANSFER,
  'GET /ver1/accounts/transfer_data': TRANSFER,
  'POST /ver1/loose_accounts': LOOSE,
  'GET /ver1/loose_accounts/available_currencies': LOOSE,
  'PUT /ver1/loose_accounts/:account_id': LOOSE,
  'GET /ver1/bots/account_trade_info': NO_SHAPE,
  'GET /ver1/bots/account_trade_info_smart_sell': NO_SHAPE,
  'GET /ver1/marketplace/presets': MARKETPLACE,
  'GET /ver1/marketplace/items': MARKETPLACE,
  'GET /ver1/marketplace/:item_id/signals': MARKETPLACE,
  '* /ver1/smart_trades*': 'not planned: SmartTrades v1 left the reference in 2021; use /v2/smart_trades',
};

const MATCHERS = Object.entries(UNSUPPORTED_ROUTES).map(([route, reason]) => {
  const [method, path] = route.split(' ') as [string, string];
  const pattern = path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/\*$/, '(?:/.*)?').replace(/[.]/g, '\\.')))
    .join('/');
  return { method, regex: new RegExp(`^${pattern}/?$`), reason };
});

/** The reason a reference endpoint is not served, for a method and a path relative to /public/api. */
export function unsupportedReason(method: string, path: string): string | undefined {
  return MATCHERS.find((matcher) => (matcher.method === '*' || matcher.method === method) && matcher.regex.test(path))?.reason;
}
