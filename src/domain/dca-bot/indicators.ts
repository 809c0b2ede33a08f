/**
 * The indicators deal-start conditions read, over candles a bot builds from the ticks it hears
 * (trading-signals does the arithmetic). Values are ratios, so candles are numbers. Each returns
 * undefined until its periods have enough candles. Candles carry no traded volume, so MFI and
 * the other volume indicators cannot be computed here.
 */
import { BollingerBands, CCI, EMA, RSI, SMA, UltimateOscillator } from 'trading-signals';

export interface Candles {
  highs: readonly number[];
  lows: readonly number[];
  closes: readonly number[];
}

export type IndicatorSpec =
  | { kind: 'rsi'; period: number }
  | { kind: 'ult'; periods: [number, number, number] }
  /** %B in percent: 0 at the lower band, 100 at the upper one. */
  | { kind: 'bb_percent'; period: number; deviation: number }
  | { kind: 'cci'; period: number }
  /** The fast average minus the slow one: it crosses 0 where the averages cross. */
  | { kind: 'ma_cross'; average: 'sma' | 'ema'; fast: number; slow: number };

interface Stepper {
  add(input: never): unknown;
  getResult(): unknown;
  readonly isStable: boolean;
}

function last(indicator: Stepper, inputs: readonly unknown[]): number | undefined {
  for (const input of inputs) indicator.add(input as never);
  const result = indicator.isStable ? indicator.getResult() : null;
  return typeof result === 'number' && Number.isFinite(result) ? result : undefined;
}

const highLowClose = (candles: Candles) => candles.closes.map((close, i) => ({ high: candles.highs[i] ?? close, low: candles.lows[i] ?? close, close }));

export function indicatorValue(spec: IndicatorSpec, candles: Candles): number | undefined {
  switch (spec.kind) {
    case 'rsi':
      return last(new RSI(spec.period), candles.closes);
    case 'ult': {
      const [shortPeriod, mediumPeriod, longPeriod] = spec.periods;
      return last(new UltimateOscillator({ shortPeriod, mediumPeriod, longPeriod }), highLowClose(candles));
    }
    case 'cci':
      return last(new CCI(spec.period), highLowClose(candles));
    case 'bb_percent': {
      const bands = new BollingerBands(spec.period, spec.deviation);
      for (const close of candles.closes) bands.add(close);
      const result = bands.isStable ? bands.getResult() : null;
      const close = candles.closes.at(-1);
      if (!result || close === undefined) return undefined;
      const range = result.upper - result.lower;
      return range === 0 ? 50 : ((close - result.lower) / range) * 100;
    }
    case 'ma_cross': {
      const average = (period: number) => last(spec.average === 'ema' ? new EMA(period) : new SMA(period), candles.closes);
      const fast = average(spec.fast);
      const slow = average(spec.slow);
      return fast === undefined || slow === undefined ? undefined : fast - slow;
    }
  }
}

export const TRIGGERS = ['less', 'greater', 'crossing_up', 'crossing_down', 'crossing_above', 'crossing_below'] as const;
export type Trigger = (typeof TRIGGERS)[number];

export interface IndicatorCondition {
  spec: IndicatorSpec;
  /** Candle timeframe, a TIMEFRAMES key. */
  time: string;
  trigger: Trigger;
  points: number;
}

const withoutLast = (candles: Candles): Candles => ({
  highs: candles.highs.slice(0, -1),
  lows: candles.lows.slice(0, -1),
  closes: candles.closes.slice(0, -1),
});

/** Whether the condition holds on the last closed candle (a cross: between the last two). */
export function conditionHolds(condition: IndicatorCondition, candles: Candles): boolean {
  const now = indicatorValue(condition.spec, candles);
  if (now === undefined) return false;
  const { points } = condition;
  switch (condition.trigger) {
    case 'less':
      return now < points;
    case 'greater':
      return now > points;
    default: {
      const before = indicatorValue(condition.spec, withoutLast(candles));
      if (before === undefined) return false;
      const up = condition.trigger === 'crossing_up' || condition.trigger === 'crossing_above';
      return up ? before <= points && now > points : before >= points && now < points;
    }
  }
}
