/**
 * A grid bot's settings as the reference names them, in exact decimals. Spot only: leverage and
 * mode are kept for the entity but never change how the bot trades.
 */
import type { Decimal } from '../../shared/decimal.ts';

export const GRID_TYPES = ['arithmetic', 'geometric'] as const;
export const CURRENCY_TYPES = ['base', 'quote'] as const;
export const STOP_LOSS_ACTIONS = ['stop_bot', 'stop_bot_and_sell', 'stop_bot_and_buy'] as const;
export const LEVERAGE_TYPES = ['cross', 'isolated', 'not_specified'] as const;
export const GRID_MODES = ['long', 'short', 'reversal'] as const;

export type GridType = (typeof GRID_TYPES)[number];
export type CurrencyType = (typeof CURRENCY_TYPES)[number];
export type StopLossAction = (typeof STOP_LOSS_ACTIONS)[number];

/** The fewest and most lines a grid may start with (the reference allows up to 201 levels). */
export const MIN_GRIDS = 2;
export const MAX_GRIDS = 201;

export interface StopLoss {
  enabled: boolean;
  price: Decimal | null;
  action: StopLossAction;
}

export interface Expansion {
  enabled: boolean;
  stopPrice: Decimal | null;
}

export interface GridBotConfig {
  name: string;
  pair: string;
  base: string;
  quote: string;
  upperPrice: Decimal;
  lowerPrice: Decimal;
  gridsQuantity: number;
  gridType: GridType;
  quantityPerGrid: Decimal;
  orderCurrencyType: CurrencyType;
  profitCurrencyType: CurrencyType;
  /** Null: every line of that side has its order on the exchange. */
  maxActiveBuyLines: number | null;
  maxActiveSellLines: number | null;
  trailingUpEnabled: boolean;
  trailingDownEnabled: boolean;
  expansionUp: Expansion;
  expansionDown: Expansion;
  upperStopLoss: StopLoss;
  lowerStopLoss: StopLoss;
  leverageType: string;
  leverageCustomValue: Decimal | null;
  mode: string | null;
  ignoreWarnings: boolean;
  note: string | null;
}

/** Grows the grid below its lowest line: trailing down, or expansion down up to its stop price. */
export const growsDown = (config: GridBotConfig) => config.trailingDownEnabled || config.expansionDown.enabled;
