/**
 * One deal of a DCA bot: its orders, what its fills bought and sold, and where it stands. The
 * deal keeps the net change it caused in the account's base and quote balances (fees included:
 * the paper exchange charges them in the currency received), so its profit in either currency is
 * exactly what the account gained or lost through it.
 */
import { type FillInput, fillQuote, type Side } from '../automation.ts';
import { dec, type Decimal, ZERO } from '../../shared/decimal.ts';
import { cloneDataSharing } from '../../shared/clone-data.ts';
import type { DealSettings } from './dca-settings.ts';

export const DEAL_STATUSES = [
  'base_order_placed',
  'bought',
  'ttp_activated',
  'ttp_order_placed',
  'stop_loss_pending',
  'panic_sell_pending',
  'completed',
  'cancelled',
  'panic_sold',
  'stop_loss_finished',
  'failed',
] as const;
export type DealStatus = (typeof DEAL_STATUSES)[number];

export const FINISHED_STATUSES: ReadonlySet<DealStatus> = new Set(['completed', 'cancelled', 'panic_sold', 'stop_loss_finished', 'failed']);
/** Closed deals whose profit counts in the statistics. */
export const PROFIT_STATUSES: readonly DealStatus[] = ['completed', 'panic_sold', 'stop_loss_finished'];

/** Entries open or grow the position (buys of a long deal); exits close it. */
export type DealOrderRole = 'base' | 'safety' | 'manual_safety' | 'take_profit' | 'take_profit_market' | 'close';
export const ENTRY_ROLES: ReadonlySet<DealOrderRole> = new Set(['base', 'safety', 'manual_safety']);

export type CloseReason = 'stop_loss' | 'panic_sell' | 'trailing' | 'timeout' | 'close_strategy';

export interface DealOrder {
  key: string;
  role: DealOrderRole;
  side: Side;
  orderType: 'market' | 'limit';
  amount: string;
  price: string | null;
  filled: string;
  filledTotal: string;
  /** Safety-order number, or take-profit step index. */
  index: number;
  /** A cancellation was asked for; the order no longer counts as working. */
  cancelling: boolean;
}

export interface TakeProfitStepState {
  amountPercentage: string;
  profitPercentage: string;
  status: 'idle' | 'placed' | 'filled' | 'closed_at_market';
  price: string | null;
  initialAmount: string | null;
  executedAt: number | null;
  /** The order that completed the step (its limit order, or its close at market). */
  orderKey?: string;
}

export interface Deal {
  id: number;
  /** The deal's number within its bot; part of its order keys. */
  no: number;
  pair: string;
  base: string;
  quote: string;
  status: DealStatus;
  settings: DealSettings;
  createdAt: number;
  updatedAt: number;
  closedAt: number | null;
  /** Sequence of the deal's order keys: a key is never used twice. */
  seq: number;
  /** Orders that have not ended. */
  orders: DealOrder[];
  entryAmount: string;
  entryVolume: string;
  /**
   * Base the entries left the deal with (bought by a long, owed by a short) and the quote they
   * cost (paid by a long, received by a short), each net of the fees paid in it. Absent from
   * deals stored before they were kept: the gross amount and volume stand in.
   */
  entryHeld?: string;
  entryCost?: string;
  exitAmount: string;
  exitVolume: string;
  baseDelta: string;
  quoteDelta: string;
  baseOrderPrice: string | null;
  baseOrderVolume: string;
  /** Ladder safety orders placed so far (the next one is number safetyPlaced + 1). */
  safetyPlaced: number;
  safetyCompleted: number;
  manualCompleted: number;
  tpSteps: TakeProfitStepState[];
  /** The single take-profit's price, or the trailing take-profit's activation price. */
  takeProfitPrice: string | null;
  /** Best price since trailing take profit activated. */
  trailingMax: string | null;
  /** Best price since the base order filled, followed by the trailing stop loss. */
  tslExtreme: string | null;
  breakeven: boolean;
  slTriggeredAt: number | null;
  closeReason: CloseReason | null;
  finalProfit: string | null;
  usdProfit: string | null;
  btcProfit: string | null;
  errorMessage: string | null;
  note: string;
  /**
   * Base under one lot step that the deal's exit could not trade, handed over to the bot at the
   * close with its value; the bot's next deal on the pair starts with it (docs/mechanics.md).
   */
  leftover?: Leftover;
}

/** Base left over below one lot step, and what it cost in quote. */
export interface Leftover {
  base: string;
  value: string;
}

/**
 * A copy of a deal for a step to change. Its settings are shared, not copied: a step replaces a
 * deal's settings and never changes them (copying them was most of each copy of a deal).
 */
export const copyDeal = (deal: Deal): Deal => cloneDataSharing(deal, SHARED_BY_COPIES);

const SHARED_BY_COPIES: ReadonlySet<keyof Deal> = new Set(['settings']);

