/**
 * Facts a SmartTrade records for those who follow it (notifications): its stop loss triggering,
 * and its end with the profit it realised. Amounts are decimal strings in the quote currency.
 */
import type { Decimal } from '../../shared/decimal.ts';
import type { Side } from '../automation.ts';
import { figures, profit } from './ledger.ts';
import type { SmartTradeState, TradeStatus } from './smart-trade.types.ts';

interface TradeFacts {
  pair: string;
  base: string;
  quote: string;
  side: Side;
  at: Date;
}

export interface StopLossTriggeredRecord extends TradeFacts {
  type: 'stop_loss_triggered';
  /** The price that reached the stop. */
  price: string;
}

export interface TradeClosedRecord extends TradeFacts {
  type: 'closed';
  status: TradeStatus;
  /** Null when nothing was entered. */
  profit: string | null;
  profitPercentage: string | null;
  error: string | null;
}

export type SmartTradeRecord = StopLossTriggeredRecord | TradeClosedRecord;

const factsOf = (state: SmartTradeState, at: Date): TradeFacts => {
  const { pair, base, quote, side } = state.config;
  return { pair, base, quote, side, at };
};

export function stopLossTriggered(state: SmartTradeState, price: Decimal, at: Date): StopLossTriggeredRecord {
  return { type: 'stop_loss_triggered', ...factsOf(state, at), price: price.toFixed() };
}

export function tradeClosed(state: SmartTradeState, at: Date): TradeClosedRecord {
  const earned = profit(state, figures(state), undefined, false);
  return {
    type: 'closed',
    ...factsOf(state, at),
    status: state.status,
    profit: earned?.volume.toDecimalPlaces(8).toFixed() ?? null,
    profitPercentage: earned?.percent.toDecimalPlaces(2).toFixed() ?? null,
    error: state.error ?? null,
  };
}
