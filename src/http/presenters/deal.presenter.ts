/**
 * The reference's deal entity, its market orders and its add-funds data. Field types follow the
 * reference's deal example (decimals as strings, counts as numbers). A long deal's bought_* are
 * its entries and sold_* its exits; a short deal's the other way round.
 */
import type { Deal } from '../../domain/dca-bot/deal.ts';
import { averagePrice } from '../../domain/dca-bot/deal.ts';
import { stopLossPrice } from '../../domain/dca-bot/deal-exits.ts';
import { fundsLocked, profitPercentage, unrealisedProfit } from '../../domain/dca-bot/deal-profit.ts';
import type { TradingRules } from '../../domain/market/trading-rules.ts';
import type { EngineOrder } from '../../engine/automation-kind.ts';
import { dec, type Decimal, ZERO } from '../../shared/decimal.ts';
import { isConvertible } from '../../services/deal-conversion.ts';
import type { DealView } from '../../services/deals.service.ts';

const text = (value: Decimal | string | null, places = 8) => (value === null ? null : dec(value).toDecimalPlaces(places).toFixed());
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

const LOCALIZED: Record<string, string> = {
  completed: 'Completed',
  cancelled: 'Cancelled',
  panic_sold: 'Closed at Market Price',
  stop_loss_finished: 'Closed by Stop Loss',
  failed: 'Failed',
  base_order_placed: 'Base order placed',
};

const STEP_STATUS = { idle: 'Pending', placed: 'Placed', filled: 'Filled', closed_at_market: 'Closed at Market Price' };

function sides(deal: Deal) {
  const entry = { amount: dec(deal.entryAmount), volume: dec(deal.entryVolume) };
  const exit = { amount: dec(deal.exitAmount), volume: dec(deal.exitVolume) };
  return deal.settings.strategy === 'long' ? { bought: entry, sold: exit } : { bought: exit, sold: entry };
}

