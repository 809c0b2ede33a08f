/**
 * Deal-start conditions as the reference's strategy_list names them, read from the options a
 * client sent: `manual`, `nonstop`, and indicator conditions over candles built from ticks (RSI,
 * Ultimate Oscillator, Bollinger Bands %B, CCI, moving-average cross, and the TA presets built
 * from those). MFI and the presets on MFI, MACD, Parabolic SAR and Heikin Ashi are refused: the
 * first needs traded volume the candles do not carry, the others are not computed here.
 */
import type { FieldErrorCollector } from '../../shared/errors.ts';
import { MAX_CLOSES } from './indicator-series.ts';
import { type IndicatorCondition, type IndicatorSpec, type Trigger, TRIGGERS } from './indicators.ts';
import { TIMEFRAMES } from './dca-settings.ts';

export const INDICATOR_STRATEGIES = ['rsi', 'ult', 'b_bands_percent', 'cci', 'ma_cross', 'ta_preset'] as const;

/** What each TA preset means, as a condition on the last closed candle. */
const TA_PRESETS: Record<string, Omit<IndicatorCondition, 'time'>> = {
  'BB-20-1-LB': { spec: { kind: 'bb_percent', period: 20, deviation: 1 }, trigger: 'less', points: 0 },
  'BB-20-2-LB': { spec: { kind: 'bb_percent', period: 20, deviation: 2 }, trigger: 'less', points: 0 },
  'BB-20-1-UB': { spec: { kind: 'bb_percent', period: 20, deviation: 1 }, trigger: 'greater', points: 100 },
  'BB-20-2-UB': { spec: { kind: 'bb_percent', period: 20, deviation: 2 }, trigger: 'greater', points: 100 },
  'CCI-40<-200': { spec: { kind: 'cci', period: 40 }, trigger: 'less', points: -200 },
  'CCI-40>0': { spec: { kind: 'cci', period: 40 }, trigger: 'greater', points: 0 },
  'CCI-40>100': { spec: { kind: 'cci', period: 40 }, trigger: 'greater', points: 100 },
  'SMA-20-50': { spec: { kind: 'ma_cross', average: 'sma', fast: 20, slow: 50 }, trigger: 'crossing_up', points: 0 },
  'SMA-50-100': { spec: { kind: 'ma_cross', average: 'sma', fast: 50, slow: 100 }, trigger: 'crossing_up', points: 0 },
  'SMA-50-200': { spec: { kind: 'ma_cross', average: 'sma', fast: 50, slow: 200 }, trigger: 'crossing_up', points: 0 },
  'SMA-100-200': { spec: { kind: 'ma_cross', average: 'sma', fast: 100, slow: 200 }, trigger: 'crossing_up', points: 0 },
};
export const TA_PRESET_TYPES = Object.keys(TA_PRESETS);

/** A crossing compares the last two closed candles, so the longest period leaves one to spare. */
const MAX_PERIOD = MAX_CLOSES - 1;

type Options = Record<string, unknown>;

/** Reads one option; a problem goes to `invalid` under the option's full name. */
class OptionReader {
  constructor(
    private readonly options: Options,
    private readonly field: string,
    private readonly invalid?: FieldErrorCollector,
  ) {}

  fail(name: string, message: string): void {
    this.invalid?.add(`${this.field}[options][${name}]`, message);
  }

  time(): string {
    const time = String(this.options.time ?? '');
    if (!Object.hasOwn(TIMEFRAMES, time)) this.fail('time', 'does not have a valid value');
    return time;
  }

  trigger(fallback: Trigger): Trigger {
    const trigger = String(this.options.trigger_condition ?? fallback);
    if (!(TRIGGERS as readonly string[]).includes(trigger)) this.fail('trigger_condition', 'does not have a valid value');
    return trigger as Trigger;
  }

  number(name: string, min: number, max: number, fallback?: number): number {
    const raw = this.options[name];
    const value = raw === undefined || raw === null || raw === '' ? fallback : Number(raw);
    if (value === undefined || !Number.isFinite(value) || value < min || value > max) this.fail(name, `must be a number from ${min} to ${max}`);
    return value ?? Number.NaN;
  }

  period(name: string, fallback?: number, max = 100): number {
    const value = this.number(name, 2, max, fallback);
    if (Number.isFinite(value) && !Number.isInteger(value)) this.fail(name, `must be an integer from 2 to ${max}`);
    return value;
  }
}

/**
 * The indicator condition of an indicator strategy (undefined for `manual` and `nonstop`), with
 * each problem added to `invalid` when given.
 */
export function indicatorCondition(strategy: string, options: Options, field = 'strategy_list', invalid?: FieldErrorCollector): IndicatorCondition | undefined {
  const read = new OptionReader(options, field, invalid);
  const spec = (value: IndicatorSpec, trigger: Trigger, points: number) => ({ spec: value, time: read.time(), trigger, points });
  switch (strategy) {
    case 'rsi':
      return spec({ kind: 'rsi', period: read.period('time_period', 14) }, read.trigger('less'), read.number('points', 0, 100));
    case 'ult': {
      const periods: [number, number, number] = [read.period('first_period', 7), read.period('second_period', 14), read.period('third_period', 28)];
      if (!(periods[0] < periods[1] && periods[1] < periods[2])) read.fail('third_period', 'periods must grow from first to third');
      return spec({ kind: 'ult', periods }, read.trigger('less'), read.number('points', 0, 100));
    }
    case 'b_bands_percent':
      return spec(
        { kind: 'bb_percent', period: read.period('time_period', 20), deviation: read.number('deviation', 0.1, 10, 2) },
        read.trigger('less'),
        read.number('points', -1000, 1000),
      );
    case 'cci':
      return spec({ kind: 'cci', period: read.period('time_period', 20) }, read.trigger('less'), read.number('points', -1000, 1000));
    case 'ma_cross': {
      const average = String(options.indicator_type ?? '');
      if (average !== 'sma' && average !== 'ema') read.fail('indicator_type', 'does not have a valid value');
      const fast = read.period('time_period_first', undefined, MAX_PERIOD);
      const slow = read.period('time_period_second', undefined, MAX_PERIOD);
      if (fast >= slow) read.fail('time_period_second', 'must be greater than time_period_first');
      return spec({ kind: 'ma_cross', average: average as 'sma' | 'ema', fast, slow }, read.trigger('crossing_up'), read.number('points', -1e12, 1e12, 0));
    }
    case 'ta_preset': {
      const preset = TA_PRESETS[String(options.type ?? '')];
      if (!preset) read.fail('type', `is not supported; supported: ${TA_PRESET_TYPES.join(', ')}`);
      return { ...(preset ?? TA_PRESETS['SMA-20-50']!), time: read.time() };
    }
    default:
      return undefined;
  }
}

const parsed = new WeakMap<object, IndicatorCondition | undefined>();

/** The indicator condition of a stored start condition, read once per condition object. */
export function storedIndicatorCondition(condition: { strategy: string; options: Options }): IndicatorCondition | undefined {
  if (!parsed.has(condition)) parsed.set(condition, indicatorCondition(condition.strategy, condition.options));
  return parsed.get(condition);
}
