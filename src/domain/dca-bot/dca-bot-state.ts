/**
 * A DCA bot as the engine keeps it: its configuration, counters, the deals it is running, and what
 * its start conditions need to remember (when each pair's last deal closed, candles for
 * indicators, pairs whose start waits for the price). Plain JSON throughout.
 */
import type { BotConfig } from './dca-settings.ts';
import type { Deal, Leftover } from './deal.ts';
import type { DealAction } from './deal-actions.ts';
import type { CandleSeries } from './indicator-series.ts';

/** Why a nonstop start on a pair waits: the price is above or below the bot's range, or unknown. */
export type StartBlock = 'above_range' | 'below_range' | 'no_price';

export interface DcaBotState {
  userId: number;
  accountId: number;
  /** The bot's `url_secret`, which copy_and_create asks for. */
  urlSecret: string;
  config: BotConfig;
  enabled: boolean;
  /** Deals started, for disable_after_deals_count. */
  dealsCounter: number;
  nextDealNo: number;
  finishedDealsCount: number;
  finishedDealsProfitUsd: string;
  deals: Deal[];
  /**
   * Finished deals with orders that have not reported their end yet (cancellations in flight).
   * A fill that still arrives is booked into the deal, so its profit stays what the account got.
   */
  settling: Deal[];
  lastClosedAt: Record<string, number>;
  blocked: Record<string, StartBlock>;
  /** Candles per `pair|timeframe`. */
  series: Record<string, CandleSeries>;
  blacklist: string[];
  /** What closed deals left over below one lot step, per pair; the pair's next deal takes it. */
  leftovers?: Record<string, Leftover>;
  /**
   * The latest signals applied (their id and the deals their action touched), stored with their
   * effect: a signal run again after a restart finds here that it already took effect.
   */
  signals?: SignalMark[];
}

export interface SignalMark {
  id: string;
  deals: number[];
}

/** Far more than the signals a worker can have taken and not finished when a process stops. */
export const SIGNAL_MARKS = 20;

type StartDeal = { type: 'start_deal'; pair: string; skipSignalChecks: boolean; skipOpenDealsChecks: boolean; onlyForEnabled: boolean };
type DealAct = { type: 'deal'; dealId: number; action: DealAction };
/** A pair's deals only, when `pair` is given. */
type PanicSellAll = { type: 'panic_sell_all'; pair?: string };

export type DcaBotAction =
  | { type: 'enable' }
  | { type: 'disable' }
  | { type: 'update'; config: BotConfig }
  | StartDeal
  | { type: 'set_blacklist'; pairs: string[] }
  | PanicSellAll
  | { type: 'cancel_all' }
  | DealAct
  /** An action a signal asks for, applied once however often the signal is run (see `signals`). */
  | { type: 'signal'; id: string; action: StartDeal | PanicSellAll | DealAct };

export function newBotState(init: { userId: number; accountId: number; urlSecret?: string; config: BotConfig; blacklist?: string[] }): DcaBotState {
  return {
    userId: init.userId,
    accountId: init.accountId,
    urlSecret: init.urlSecret ?? '',
    config: init.config,
    enabled: false,
    dealsCounter: 0,
    nextDealNo: 1,
    finishedDealsCount: 0,
    finishedDealsProfitUsd: '0',
    deals: [],
    settling: [],
    lastClosedAt: {},
    blocked: {},
    series: {},
    blacklist: init.blacklist ?? [],
  };
}

export const isMultiPair = (state: DcaBotState) => state.config.pairs.length > 1;
