/**
 * A grid bot's state: its settings, its lines (lowest price first) and what its fills added up to.
 *
 * Invariants while running: exactly one line waits (side null) and it is the one next to the last
 * fill; every line below it is a buy and every line above it a sell. A line's `order` is the
 * sequence number of the last order placed for it, so fills are routed by order key and a fill of
 * an order the bot already gave up on is still accounted for. Once the grid trails or expands,
 * `config` shows its lines as they stand (lowest and highest line, line count); line k keeps the
 * price the formula gives it on `origin`, the shape the lines were laid out from.
 */
import type { Side } from '../automation.ts';
import { type Decimal, ZERO } from '../../shared/decimal.ts';
import type { GridBotConfig } from './grid-bot-config.ts';
import type { GridShape } from './grid-lines.ts';

export type GridBotStatus = 'new' | 'balancing' | 'running' | 'stopping' | 'disabled' | 'deleted';

/** What an order has filled so far, before it completes. */
export interface PartialFill {
  amount: Decimal;
  quote: Decimal;
  feeBase: Decimal;
  feeQuote: Decimal;
}

/**
 * Lines are shared between a state and the states stepped from it: a step changes a line only
 * through `writable`, which copies it first.
 */
export interface GridLine {
  readonly id: number;
  /** k in the price formula of grid-lines.ts. */
  readonly index: number;
  readonly price: Decimal;
  readonly side: Side | null;
  /** An order for this line is on the exchange (or on its way there). */
  readonly placed: boolean;
  /** Base amount of the line's order. */
  readonly amount: Decimal;
  /** Sequence number of the line's last order; 0 when it never had one. */
  readonly order: number;
  /** For a sell that closes a buy of this bot: what that buy cost in quote, fees included. */
  readonly cost: Decimal | null;
  /** The exchange refused the line's order; it is not retried until the line changes side. */
  readonly refused: boolean;
  /** Added past the bounds by growth, on the bot's spare funds. */
  readonly grown: boolean;
  readonly partial: PartialFill | null;
}

/** A line a step copied and may change. */
export type WritableLine = { -readonly [K in keyof GridLine]: GridLine[K] };

/** A market order of the bot that is not a line order: the balancing order or a stop-loss order. */
export interface SideOrder {
  order: number;
  side: Side;
  amount: Decimal;
  partial: PartialFill | null;
}

/**
 * A stop loss that cancelled the bot's orders and waits for each of them to end (cancelled, or
 * filled on the way) before it sells or buys, so that fills of the same move count.
 */
export interface PendingStop {
  action: 'stop_bot' | Side;
  /** Sequence numbers of the cancelled line orders not yet known to have ended. */
  waiting: number[];
}

/**
 * Base the bot's buys brought in beyond what their sells took (the lot-step remainder of a fee
 * paid in base), carried into the next sell; `value` is what it cost, at its buy's price.
 */
export interface Carry {
  base: Decimal;
  value: Decimal;
}

export interface GridFigures {
  profit: Decimal;
  profitUsd: Decimal;
  profitsCount: number;
  /** `profit` when the bot last started, so unrealized figures cover the current run only. */
  profitAtStart: Decimal;
  boughtVolume: Decimal;
  soldVolume: Decimal;
  /** What the lines needed when the bot last started (zero while it is off). */
  investmentBase: Decimal;
  investmentQuote: Decimal;
  /** The investment valued at the start price; kept after a stop for profit_percentage. */
  capital: Decimal;
  /** Quote and base that the line and stop-loss fills moved since the last start. */
  flowQuote: Decimal;
  flowBase: Decimal;
}

export interface GridBotState {
  config: GridBotConfig;
  status: GridBotStatus;
  lines: GridLine[];
  nextLineId: number;
  /** Last order sequence number used; order keys are built from it and never reused. */
  seq: number;
  /** The price step of the market the lines were planned on. */
  priceStep: Decimal;
  /** The settings the lines were laid out from: line k sits at the price the formula gives it on them. */
  origin: GridShape;
  startPrice: Decimal | null;
  balancing: SideOrder | null;
  stopOrder: SideOrder | null;
  stop: PendingStop | null;
  carry: Carry;
  /** Funds the account had beyond what the lines needed at the last start: what growth past the bounds may spend. */
  reserve: { base: Decimal; quote: Decimal };
  /** Growth past the bounds ended for good (funds or exchange minimums). */
  trailingUpEnded: boolean;
  growDownEnded: boolean;
  growUpEnded: boolean;
  /** Why the bot cannot trade as set up (orders refused, balancing failed); null while it can. */
  error: string | null;
  figures: GridFigures;
}

