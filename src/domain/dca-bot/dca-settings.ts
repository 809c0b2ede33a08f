/**
 * The settings of a DCA bot and of each of its deals, in the reference's terms. State is plain
 * JSON: decimals are kept as strings and times as epoch milliseconds, so a state can be stored,
 * compared and copied as it is.
 */

export type DealStrategy = 'long' | 'short';
export type VolumeType = 'quote_currency' | 'base_currency' | 'percent';
export type ProfitCurrency = 'quote_currency' | 'base_currency';
export type TakeProfitType = 'base' | 'total';
export type StopLossType = 'stop_loss' | 'stop_loss_and_disable_bot';
export type StartOrderType = 'limit' | 'market';

export interface TakeProfitStepSetting {
  amountPercentage: string;
  profitPercentage: string;
}

/** A safety order given explicitly: `deviation` is a signed percent from the base-order price. */
export interface SafetyStepSetting {
  deviation: string;
  size: string;
}

/** What a deal runs with. Copied from the bot when the deal starts; update_deal edits the copy. */
export interface DealSettings {
  strategy: DealStrategy;
  profitCurrency: ProfitCurrency;
  baseOrderVolume: string;
  baseOrderVolumeType: VolumeType;
  safetyOrderVolume: string;
  safetyOrderVolumeType: VolumeType;
  startOrderType: StartOrderType;
  takeProfitType: TakeProfitType;
  /** Percent; unused when takeProfitSteps are given. */
  takeProfit: string;
  takeProfitSteps: TakeProfitStepSetting[];
  trailingEnabled: boolean;
  trailingDeviation: string;
  /** Percent; 0 disables the stop loss. */
  stopLossPercentage: string;
  stopLossType: StopLossType;
  stopLossTimeoutEnabled: boolean;
  stopLossTimeoutSeconds: number;
  tslEnabled: boolean;
  slToBreakevenEnabled: boolean;
  safetyOrderStepPercentage: string;
  martingaleVolumeCoefficient: string;
  martingaleStepCoefficient: string;
  maxSafetyOrders: number;
  activeSafetyOrdersCount: number;
  /** When non-empty, these steps replace the step percentage and coefficients. */
  customSafetySteps: SafetyStepSetting[];
  /** Seconds after which the deal is closed at market; null for never. */
  closeDealsTimeout: number | null;
  minProfitPercentage: string;
  /**
   * Conditions that close the deal at market once they all hold on a closed candle and its profit
   * reaches minProfitPercentage (of its base order, or of all it bought). Absent from deals
   * stored before close strategies ran: none.
   */
  closeStrategyList?: StartCondition[];
  minProfitType?: 'base_order_volume' | 'total_bought_volume';
  /** The fee built into take-profit prices (a fraction: 0.001 = 0.1 %), as the reference assumes. */
  feeRate: string;
}

export const START_STRATEGIES = ['manual', 'nonstop', 'tv_custom_signal', 'rsi', 'ult', 'b_bands_percent', 'cci', 'ma_cross', 'ta_preset'] as const;
export type StartStrategy = (typeof START_STRATEGIES)[number];

export const TIMEFRAMES: Record<string, number> = {
  '1m': 60_000,
  '3m': 180_000,
  '5m': 300_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '1h': 3_600_000,
  '2h': 7_200_000,
  '4h': 14_400_000,
  '8h': 28_800_000,
  '1d': 86_400_000,
  '3d': 259_200_000,
  '1w': 604_800_000,
};

/**
 * A deal start condition: the strategy and the options the client sent. Indicator conditions are
 * read from the options where they are used (start-conditions.ts); bots stored before that kept
 * the RSI options they read under `rsi`, which nothing reads now.
 */
export interface StartCondition {
  strategy: StartStrategy;
  options: Record<string, unknown>;
}

export interface BotConfig {
  name: string;
  pairs: string[];
  maxActiveDeals: number;
  /** Multi-pair bots: deals at once on one pair (null: one). */
  allowedDealsOnSamePair: number | null;
  /** Seconds after a deal on a pair closes before a new one may start on that pair. */
  cooldown: number;
  disableAfterDealsCount: number | null;
  minPrice: string | null;
  maxPrice: string | null;
  strategyList: StartCondition[];
  deal: DealSettings;
  /** Reference fields kept and shown as sent (leverage, reinvesting, close strategies, ...). */
  extra: Record<string, unknown>;
}
