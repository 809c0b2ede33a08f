/**
 * The reference's SmartTrade entity (v2). Every figure comes from the trade's orders as the
 * exchange filled them: entered and closed amounts and totals, average prices with and without
 * commission, the commission rate paid, and profit (realised, plus the held part at the current
 * price while the trade is open). Decimals are strings; `commission` is a number, as the reference
 * writes it.
 */
import { availability, smartTradeType } from '../../domain/smart-trade/availability.ts';
import { positionEditable } from '../../domain/smart-trade/edit.ts';
import { averages, commissionRate, figures, profit } from '../../domain/smart-trade/ledger.ts';
import { ENDED } from '../../domain/smart-trade/smart-trade.transitions.ts';
import { expectedEntry } from '../../domain/smart-trade/validation.ts';
import type { Decimal } from '../../shared/decimal.ts';
import type { SmartTradeView } from '../../services/smart-trades.service.ts';
import { presentFunds, presentMarketClose, presentStopLoss, presentSteps, statusOf } from './smart-trade-parts.presenter.ts';

const text = (value: Decimal | undefined) => (value === undefined ? null : value.toDecimalPlaces(8).toFixed());
const amount = (value: Decimal) => value.toFixed();
const iso = (value: Date | undefined) => value?.toISOString() ?? null;
// Fills are dated by the market event they follow, which can precede the request that created the trade.
const notBefore = (value: Date, start: Date) => (value < start ? start : value);

export function presentSmartTrade(view: SmartTradeView) {
  const { state } = view;
  const { config } = state;
  const f = figures(state);
  const avg = averages(f);
  const can = availability(state);
  const open = !ENDED.has(state.status);
  const earned = profit(state, f, view.quote, open);
  const planned = expectedEntry(config, view.quote);
  const editable = can.editable && positionEditable(state);
  return {
    id: view.id,
    version: 2,
    account: { ...view.account, link: `/accounts/${view.account.id}` },
    pair: config.pair,
    instant: config.instant,
    status: statusOf('trade', state.status, state.error),
    leverage: { enabled: false },
    position: {
      type: config.side,
      editable,
      units: { value: amount(config.entry.units), editable },
      price: {
        value: text(avg.enter ?? planned),
        value_without_commission: text(avg.enterWithoutCommission ?? planned),
        editable,
      },
      total: { value: text(f.enteredAmount.isZero() ? planned?.times(config.entry.units) : f.enteredTotal) },
      order_type: config.entry.orderType,
      status: statusOf('position', state.position.status, state.position.error),
      ...(config.entry.conditional
        ? {
            conditional: {
              editable,
              order_type: config.entry.conditional.orderType,
              trailing: { enabled: config.entry.conditional.trailingPercent !== undefined, percent: text(config.entry.conditional.trailingPercent) },
              price: { type: config.entry.conditional.priceType, value: text(config.entry.conditional.trigger) },
            },
          }
        : {}),
    },
    take_profit: {
      enabled: config.takeProfit.enabled,
      price_type: state.steps.every((step) => step.price.value !== undefined) ? 'value' : 'percentage',
      steps: presentSteps(state, f),
    },
    stop_loss: presentStopLoss(state, f, can.editable),
    reduce_funds: { steps: presentFunds(state, 'reduce_funds') },
    market_close: presentMarketClose(state),
    note: state.note,
    note_raw: state.note === '' ? null : state.note,
    skip_enter_step: config.skipEnterStep,
    data: {
      editable: can.editable,
      current_price: {
        bid: text(view.quote?.bid),
        ask: text(view.quote?.ask),
        last: text(view.quote?.last),
        quote_volume: null,
        day_change_percent: null,
      },
      target_price_type: 'price',
      orderbook_price_currency: config.quote,
      base_order_finished: can.positionEntered,
      missing_funds_to_close: '0',
      liquidation_price: null,
      average_enter_price: text(avg.enter),
      average_close_price: text(avg.close),
      average_enter_price_without_commission: text(avg.enterWithoutCommission),
      average_close_price_without_commission: text(avg.closeWithoutCommission),
      panic_sell_available: can.panicSell,
      add_funds_available: can.addFunds,
      reduce_funds_available: can.reduceFunds,
      force_start_available: can.forceStart,
      force_process_available: can.forceProcess,
      cancel_available: can.cancel,
      finished: can.finished,
      base_position_step_finished: can.positionEntered,
      entered_amount: amount(f.enteredAmount),
      entered_total: text(f.enteredTotal),
      closed_amount: amount(f.closedAmount),
      closed_total: text(f.closedTotal),
      commission: commissionRate(f).toDecimalPlaces(8).toNumber(),
      created_at: view.createdAt.toISOString(),
      updated_at: notBefore(view.updatedAt, view.createdAt).toISOString(),
      closed_at: iso(state.closedAt && notBefore(state.closedAt, view.createdAt)),
      type: smartTradeType(state),
    },
    profit: {
      volume: text(earned?.volume),
      usd: text(earned && view.usdPerQuote ? earned.volume.times(view.usdPerQuote) : undefined),
      percent: earned ? earned.percent.toDecimalPlaces(2).toFixed() : '0',
      roe: null,
    },
    margin: { amount: null, total: null },
    is_position_not_filled: f.enteredAmount.isZero(),
  };
}
