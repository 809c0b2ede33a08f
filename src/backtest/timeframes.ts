/** Candle timeframes as written on the command line and in the API (`1m`, `5m`, `1h`, `4h`, `1d`). */
const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** The timeframe in milliseconds, or undefined when the text is not one. */
export function parseTimeframe(text: string): number | undefined {
  const match = /^([1-9]\d{0,3})([mhd])$/.exec(text);
  return match ? Number(match[1]) * UNITS[match[2]!]! : undefined;
}

export function formatTimeframe(ms: number): string {
  for (const unit of ['d', 'h', 'm']) {
    if (ms % UNITS[unit]! === 0) return `${ms / UNITS[unit]!}${unit}`;
  }
  return `${ms}ms`;
}