export function newDeal(init: { id: number; no: number; pair: string; base: string; quote: string; settings: DealSettings; at: number }): Deal {
  return {
    ...init,
    status: 'base_order_placed',
    createdAt: init.at,
    updatedAt: init.at,
    closedAt: null,
    seq: 0,
    orders: [],
    entryAmount: '0',
    entryVolume: '0',
    entryHeld: '0',
    entryCost: '0',
    exitAmount: '0',
    exitVolume: '0',
    baseDelta: '0',
    quoteDelta: '0',
    baseOrderPrice: null,
    baseOrderVolume: '0',
    safetyPlaced: 0,
    safetyCompleted: 0,
    manualCompleted: 0,
    tpSteps: [],
    takeProfitPrice: null,
    trailingMax: null,
    tslExtreme: null,
    breakeven: false,
    slTriggeredAt: null,
    closeReason: null,
    finalProfit: null,
    usdProfit: null,
    btcProfit: null,
    errorMessage: null,
    note: '',
  };
}

export const isFinished = (deal: Deal) => FINISHED_STATUSES.has(deal.status);
export const isLong = (deal: Deal) => deal.settings.strategy === 'long';
export const entrySide = (deal: Deal): Side => (isLong(deal) ? 'buy' : 'sell');
export const exitSide = (deal: Deal): Side => (isLong(deal) ? 'sell' : 'buy');

/** Entry average price (gross of fees); zero before any entry fill. */
export function averagePrice(deal: Deal): Decimal {
  const amount = dec(deal.entryAmount);
  return amount.isZero() ? ZERO : dec(deal.entryVolume).div(amount);
}

/**
 * What the entries left the deal with, net of their fees: base held (long) or owed (short), and
 * the quote that cost (long) or brought in (short).
 */
export function entryPosition(deal: Deal): { held: Decimal; cost: Decimal } {
  return { held: dec(deal.entryHeld ?? deal.entryAmount), cost: dec(deal.entryCost ?? deal.entryVolume) };
}

/** Base the deal holds (long) or owes (short), net of fees. */
export function position(deal: Deal): Decimal {
  const base = dec(deal.baseDelta);
  return isLong(deal) ? base : base.neg();
}

export function workingOrders(deal: Deal, ...roles: DealOrderRole[]): DealOrder[] {
  return deal.orders.filter((order) => !order.cancelling && (roles.length === 0 || roles.includes(order.role)));
}

export function findOrder(deal: Deal, key: string): DealOrder | undefined {
  return deal.orders.find((order) => order.key === key);
}

/** Books a fill: the order's totals, the deal's entry or exit totals and the balance changes. */
export function bookFill(deal: Deal, order: DealOrder, fill: FillInput): void {
  const total = fillQuote(fill);
  order.filled = dec(order.filled).plus(fill.amount).toFixed();
  order.filledTotal = dec(order.filledTotal).plus(total).toFixed();
  const feeBase = fill.feeCurrency === deal.base ? fill.fee : ZERO;
  const feeQuote = fill.feeCurrency === deal.quote ? fill.fee : ZERO;
  if (ENTRY_ROLES.has(order.role)) {
    const long = fill.side === 'buy';
    deal.entryAmount = dec(deal.entryAmount).plus(fill.amount).toFixed();
    deal.entryVolume = dec(deal.entryVolume).plus(total).toFixed();
    deal.entryHeld = dec(deal.entryHeld ?? 0).plus(long ? fill.amount.minus(feeBase) : fill.amount.plus(feeBase)).toFixed();
    deal.entryCost = dec(deal.entryCost ?? 0).plus(long ? total.plus(feeQuote) : total.minus(feeQuote)).toFixed();
  } else {
    deal.exitAmount = dec(deal.exitAmount).plus(fill.amount).toFixed();
    deal.exitVolume = dec(deal.exitVolume).plus(total).toFixed();
  }
  const sign = fill.side === 'buy' ? 1 : -1;
  let base = dec(deal.baseDelta).plus(fill.amount.times(sign));
  let quote = dec(deal.quoteDelta).minus(total.times(sign));
  // A fee in a third currency (an exchange token) changes neither.
  base = base.minus(feeBase);
  quote = quote.minus(feeQuote);
  deal.baseDelta = base.toFixed();
  deal.quoteDelta = quote.toFixed();
}

/** Values carried with a leftover are kept to this many decimals. */
const LEFTOVER_DECIMALS = 10;

/**
 * At the close of a deal that closed its position: base the exit could not trade (under one lot
 * step, fees taken from the coin leave such a remainder) leaves the deal at what it cost, so the
 * deal's profit counts it, and goes to the bot.
 */
export function handOverLeftover(deal: Deal, lotStep: Decimal): void {
  const base = dec(deal.baseDelta);
  if (base.lte(0) || base.gte(lotStep)) return;
  const entry = entryPosition(deal);
  const unit = isLong(deal) ? entry.cost.div(entry.held) : dec(deal.exitVolume).div(dec(deal.exitAmount));
  const value = base.times(unit).toDecimalPlaces(LEFTOVER_DECIMALS);
  deal.baseDelta = '0';
  deal.quoteDelta = dec(deal.quoteDelta).plus(value).toFixed();
  deal.leftover = { base: base.toFixed(), value: value.toFixed() };
}

/** A new deal starts holding what the last deal on its pair left over, as if it had bought it. */
export function takeOverLeftover(deal: Deal, leftover: Leftover): void {
  deal.baseDelta = dec(deal.baseDelta).plus(dec(leftover.base)).toFixed();
  deal.quoteDelta = dec(deal.quoteDelta).minus(dec(leftover.value)).toFixed();
}