export function emptyFigures(): GridFigures {
  return {
    profit: ZERO,
    profitUsd: ZERO,
    profitsCount: 0,
    profitAtStart: ZERO,
    boughtVolume: ZERO,
    soldVolume: ZERO,
    investmentBase: ZERO,
    investmentQuote: ZERO,
    capital: ZERO,
    flowQuote: ZERO,
    flowBase: ZERO,
  };
}

export const shapeOf = ({ gridType, lowerPrice, upperPrice, gridsQuantity }: GridBotConfig): GridShape => ({
  gridType,
  lowerPrice,
  upperPrice,
  gridsQuantity,
});

/** A bot that was never started. */
export function newGridBot(config: GridBotConfig, priceStep: Decimal): GridBotState {
  return {
    config,
    status: 'new',
    lines: [],
    nextLineId: 1,
    seq: 0,
    priceStep,
    origin: shapeOf(config),
    startPrice: null,
    balancing: null,
    stopOrder: null,
    stop: null,
    carry: { base: ZERO, value: ZERO },
    reserve: { base: ZERO, quote: ZERO },
    trailingUpEnded: false,
    growDownEnded: false,
    growUpEnded: false,
    error: null,
    figures: emptyFigures(),
  };
}

/**
 * A copy a step may change freely. Decimals are immutable, the settings are replaced rather than
 * changed, and lines are shared until the step changes one (`writable`): a step that fills one
 * line copies a few lines instead of all of them.
 */
export function draft(state: GridBotState): GridBotState {
  // Field by field, as copyLine: states made in different places (a new bot, a stored one) differ
  // in shape, and spreading them took the slow, generic path.
  return {
    config: state.config,
    status: state.status,
    lines: state.lines.slice(),
    nextLineId: state.nextLineId,
    seq: state.seq,
    priceStep: state.priceStep,
    origin: state.origin,
    startPrice: state.startPrice,
    balancing: state.balancing && { ...state.balancing },
    stopOrder: state.stopOrder && { ...state.stopOrder },
    stop: state.stop && { ...state.stop, waiting: [...state.stop.waiting] },
    carry: state.carry,
    reserve: state.reserve,
    trailingUpEnded: state.trailingUpEnded,
    growDownEnded: state.growDownEnded,
    growUpEnded: state.growUpEnded,
    error: state.error,
    figures: { ...state.figures },
  };
}

/**
 * The lines each step copied, by the lines array of the state it is making: those it may change in
 * place. A lines array a step did not make has none, so its lines are copied before any change.
 */
const copiedLines = new WeakMap<GridLine[], Set<GridLine>>();

/**
 * The line as the step may change it: on its first change a copy takes its place in `state.lines`
 * (the state the step was given keeps the original). Callers go on with the returned line.
 */
export function writable(state: GridBotState, line: GridLine): WritableLine {
  let copied = copiedLines.get(state.lines);
  if (copied?.has(line)) return line;
  const index = state.lines.indexOf(line);
  if (index === -1) throw new Error(`Line ${line.id} is not a line of this grid`);
  const copy = copyLine(line);
  state.lines[index] = copy;
  if (!copied) copiedLines.set(state.lines, (copied = new Set()));
  copied.add(copy);
  return copy;
}

/**
 * `amount`, or the equal decimal one of these lines already holds. Most lines of a bot order the
 * same amount (the lot step rounds them alike), and decimals are never changed in place, so lines
 * share one: each decimal is an object and a digit array, about 130 bytes a line.
 */
export function sharedAmount(amount: Decimal, ...lines: Array<GridLine | undefined>): Decimal {
  for (const line of lines) if (line && line.amount !== amount && line.amount.eq(amount)) return line.amount;
  return amount;
}

/** Lines made by the current step (a new layout): it may change them without copying. */
export function ownLines(lines: GridLine[]): void {
  copiedLines.set(lines, new Set(lines));
}

/** Field by field rather than by spreading, which is several times slower. */
function copyLine(line: GridLine): WritableLine {
  return {
    id: line.id,
    index: line.index,
    price: line.price,
    side: line.side,
    placed: line.placed,
    amount: line.amount,
    order: line.order,
    cost: line.cost,
    refused: line.refused,
    grown: line.grown,
    partial: line.partial,
  };
}

export const isEnabled = (state: GridBotState) =>
  state.status === 'balancing' || state.status === 'running' || state.status === 'stopping';

export const lineKey = (seq: number) => `o${seq}`;
export const balancingKey = (seq: number) => `b${seq}`;
export const stopKey = (seq: number) => `s${seq}`;

/** The kind and sequence number in an order key, or undefined for a key this bot never made. */
export function parseKey(key: string): { kind: 'o' | 'b' | 's'; seq: number } | undefined {
  const match = /^([obs])(\d{1,15})$/.exec(key);
  return match ? { kind: match[1] as 'o' | 'b' | 's', seq: Number(match[2]) } : undefined;
}
