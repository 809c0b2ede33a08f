/**
 * The risk and return figures of an equity series, pure functions of plain numbers. Money
 * totals stay exact elsewhere; these are ratios, where a float is the honest type.
 *
 * Definitions (docs/backtesting.md):
 * - drawdown at a point: (value − running peak) / running peak; the max drawdown is the deepest,
 *   its value the largest fall from a peak in money, its duration the longest time below a peak
 *   (until the peak is regained, or the end of the series);
 * - returns for Sharpe and Sortino: simple returns between the starting value and the last
 *   values of consecutive periods (one day, or one candle when candles are longer), annualised with √(periods per
 *   year), a 365-day year and no risk-free rate; Sharpe divides by the sample standard
 *   deviation, Sortino by the downside deviation √(Σ min(r, 0)² / n);
 * - annualised return: (end / start)^(year / duration) − 1; Calmar: that over the max drawdown.
 */
export const DAY_MS = 86_400_000;
export const YEAR_MS = 365 * DAY_MS;

export interface Drawdown {
  /** Largest fall from a running peak, in the series' unit. */
  value: number;
  /** Deepest fall as a fraction of its peak (0.25 = 25 %). */
  fraction: number;
  /** Longest time spent below a previous peak, in milliseconds. */
  durationMs: number;
}

export function maxDrawdown(times: readonly number[], values: readonly number[]): Drawdown {
  let peak = -Infinity;
  let peakAt = times[0] ?? 0;
  let value = 0;
  let fraction = 0;
  let durationMs = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v >= peak) {
      peak = v;
      peakAt = times[i]!;
      continue;
    }
    value = Math.max(value, peak - v);
    fraction = Math.max(fraction, peak > 0 ? (peak - v) / peak : 0);
    durationMs = Math.max(durationMs, times[i]! - peakAt);
  }
  return { value, fraction, durationMs };
}

/** The drawdown fraction (≤ 0) at every point. */
export function drawdownCurve(values: readonly number[]): number[] {
  let peak = -Infinity;
  return values.map((v) => {
    peak = Math.max(peak, v);
    return peak > 0 ? (v - peak) / peak : 0;
  });
}

/**
 * Simple returns between the last values of consecutive periods of `periodMs`. The first value
 * is the starting value: the first period's return is measured from it.
 */
export function periodReturns(times: readonly number[], values: readonly number[], periodMs: number): number[] {
  const closes: number[] = values.length > 0 ? [values[0]!] : [];
  let currentPeriod: number | undefined;
  for (let i = 1; i < values.length; i++) {
    const period = Math.floor(times[i]! / periodMs);
    if (period === currentPeriod) closes[closes.length - 1] = values[i]!;
    else closes.push(values[i]!);
    currentPeriod = period;
  }
  const returns: number[] = [];
  for (let i = 1; i < closes.length; i++) returns.push(closes[i - 1]! === 0 ? 0 : closes[i]! / closes[i - 1]! - 1);
  return returns;
}

const mean = (xs: readonly number[]) => xs.reduce((sum, x) => sum + x, 0) / xs.length;

/** Undefined with fewer than two returns or all of them equal. */
export function sharpe(returns: readonly number[], periodsPerYear: number): number | undefined {
  if (returns.length < 2 || returns.every((r) => r === returns[0])) return undefined;
  const m = mean(returns);
  const variance = returns.reduce((sum, r) => sum + (r - m) ** 2, 0) / (returns.length - 1);
  return variance > 0 ? (m / Math.sqrt(variance)) * Math.sqrt(periodsPerYear) : undefined;
}

/** Undefined with fewer than two returns or no losing period. */
export function sortino(returns: readonly number[], periodsPerYear: number): number | undefined {
  if (returns.length < 2) return undefined;
  const downside = Math.sqrt(returns.reduce((sum, r) => sum + Math.min(r, 0) ** 2, 0) / returns.length);
  return downside > 0 ? (mean(returns) / downside) * Math.sqrt(periodsPerYear) : undefined;
}

export function annualisedReturn(start: number, end: number, durationMs: number): number | undefined {
  if (start <= 0 || end < 0 || durationMs <= 0) return undefined;
  return (end / start) ** (YEAR_MS / durationMs) - 1;
}

export function calmar(annualised: number | undefined, drawdownFraction: number): number | undefined {
  return annualised === undefined || drawdownFraction === 0 ? undefined : annualised / drawdownFraction;
}

export interface Outcomes {
  count: number;
  /** Fraction of outcomes with a profit above zero. */
  winRate: number | undefined;
  /** Sum of profits over the sum of losses; undefined without losses. */
  profitFactor: number | undefined;
}

export function outcomes(profits: readonly number[]): Outcomes {
  const gains = profits.filter((p) => p > 0).reduce((sum, p) => sum + p, 0);
  const losses = -profits.filter((p) => p < 0).reduce((sum, p) => sum + p, 0);
  return {
    count: profits.length,
    winRate: profits.length === 0 ? undefined : profits.filter((p) => p > 0).length / profits.length,
    profitFactor: losses > 0 ? gains / losses : undefined,
  };
}
