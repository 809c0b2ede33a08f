/**
 * The parts of the SmartTrade entity: statuses with their reference titles, take-profit steps,
 * the stop loss, reduce-funds steps, the close at market, and the sub-trade list of
 * `GET /v2/smart_trades/:id/trades`.
 */
import { averages, figures, type Figures } from '../../domain/smart-trade/ledger.ts';
import type { SmartTradeState, TrackedOrder } from '../../domain/smart-trade/smart-trade.types.ts';
import { stopLossLevel } from '../../domain/smart-trade/stop-loss.ts';
import { type SubTrade, subTradeCancelable, subTradeClosable, subTrades } from '../../domain/smart-trade/sub-trades.ts';
import { allocate, isActiveStep, targetPrice } from '../../domain/smart-trade/targets.ts';
import { type Decimal, ZERO } from '../../shared/decimal.ts';

const text = (value: Decimal | undefined) => (value === undefined ? null : value.toDecimalPlaces(8).toFixed());
const iso = (value: Date | undefined) => value?.toISOString() ?? null;

const TITLES: Record<string, Record<string, string>> = {
  trade: {
    created: 'Pending',
    waiting_position: 'Pending Position Opened',
    waiting_targets: 'Waiting Targets',
    pending_reduce_funds: 'Reducing Funds',
    panic_sell_pending: 'Closing at Market Price',
    cancellation_pending: 'Cancelling',
    cancelled: 'Cancelled',
    finished: 'Completed',
    stop_loss_finished: 'Closed by Stop Loss',
    panic_sold: 'Closed at Market Price',
    failed: 'Failed',
  },
  position: {
    to_process: 'Pending',
    order_placed: 'Placed',
    trailing_activated: 'Trailing Activated',
    finished: 'Finished',
    smart_sell: 'Own funds',
    cancelled: 'Cancelled',
    failed: 'Failed',
  },
  part: {
    idle: 'Pending',
    timeout: 'Waiting Timeout',
    order_placed: 'Placed',
    trailing_activated: 'Trailing Activated',
    finished: 'Finished',
    cancelled: 'Cancelled',
    failed: 'Failed',
  },
};

export function statusOf(kind: 'trade' | 'position' | 'part', type: string, error?: string) {
  return { type, basic_type: type, title: TITLES[kind]![type] ?? type, ...(error === undefined ? {} : { error }) };
}

const ordersOf = (state: SmartTradeState, id: number) => state.orders.filter((order) => order.subTradeId === id);
const sum = (orders: TrackedOrder[], pick: (order: TrackedOrder) => Decimal) => orders.reduce((total, order) => total.plus(pick(order)), ZERO);

export function presentSteps(state: SmartTradeState, f: Figures) {
  const shares = allocate(state, f);
  return state.steps.map((step, index) => {
    const orders = ordersOf(state, step.id);
    const price = targetPrice(state, step, f);
    const units = isActiveStep(step) ? (shares.get(step.id) ?? ZERO).plus(sum(orders, (o) => o.filled)) : sum(orders, (o) => o.filled);
    const part: SubTrade = { purpose: 'take_profit', id: step.id, step };
    return {
      id: step.id,
      order_type: step.orderType,
      editable: step.status === 'idle' || (step.status === 'order_placed' && orders.every((o) => o.filled.isZero() && o.orderType === 'limit')),
      units: { value: text(units) },
      price: { type: step.priceType, value: text(price), percent: text(step.price.percent) },
      volume: step.volume.toFixed(),
      total: text(price?.times(units)),
      trailing: { enabled: step.trailingPercent !== undefined, percent: text(step.trailingPercent) },
      status: statusOf('part', step.status, step.error),
      closed_at: iso(step.closedAt),
      data: { cancelable: subTradeCancelable(state, part), panic_sell_available: subTradeClosable(state, part) },
      position: index + 1,
    };
  });
}

