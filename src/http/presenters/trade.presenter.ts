/**
 * The reference's ver1 Trade entity: Unix-second timestamps, decimals as strings, and the status
 * under both `value` and `basic_type` (the reference documents one and its examples use the other).
 */
import { tradeAllows } from '../../domain/trade/trade.transitions.ts';
import type { TradeView } from '../../services/trades.service.ts';
import type { Decimal } from '../../shared/decimal.ts';

const text = (value: Decimal | undefined) => (value === undefined ? null : value.toDecimalPlaces(8).toFixed());
const seconds = (value: Date | undefined) => (value === undefined ? null : Math.floor(value.getTime() / 1000));

export function presentTrade(view: TradeView) {
  const { state } = view;
  const { config, order } = state;
  const filled = order?.filled;
  const average = filled && !filled.isZero() ? order!.filledQuote.div(filled) : undefined;
  const price = config.price ?? average ?? (config.side === 'buy' ? view.quote?.ask : view.quote?.bid);
  return {
    uuid: state.uuid,
    account_id: view.accountId,
    pair: config.pair,
    created_at: seconds(view.createdAt),
    // Fills are dated by the market event they follow, which can precede the request that created the trade.
    closed_at: state.closedAt === undefined ? null : Math.max(seconds(state.closedAt)!, seconds(view.createdAt)!),
    order: {
      type: config.orderType,
      side: config.side,
      strategy: config.strategy,
      position_side: config.positionSide,
      reduce_only: config.reduceOnly,
    },
    units: { value: config.units.toFixed() },
    price: { value: text(config.price) },
    total: { value: text(price?.times(config.units)) },
    conditional: {
      enabled: config.conditional !== undefined,
      value: config.conditional?.comparison ?? null,
      price: { value: text(config.conditional?.price), type: config.conditional?.priceType ?? null },
    },
    trailing: { enabled: config.trailing !== undefined, value: text(config.trailing?.value), percent: text(config.trailing?.percent) },
    timeout: { enabled: config.timeoutSeconds !== undefined, value: config.timeoutSeconds ?? null },
    leverage: { type: null },
    status: { value: state.status, basic_type: state.status, error: state.error ?? null },
    filled: {
      units: filled?.toFixed() ?? '0',
      total: text(order?.filledQuote) ?? '0',
      price: text(average) ?? '0',
      value: filled ? filled.div(config.units).times(100).toDecimalPlaces(2).toFixed() : '0',
    },
    data: { cancelable: tradeAllows(state.status, 'cancel') },
  };
}