export function presentDeal(view: DealView, accountName: string, events?: Array<{ message: string; createdAt: Date }>) {
  const { deal } = view;
  const { settings } = deal;
  const active = deal.closedAt === null;
  const { bought, sold } = sides(deal);
  const average = (side: { amount: Decimal; volume: Decimal }) => (side.amount.isZero() ? '0' : text(side.volume.div(side.amount)));
  const profitNow = active && view.quote ? unrealisedProfit(deal, view.quote.bid, view.quote.ask) : dec(deal.finalProfit ?? 0);
  const usdNow = active ? (view.usdRate ? profitNow.times(view.usdRate) : null) : deal.usdProfit === null ? null : dec(deal.usdProfit);
  const exitAverage = average(deal.settings.strategy === 'long' ? sold : bought);
  const keyIds = new Map(view.orders.map((order) => [order.key, order.id]));
  const stepOrder = (index: number) =>
    [...deal.orders].reverse().find((order) => order.index === index && (order.role === 'take_profit' || order.role === 'take_profit_market'));
  const stop = stopLossPrice(deal);
  const working = (role: string) => deal.orders.filter((order) => !order.cancelling && order.role === role).length;
  const status = deal.status;
  const entity: Record<string, unknown> = {
    id: deal.id,
    type: 'Deal',
    bot_id: view.botId,
    max_safety_orders: settings.maxSafetyOrders,
    deal_has_error: deal.errorMessage !== null,
    account_id: view.accountId,
    active_safety_orders_count: settings.activeSafetyOrdersCount,
    created_at: iso(deal.createdAt),
    updated_at: iso(deal.updatedAt),
    closed_at: iso(deal.closedAt),
    'finished?': !active,
    current_active_safety_orders_count: working('safety') + working('manual_safety'),
    current_active_safety_orders: working('safety'),
    completed_safety_orders_count: deal.safetyCompleted,
    completed_manual_safety_orders_count: deal.manualCompleted,
    'cancellable?': active && ['base_order_placed', 'bought', 'ttp_activated'].includes(status),
    'panic_sellable?': active && ['base_order_placed', 'bought', 'ttp_activated'].includes(status),
    trailing_enabled: settings.trailingEnabled,
    tsl_enabled: settings.tslEnabled,
    stop_loss_timeout_enabled: settings.stopLossTimeoutEnabled,
    stop_loss_timeout_in_seconds: settings.stopLossTimeoutSeconds,
    active_manual_safety_orders: working('manual_safety'),
    pair: deal.pair,
    status,
    localized_status: LOCALIZED[status] ?? 'Active',
    take_profit: settings.takeProfitSteps.length > 0 ? null : text(settings.takeProfit),
    take_profit_steps: settings.takeProfitSteps.length === 0 ? [] : deal.tpSteps.map((step, index) => ({
      id: index,
      amount_percentage: Number(step.amountPercentage),
      profit_percentage: Number(step.profitPercentage),
      editable: step.status === 'idle' || step.status === 'placed',
      panic_sellable: step.status === 'placed',
      trade_id: keyIds.get(step.orderKey ?? stepOrder(index)?.key ?? '') ?? null,
      execution_timestamp: iso(step.executedAt),
      initial_amount: step.initialAmount,
      price: step.price,
      status: STEP_STATUS[step.status],
    })),
    base_order_volume: text(settings.baseOrderVolume),
    safety_order_volume: text(settings.safetyOrderVolume),
    safety_order_step_percentage: text(settings.safetyOrderStepPercentage),
    safety_order_calculation_mode: 'combined',
    custom_safety_steps: settings.customSafetySteps.map((step) => ({ deviation: step.deviation, size: Number(step.size) })),
    crypto_widget: null,
    leverage_type: 'not_specified',
    leverage_custom_value: null,
    bought_amount: text(bought.amount),
    bought_volume: text(bought.volume),
    bought_average_price: average(bought),
    base_order_average_price: text(deal.baseOrderPrice ?? '0'),
    sold_amount: text(sold.amount),
    sold_volume: text(sold.volume),
    sold_average_price: average(sold),
    take_profit_type: settings.takeProfitType,
    // Exact, so that a bot's stats are the plain sum of its deals; an active deal's is its profit now.
    final_profit: profitNow.toFixed(),
    martingale_coefficient: text(settings.martingaleVolumeCoefficient),
    martingale_volume_coefficient: text(settings.martingaleVolumeCoefficient),
    martingale_step_coefficient: text(settings.martingaleStepCoefficient),
    stop_loss_percentage: text(settings.stopLossPercentage),
    sl_to_breakeven_enabled: settings.slToBreakevenEnabled,
    sl_to_breakeven_data: null,
    error_message: deal.errorMessage,
    profit_currency: settings.profitCurrency,
    stop_loss_type: settings.stopLossType,
    safety_order_volume_type: settings.safetyOrderVolumeType,
    base_order_volume_type: settings.baseOrderVolumeType,
    from_currency: deal.quote,
    to_currency: deal.base,
    from_currency_id: null,
    to_currency_id: null,
    final_profit_percentage: text(profitPercentage(deal, profitNow), 2),
    usd_final_profit: usdNow === null ? '0.0' : text(usdNow),
    actual_profit: text(profitNow),
    actual_usd_profit: usdNow === null ? null : text(usdNow),
    actual_profit_percentage: text(profitPercentage(deal, profitNow), 2),
    failed_message: deal.errorMessage,
    reserved_base_coin: text(bought.volume),
    reserved_second_coin: text(bought.amount),
    trailing_deviation: text(settings.trailingDeviation),
    trailing_max_price: deal.trailingMax,
    tsl_max_price: settings.tslEnabled ? deal.tslExtreme : null,
    strategy: settings.strategy,
    last_known_position_info: null,
    min_profit_percentage: text(settings.minProfitPercentage),
    min_profit_type: settings.minProfitType ?? null,
    close_strategy_list: (settings.closeStrategyList ?? []).map((condition) => ({ strategy: condition.strategy, options: condition.options })),
    safety_strategy_list: [],
    note: deal.note === '' ? null : deal.note,
    add_fundable: active && (status === 'bought' || status === 'ttp_activated'),
    smart_trade_convertable: isConvertible(deal),
    bot_name: view.botName,
    account_name: accountName,
    market_type: 'spot',
    // A closed deal shows where it closed, as the reference does; "0.0" when nothing was sold.
    current_price: active ? (view.quote?.last.toFixed() ?? '0.0') : exitAverage === '0' ? '0.0' : exitAverage,
    take_profit_price: settings.takeProfitSteps.length > 1 ? '0' : deal.takeProfitPrice,
    stop_loss_price: stop && active ? stop.toDecimalPlaces(8).toFixed() : null,
    reserved_quote_funds: text(active ? fundsLocked(deal) : ZERO),
    reserved_base_funds: '0',
    orderbook_price_currency: deal.quote,
    buy_steps: deal.orders
      .filter((order) => order.role === 'safety' && !order.cancelling)
      .map((order) => ({ price: order.price, filled: dec(order.filled).toFixed() })),
  };
  if (events !== undefined) entity.bot_events = events.map((event) => ({ message: event.message, created_at: event.createdAt.toISOString() }));
  return entity;
}