export function presentStopLoss(state: SmartTradeState, f: Figures, editable: boolean) {
  const config = state.config.stopLoss;
  const stopLoss = state.stopLoss;
  if (!config || !stopLoss) return { enabled: false };
  const level = stopLossLevel(state, f);
  const held = f.held;
  return {
    enabled: true,
    price_type: config.trigger.value !== undefined ? 'value' : 'percentage',
    breakeven: config.breakeven,
    order_type: config.orderType,
    editable,
    price: { value: text(config.limitPrice), percent: null },
    units: { value: held.toFixed() },
    total: { value: text(level?.times(held)) },
    conditional: {
      price: { value: text(level), type: config.priceType, percent: text(config.trigger.percent) },
      trailing: { enabled: config.trailing, percent: text(config.trailingPercent) },
    },
    timeout: { enabled: config.timeoutSeconds !== undefined, value: config.timeoutSeconds ?? null },
    status: statusOf('part', stopLoss.status, stopLoss.error),
    closed_at: iso(stopLoss.closedAt),
  };
}

function fills(orders: TrackedOrder[]) {
  const filled = sum(orders, (o) => o.filled);
  const quote = sum(orders, (o) => o.filledQuote);
  const fees = sum(orders, (o) => o.feeValue);
  const side = orders[0]?.side;
  const net = side === 'sell' ? quote.minus(fees) : quote.plus(fees);
  return {
    filled,
    quote,
    price: filled.isZero() ? undefined : net.div(filled),
    priceWithoutCommission: filled.isZero() ? undefined : quote.div(filled),
  };
}

export function presentFunds(state: SmartTradeState, kind: 'add_funds' | 'reduce_funds') {
  return state.funds
    .filter((step) => step.kind === kind)
    .map((step) => {
      const done = fills(ordersOf(state, step.id));
      const part: SubTrade = { purpose: 'funds', id: step.id, step };
      return {
        id: step.id,
        type: step.orderType,
        order_type: step.orderType,
        status: statusOf('part', step.status, step.error),
        units: { value: step.units.toFixed() },
        price: { value: text(done.price ?? step.price), value_without_commission: text(done.priceWithoutCommission ?? step.price) },
        total: { value: text(done.filled.isZero() ? step.price?.times(step.units) : done.quote) },
        closed_at: iso(step.closedAt),
        data: { cancelable: subTradeCancelable(state, part), panic_sell_available: subTradeClosable(state, part) },
      };
    });
}

export function presentMarketClose(state: SmartTradeState) {
  const close = state.marketClose;
  if (!close) return {};
  const done = fills(ordersOf(state, close.id));
  return {
    id: close.id,
    type: 'market',
    status: statusOf('part', close.status),
    units: { value: sum(ordersOf(state, close.id), (o) => o.amount).toFixed() },
    price: { value: text(done.price), value_without_commission: text(done.priceWithoutCommission) },
    total: { value: text(done.quote) },
  };
}

const PURPOSE: Record<SubTrade['purpose'], string> = {
  position: 'position',
  take_profit: 'take_profit',
  stop_loss: 'stop_loss',
  funds: 'reduce_funds',
  market_close: 'market_close',
};

/** `GET /v2/smart_trades/:id/trades`: one entry per part, with what its orders realised. */
export function presentSubTrades(state: SmartTradeState, createdAt: Date) {
  const f = figures(state);
  const shares = allocate(state, f);
  const long = state.config.side === 'buy';
  return subTrades(state).map((part) => {
    const orders = ordersOf(state, part.id);
    const done = fills(orders);
    const info = describe(state, part, f, shares);
    const last = orders.at(-1);
    return {
      id: part.id,
      average_price: text(done.priceWithoutCommission),
      follow_price_type: info.priceType,
      initial_amount: text(info.amount),
      initial_total: text(info.price?.times(info.amount)),
      initial_price: text(info.price),
      order_price: text(last?.price),
      order_side: info.entry === long ? 'buy' : 'sell',
      order_type: info.orderType,
      pair: state.config.pair,
      position_percentage: part.purpose === 'take_profit' ? part.step.volume.toFixed() : null,
      realised_amount: done.filled.toFixed(),
      realised_total: text(done.quote),
      realised_percentage: info.amount.isZero() ? '0' : done.filled.div(info.amount).times(100).toDecimalPlaces(2).toFixed(),
      realised_price: text(done.priceWithoutCommission),
      status: info.status,
      take_profit_percentage: part.purpose === 'take_profit' ? text(part.step.price.percent) : null,
      trade_purpose: PURPOSE[part.purpose],
      trail_percentage: text(info.trailPercent),
      trail_value: null,
      trailing_enabled: info.trailPercent !== undefined,
      trailing_last_price: text(info.extreme),
      trailing_last_price_updated_at: iso(info.extremeAt),
      trigger_condition: info.trigger === undefined ? null : info.condition,
      trigger_price: text(info.trigger),
      trigger_price_percentage: text(info.triggerPercent),
      trigger_type: info.trigger === undefined ? 'none' : 'conditional',
      created_at: (orders[0]?.createdAt ?? createdAt).toISOString(),
      updated_at: (last?.updatedAt ?? createdAt).toISOString(),
      cancelable: subTradeCancelable(state, part),
      force_processable: subTradeClosable(state, part),
    };
  });
}

