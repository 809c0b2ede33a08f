/**
 * Grid bots in the reference's shapes: the entity (decimals and most counts as strings, a few
 * flags as the text "true"/"false", as the reference returns them), its events, market orders,
 * profit rows and required balances. The entity adds `status` (new, balancing, running, stopping,
 * disabled) and `error` (why the bot cannot trade as set up, or null), which the reference lacks.
 */
import type { GridBotConfig } from '../../domain/grid-bot/grid-bot-config.ts';
import { type GridLine, isEnabled } from '../../domain/grid-bot/grid-bot-state.ts';
import { gridFigures, presentedLines } from '../../domain/grid-bot/grid-figures.ts';
import { decimalText, gridPriceStepText } from '../../domain/grid-bot/grid-lines.ts';
import type { EngineOrder, StoredEvent } from '../../engine/automation-kind.ts';
import type { GridBotView, GridProfitRow, GridRequiredBalances } from '../../services/grid-bots.service.ts';
import { type Decimal, dec } from '../../shared/decimal.ts';

const text = (value: Decimal) => decimalText(value);
const maybeText = (value: Decimal | null | undefined) => (value === null || value === undefined ? null : decimalText(value));
/** The reference returns these flags as text. */
const flagText = (value: boolean) => (value ? 'true' : 'false');

const presentLine = (line: GridLine) => ({
  id: line.id,
  price: text(line.price),
  side: line.side,
  order_placed: line.placed,
});

export function presentGridBot(view: GridBotView) {
  const { bot, account, currentPrice } = view;
  const { state } = bot;
  const config: GridBotConfig = state.config;
  const figures = gridFigures(state, currentPrice);
  return {
    id: bot.id,
    account_id: bot.accountId,
    account_name: account.name,
    is_enabled: isEnabled(state),
    grids_quantity: String(config.gridsQuantity),
    created_at: bot.createdAt.toISOString(),
    updated_at: bot.updatedAt.toISOString(),
    strategy_type: 'manual',
    upper_stop_loss_enabled: config.upperStopLoss.enabled,
    lower_stop_loss_enabled: config.lowerStopLoss.enabled,
    note: config.note,
    // The reference shows editable false on a disabled bot and true on new and running ones.
    editable: isEnabled(state) || state.status === 'new',
    lower_price: text(config.lowerPrice),
    lower_stop_loss_price: maybeText(config.lowerStopLoss.price),
    lower_stop_loss_action: config.lowerStopLoss.action,
    upper_price: text(config.upperPrice),
    upper_stop_loss_price: maybeText(config.upperStopLoss.price),
    upper_stop_loss_action: config.upperStopLoss.action,
    quantity_per_grid: text(config.quantityPerGrid),
    leverage_type: config.leverageType,
    leverage_custom_value: maybeText(config.leverageCustomValue),
    name: config.name,
    pair: config.pair,
    start_price: maybeText(state.startPrice),
    grid_price_step: gridPriceStepText(state.origin),
    current_profit: text(figures.currentProfit),
    current_profit_usd: text(figures.currentProfitUsd),
    total_profits_count: String(figures.totalProfitsCount),
    bought_volume: text(figures.boughtVolume),
    sold_volume: text(figures.soldVolume),
    profit_percentage: text(figures.profitPercentage),
    current_price: maybeText(currentPrice),
    max_active_buy_lines: String(config.maxActiveBuyLines ?? config.gridsQuantity),
    max_active_sell_lines: String(config.maxActiveSellLines ?? config.gridsQuantity),
    order_currency_type: config.orderCurrencyType,
    profit_currency_type: config.profitCurrencyType,
    trailing_up_enabled: flagText(config.trailingUpEnabled),
    trailing_down_enabled: flagText(config.trailingDownEnabled),
    grid_type: config.gridType,
    investment_base_currency: text(figures.investmentBase),
    investment_quote_currency: text(figures.investmentQuote),
    unrealized_profit_loss: text(figures.unrealizedProfitLoss),
    current_profit_loss: maybeText(figures.currentProfitLoss),
    current_profit_loss_percent: maybeText(figures.currentProfitLossPercent),
    orderbook_price_currency: config.quote,
    expansion_down_enabled: flagText(config.expansionDown.enabled),
    expansion_down_stop_price: maybeText(config.expansionDown.stopPrice),
    expansion_up_enabled: flagText(config.expansionUp.enabled),
    expansion_up_stop_price: maybeText(config.expansionUp.stopPrice),
    grid_lines: presentedLines(state).map(presentLine),
    mode: config.mode,
    status: state.status,
    error: state.error,
  };
}

export const presentGridEvent = (event: StoredEvent) => ({ message: event.message, created_at: event.createdAt.toISOString() });

const STATUS_STRINGS: Record<EngineOrder['status'], string> = {
  pending: 'Pending',
  open: 'Active',
  filled: 'Filled',
  cancelled: 'Cancelled',
  rejected: 'Failed',
};

export function presentGridOrder(order: EngineOrder) {
  const amount = dec(order.amount);
  const filled = dec(order.filled);
  const total = dec(order.filledTotal);
  const average = filled.isZero() ? dec(0) : total.div(filled).toSignificantDigits(20);
  return {
    order_id: order.id,
    order_type: order.side.toUpperCase(),
    status_string: STATUS_STRINGS[order.status],
    created_at: order.createdAt.toISOString(),
    updated_at: order.updatedAt.toISOString(),
    quantity: text(amount),
    quantity_remaining: text(amount.minus(filled)),
    total: text(total),
    rate: text(order.price === null ? average : dec(order.price)),
    average_price: text(average),
  };
}

export function presentGridProfit(row: GridProfitRow) {
  return {
    grid_line_id: row.lineId,
    profit: decimalText(dec(row.profit)),
    usd_profit: row.usdProfit === null ? null : decimalText(dec(row.usdProfit)),
    created_at: row.createdAt.toISOString(),
    grid_line: { id: row.lineId, price: decimalText(dec(row.linePrice)), side: row.side, order_placed: row.orderPlaced },
  };
}

export function presentRequiredBalances(balances: GridRequiredBalances) {
  const amount = (quantity: Decimal, currency: string) => ({ quantity: text(quantity), currency });
  const pair = (amounts: { base: Decimal; quote: Decimal }) => ({
    base: amount(amounts.base, balances.base),
    quote: amount(amounts.quote, balances.quote),
  });
  const { necessary } = balances;
  return {
    missing_balance: pair(balances.missing),
    required_balance: pair(balances.required),
    need_balancing: balances.needBalancing,
    balancing_available: balances.balancingAvailable,
    necessary_quantities: amount(necessary.quantity, necessary.currency === 'base' ? balances.base : balances.quote),
  };
}
