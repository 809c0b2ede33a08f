/** The parts of the API's responses the dashboard reads (docs/api-compatibility.md has them all). */
export interface Account {
  id: number;
  name: string;
  market_code: string;
  exchange_name: string;
  usd_amount: string;
  btc_amount: string;
  day_profit_usd: string;
  total_usd_profit: string;
}

export interface BalanceRow {
  currency_code: string;
  position: number;
  on_orders: number;
  usd_value: number;
  percentage: number;
}

export interface GridLine {
  id: number;
  price: string;
  side: 'buy' | 'sell' | null;
  order_placed: boolean;
}

export interface GridBot {
  id: number;
  account_id: number;
  account_name: string;
  name: string;
  pair: string;
  is_enabled: boolean;
  status: string;
  error: string | null;
  editable: boolean;
  note: string | null;
  created_at: string;
  upper_price: string;
  lower_price: string;
  grids_quantity: string;
  quantity_per_grid: string;
  grid_type: string;
  grid_price_step: string;
  upper_stop_loss_enabled: boolean;
  upper_stop_loss_price: string | null;
  lower_stop_loss_enabled: boolean;
  lower_stop_loss_price: string | null;
  start_price: string | null;
  current_price: string | null;
  current_profit: string;
  current_profit_usd: string;
  total_profits_count: string;
  bought_volume: string;
  sold_volume: string;
  profit_percentage: string;
  unrealized_profit_loss: string;
  investment_base_currency: string;
  investment_quote_currency: string;
  trailing_up_enabled: string;
  trailing_down_enabled: string;
  grid_lines: GridLine[];
}

export interface MarketOrder {
  order_id: number | string;
  order_type: 'BUY' | 'SELL';
  status_string: string;
  created_at: string;
  updated_at: string;
  quantity: string;
  rate: string;
  average_price: string;
  deal_order_type?: string;
}

export interface GridMarketOrders {
  grid_lines_orders: MarketOrder[];
  balancing_orders: MarketOrder[];
}

export interface GridProfit {
  grid_line_id: number;
  profit: string;
  usd_profit: string | null;
  created_at: string;
}

export interface BotEvent {
  message: string;
  created_at: string;
}

interface Quantity {
  quantity: string;
  currency: string;
}

export interface RequiredBalances {
  missing_balance: { base: Quantity; quote: Quantity };
  required_balance: { base: Quantity; quote: Quantity };
  need_balancing: boolean;
  balancing_available: boolean;
}

export interface CurrencyRates {
  last: string;
  priceStep: string;
  lotStep: string;
  minLotSize: string;
  minTotal: string;
}

export interface Candle {
  time: number;
  open: string;
  high: string;
  low: string;
  close: string;
}

export interface DcaBot {
  id: number;
  name: string;
  account_id: number;
  account_name: string;
  pairs: string[];
  is_enabled: boolean;
  strategy: string;
  active_deals_count: number;
  active_deals_usd_profit: string;
  finished_deals_profit_usd: string;
  finished_deals_count: string;
  max_active_deals: number;
  base_order_volume: string;
  base_order_volume_type: string;
  safety_order_volume: string;
  safety_order_step_percentage: string;
  max_safety_orders: number;
  active_safety_orders_count: number;
  martingale_volume_coefficient: string;
  martingale_step_coefficient: string;
  take_profit: string;
  take_profit_type: string;
  stop_loss_percentage: string;
  created_at: string;
  active_deals?: Deal[];
}

export interface DealsStats {
  active: number;
  completed: number;
  panic_sold: number;
  completed_deals_usd_profit: string;
  active_deals_usd_profit: string;
  funds_locked_in_active_deals: string;
}

export interface ProfitByDay {
  data: Array<{ s_date: string; unix_timestamp: number; profit: { usd: string } }>;
}

export interface Deal {
  id: number;
  bot_id: number;
  bot_name: string;
  pair: string;
  status: string;
  localized_status: string;
  created_at: string;
  closed_at: string | null;
  bought_average_price: string;
  base_order_average_price: string;
  bought_amount: string;
  bought_volume: string;
  completed_safety_orders_count: number;
  max_safety_orders: number;
  take_profit: string;
  take_profit_price: string | null;
  stop_loss_price: string | null;
  current_price: string;
  actual_usd_profit: string;
  usd_final_profit: string;
  final_profit: string;
  actual_profit: string;
  'finished?': boolean;
  'cancellable?': boolean;
  'panic_sellable?': boolean;
  from_currency: string;
  to_currency: string;
  account_id: number;
}

interface Status {
  type: string;
  title: string;
}

export interface TakeProfitStep {
  id: number;
  order_type: string;
  price: { value: string | null; percent: string | null };
  volume: string;
  trailing: { enabled: boolean; percent: string | null };
  status: Status;
}

export interface SmartTrade {
  id: number;
  pair: string;
  note: string;
  account: { id: number; name: string; type: string };
  status: Status;
  position: { type: 'buy' | 'sell'; order_type: string; units: { value: string }; price: { value: string | null }; status: Status };
  take_profit: { enabled: boolean; steps: TakeProfitStep[] };
  stop_loss: {
    enabled: boolean;
    order_type?: string;
    conditional?: { price: { value: string | null; percent: string | null }; trailing: { enabled: boolean; percent: string | null } };
    status?: Status;
  };
  profit: { volume: string | null; usd: string | null; percent: string | null } | null;
  data: {
    created_at: string;
    closed_at: string | null;
    current_price: { last: string };
    average_enter_price: string | null;
    average_close_price: string | null;
    panic_sell_available: boolean;
    add_funds_available: boolean;
    reduce_funds_available: boolean;
    cancel_available: boolean;
    finished: boolean;
    entered_amount: string;
    orderbook_price_currency: string;
  };
}

export interface SmartTradePart {
  id: number;
  order_side: 'buy' | 'sell';
  realised_amount: string;
  realised_price: string | null;
  trade_purpose: string;
  status: string;
  updated_at: string;
}

export interface BotsStats {
  profits_in_usd: { overall_usd_profit: number; today_usd_profit: number; active_deals_usd_profit: number };
}

export type BacktestStatus = 'running' | 'finished' | 'failed' | 'cancelled';

export interface BacktestFill {
  at: string;
  role: string;
  side: 'buy' | 'sell';
  price: string;
  amount: string;
  fee: string;
  fee_currency: string;
}

export interface BacktestOrder {
  id: number;
  role: string;
  side: 'buy' | 'sell';
  price: string | null;
  status: string;
}

/** What `tradeloop backtest --json` writes (docs/backtesting.md names every figure). */
export interface BacktestResult {
  timeframe: string;
  source: string;
  candles: number;
  fee: string;
  start_balances: Array<{ currency: string; amount: string }>;
  end_balances: Array<{ currency: string; amount: string }>;
  figures: Record<string, string | number | null>;
  series: { equity: Array<[number, string]>; drawdown: Array<[number, string]> };
  orders: BacktestOrder[];
  fills: BacktestFill[];
}

export interface Backtest {
  id: number;
  status: BacktestStatus;
  progress: number;
  kind: 'grid' | 'dca' | 'smart_trade';
  pair: string;
  from: string;
  to: string;
  timeframe: string | null;
  created_at: string;
  finished_at: string | null;
  error: { error: string; error_description?: string; error_attributes?: Record<string, string[]> } | null;
  result?: BacktestResult;
}

export interface BacktestCandle {
  time: number;
  open: string;
  high: string;
  low: string;
  close: string;
}