interface PartInfo {
  entry: boolean;
  amount: Decimal;
  price?: Decimal;
  priceType: string;
  orderType: string;
  status: string;
  trigger?: Decimal;
  triggerPercent?: Decimal;
  condition: string;
  trailPercent?: Decimal;
  extreme?: Decimal;
  extremeAt?: Date;
}

function describe(state: SmartTradeState, part: SubTrade, f: Figures, shares: Map<number, Decimal>): PartInfo {
  const long = state.config.side === 'buy';
  const up = long ? 'greater_or_equal' : 'less_or_equal';
  const down = long ? 'less_or_equal' : 'greater_or_equal';
  const { entry } = state.config;
  switch (part.purpose) {
    case 'position':
      return {
        entry: true, amount: entry.units, priceType: entry.conditional?.priceType ?? 'last', orderType: entry.orderType,
        status: state.position.status, condition: state.position.condition ?? down,
        ...opt({ price: entry.price ?? entry.conditional?.trigger, trigger: entry.conditional?.trigger, trailPercent: entry.conditional?.trailingPercent, extreme: state.position.extreme, extremeAt: state.position.extremeAt }),
      };
    case 'take_profit': {
      const step = part.step;
      const price = targetPrice(state, step, f);
      const orders = ordersOf(state, step.id);
      const amount = isActiveStep(step) ? (shares.get(step.id) ?? ZERO).plus(sum(orders, (o) => o.filled)) : sum(orders, (o) => o.filled);
      return {
        entry: false, amount, priceType: step.priceType, orderType: step.orderType, status: step.status, condition: up,
        ...opt({ price, trigger: price, triggerPercent: step.price.percent, trailPercent: step.trailingPercent, extreme: step.extreme, extremeAt: step.extremeAt }),
      };
    }
    case 'stop_loss': {
      const config = state.config.stopLoss;
      const level = stopLossLevel(state, f);
      return {
        entry: false, amount: f.held, priceType: config?.priceType ?? 'last', orderType: config?.orderType ?? 'market',
        status: state.stopLoss!.status === 'timeout' ? 'idle' : state.stopLoss!.status, condition: down,
        ...opt({ price: level, trigger: level, triggerPercent: config?.trigger.percent, trailPercent: config?.trailing ? (config.trailingPercent ?? ZERO) : undefined, extreme: state.stopLoss!.extreme, extremeAt: state.stopLoss!.extremeAt }),
      };
    }
    case 'funds':
      return {
        entry: part.step.kind === 'add_funds', amount: part.step.units, priceType: 'last', orderType: part.step.orderType,
        status: part.step.status, condition: up, ...opt({ price: part.step.price }),
      };
    case 'market_close':
      return {
        entry: false, amount: sum(ordersOf(state, part.id), (o) => o.amount), priceType: 'bid', orderType: 'market',
        status: state.marketClose!.status, condition: down, ...opt({ price: averages(f).closeWithoutCommission }),
      };
  }
}

/** Drops undefined values, which exactOptionalPropertyTypes keeps out of optional fields. */
function opt<T extends object>(values: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}