const DEAL_ORDER_TYPES: Record<string, string> = {
  base: 'Base',
  safety: 'Safety',
  manual_safety: 'Manual Safety',
  take_profit: 'Take Profit',
  take_profit_market: 'Take Profit',
  close: 'Stop Loss',
};

const STATUS_STRINGS: Record<EngineOrder['status'], string> = {
  pending: 'Active',
  open: 'Active',
  filled: 'Filled',
  cancelled: 'Cancelled',
  rejected: 'Cancelled',
};

export function presentMarketOrder(order: EngineOrder, deal: Deal) {
  const filled = dec(order.filled);
  const closeIsStopLoss = deal.closeReason === 'stop_loss';
  return {
    order_id: String(order.id),
    order_type: order.side.toUpperCase(),
    deal_order_type: order.role === 'close' && !closeIsStopLoss ? 'Take Profit' : (DEAL_ORDER_TYPES[order.role] ?? order.role),
    cancellable: order.role === 'manual_safety' && (order.status === 'open' || order.status === 'pending'),
    status_string: STATUS_STRINGS[order.status],
    created_at: order.createdAt.toISOString(),
    updated_at: order.updatedAt.toISOString(),
    quantity: dec(order.amount).toFixed(),
    quantity_remaining: dec(order.amount).minus(filled).toFixed(),
    total: dec(order.filledTotal).toFixed(),
    rate: order.price === null ? '0' : dec(order.price).toFixed(),
    average_price: filled.isZero() ? '0' : dec(order.filledTotal).div(filled).toDecimalPlaces(8).toFixed(),
  };
}

export function presentAddFundsData(view: DealView, rules: TradingRules, available: Decimal, paper: boolean) {
  const { deal } = view;
  const long = deal.settings.strategy === 'long';
  const stop = stopLossPrice(deal);
  return {
    orderbook_price: view.quote ? (long ? view.quote.ask : view.quote.bid).toFixed() : null,
    price_per_one_unit_strategy_name: 'orderbook_price',
    account_id: view.accountId,
    quote_currency: deal.quote,
    base_currency: deal.base,
    adding_funds_currency: long ? deal.quote : deal.base,
    available_amount: available.toFixed(),
    limits: {
      minPrice: rules.minPrice.toFixed(),
      maxPrice: rules.maxPrice.toFixed(),
      priceStep: rules.priceStep.toFixed(),
      priceMultiplierDown: rules.bidMultiplierDown.toFixed(),
      priceMultiplierUp: rules.bidMultiplierUp.toFixed(),
      minLotSize: rules.minLotSize.toFixed(),
      lotStep: rules.lotStep.toFixed(),
      minTotal: rules.minTotal.toFixed(),
      maxMarketBuyAmount: rules.maxMarketBuyAmount.toFixed(),
      maxMarketSellAmount: rules.maxMarketSellAmount.toFixed(),
      minMarketBuyAmount: '0',
      minMarketSellAmount: '0',
      maxLotSize: rules.maxLotSize.toFixed(),
      marketBuyMinTotal: rules.minMarketTotal.toFixed(),
    },
    market_supported: true,
    is_contract: false,
    orderbook_price_currency: deal.quote,
    take_profit_price: deal.takeProfitPrice,
    stop_loss_price: stop ? stop.toDecimalPlaces(8).toFixed() : null,
    account_type: paper ? 'Account::PaperTradingAccount' : 'Account::BinanceAccount',
    deal_type: deal.settings.strategy,
    pair: deal.pair,
    limit: rules.minTotal.toFixed(8),
    market_buy_min_total: rules.minMarketTotal.toFixed(),
    min_lot_size: rules.minLotSize.toFixed(8),
    leverage_custom_value: null,
    leverage_type: 'not_specified',
    bought_average_price: text(averagePrice(deal)),
  };
}
