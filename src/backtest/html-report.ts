/**
 * The backtest report as one self-contained HTML file: the figures, a candle chart with every fill
 * marked (buys below, sells above) and the orders still open at the end as price lines (a grid's
 * lines, a deal's safety orders and take profit), and the equity and drawdown curves. The charting
 * library (lightweight-charts) and the data are inlined, so the file opens without a network.
 * Long periods are drawn with coarser candles (at most MAX_CANDLES); the figures use every candle.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Candle } from '../domain/market/candle.ts';
import type { BacktestResult } from './backtest-result.ts';
import type { CandleSeries } from './candle-series.ts';
import { report } from './html-report.page.ts';

export const MAX_CANDLES = 5000;

let library: string | undefined;

/** The library's standalone build (a global `LightweightCharts`), beside the package.json its exports allow to resolve. */
function standaloneLibrary(): string {
  const packageJson = createRequire(import.meta.url).resolve('lightweight-charts/package.json');
  return fs.readFileSync(path.join(path.dirname(packageJson), 'dist/lightweight-charts.standalone.production.js'), 'utf8');
}

export interface ReportData {
  title: string;
  candles: Array<[number, number, number, number, number]>;
  markers: Array<{ time: number; side: 'buy' | 'sell'; role: string }>;
  lines: Array<{ price: number; side: 'buy' | 'sell'; role: string }>;
  equity: Array<[number, number]>;
  drawdown: Array<[number, number]>;
}

export function renderReport(result: BacktestResult, series: CandleSeries): string {
  library ??= standaloneLibrary();
  const candles = coarsen(series.candles, series.timeframeMs);
  const times = candles.map((candle) => candle.time.getTime());
  const data: ReportData = {
    title: `${result.kind} ${result.pair} ${result.from.slice(0, 10)} – ${result.to.slice(0, 10)}`,
    candles: candles.map((c) => [seconds(c.time.getTime()), c.open.toNumber(), c.high.toNumber(), c.low.toNumber(), c.close.toNumber()]),
    markers: result.fills.map((fill) => ({ time: seconds(times[barIndex(times, Date.parse(fill.at))]!), side: fill.side, role: fill.role })),
    lines: result.orders
      .filter((order) => order.status === 'open' && order.price !== null)
      .map((order) => ({ price: Number(order.price), side: order.side, role: order.role })),
    equity: result.series.equity.map(([at, value]) => [seconds(at), Number(value)]),
    drawdown: result.series.drawdown.map(([at, value]) => [seconds(at), Number(value)]),
  };
  return report(result, data, library);
}

const seconds = (ms: number) => Math.floor(ms / 1000);

/** Candles merged in groups so that at most MAX_CANDLES remain. */
export function coarsen(candles: Candle[], timeframeMs: number): Candle[] {
  const group = Math.ceil(candles.length / MAX_CANDLES);
  if (group <= 1) return candles;
  const bucketMs = group * timeframeMs;
  const merged: Candle[] = [];
  for (const candle of candles) {
    const bucket = Math.floor(candle.time.getTime() / bucketMs) * bucketMs;
    const last = merged[merged.length - 1];
    if (last && last.time.getTime() === bucket) {
      merged[merged.length - 1] = {
        ...last,
        high: last.high.gt(candle.high) ? last.high : candle.high,
        low: last.low.lt(candle.low) ? last.low : candle.low,
        close: candle.close,
        volume: last.volume.plus(candle.volume),
      };
    } else merged.push({ ...candle, time: new Date(bucket) });
  }
  return merged;
}

/** The index of the bar a time falls in: the last bar opening at or before it. */
function barIndex(times: number[], at: number): number {
  let low = 0;
  let high = times.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (times[middle]! <= at) low = middle;
    else high = middle - 1;
  }
  return low;
}
