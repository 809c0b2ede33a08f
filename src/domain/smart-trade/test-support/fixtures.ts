/** Builders for SmartTrade unit tests on the USDT_ETH market of the harness (price step 0.01, lot 0.0001). */
import { dec } from '../../../shared/decimal.ts';
import { newSmartTrade, isSmartTradeRunning, stepSmartTrade } from '../smart-trade.ts';
import type {
  EntryConfig,
  SmartTradeAction,
  SmartTradeConfig,
  SmartTradeState,
  StopLossConfig,
  TakeProfitStepConfig,
} from '../smart-trade.types.ts';
import { smartTradeWatches } from '../watches.ts';
import { Harness } from './harness.ts';

export const MARKET = { priceStep: dec('0.01'), lotStep: dec('0.0001'), minLotSize: dec('0.0001'), minTotal: dec('5') };

export interface ConfigOptions {
  side?: 'buy' | 'sell';
  instant?: boolean;
  skipEnterStep?: boolean;
  entry?: Partial<EntryConfig>;
  steps?: TakeProfitStepConfig[];
  stopLoss?: StopLossConfig;
}

export function aConfig(options: ConfigOptions = {}): SmartTradeConfig {
  return {
    pair: 'USDT_ETH',
    base: 'ETH',
    quote: 'USDT',
    side: options.side ?? 'buy',
    instant: options.instant ?? false,
    skipEnterStep: options.skipEnterStep ?? false,
    entry: { orderType: 'market', units: dec('1'), ...options.entry },
    takeProfit: { enabled: (options.steps ?? []).length > 0, steps: options.steps ?? [] },
    ...(options.stopLoss ? { stopLoss: options.stopLoss } : {}),
  };
}

export function aStep(volume: string, price: { value?: string; percent?: string }, options: Partial<TakeProfitStepConfig> = {}): TakeProfitStepConfig {
  return {
    orderType: 'limit',
    volume: dec(volume),
    priceType: 'last',
    price: {
      ...(price.value === undefined ? {} : { value: dec(price.value) }),
      ...(price.percent === undefined ? {} : { percent: dec(price.percent) }),
    },
    ...options,
  };
}

export function aStopLoss(trigger: { value?: string; percent?: string }, options: Partial<StopLossConfig> = {}): StopLossConfig {
  return {
    orderType: 'market',
    priceType: 'last',
    trigger: {
      ...(trigger.value === undefined ? {} : { value: dec(trigger.value) }),
      ...(trigger.percent === undefined ? {} : { percent: dec(trigger.percent) }),
    },
    trailing: false,
    breakeven: false,
    ...options,
  };
}

export const SMART_TRADE_MACHINE = { step: stepSmartTrade, watches: smartTradeWatches, isRunning: isSmartTradeRunning };

/** A started trade on a market at `price` (bid = ask = last unless a spread is given). */
export function started(options: ConfigOptions = {}, price = '100'): Harness<SmartTradeState, SmartTradeAction> {
  const harness = new Harness<SmartTradeState, SmartTradeAction>(SMART_TRADE_MACHINE, newSmartTrade(aConfig(options), MARKET));
  harness.quote = { bid: dec(price), ask: dec(price), last: dec(price) };
  harness.act({ type: 'start' });
  return harness;
}

export const keysOf = (state: SmartTradeState, purpose: string) =>
  state.orders.filter((order) => order.purpose === purpose).map((order) => `${order.key}:${order.status}`);
