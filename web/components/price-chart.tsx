/**
 * A candle chart with horizontal price lines (grid lines, orders, targets) and markers (fills).
 * The chart is created once; new data replaces the series' contents without resetting the view
 * the person scrolled to. Times arrive as UTC seconds and are drawn in the browser's zone.
 */
import {
  type AutoscaleInfo,
  CandlestickSeries,
  createChart,
  createSeriesMarkers,
  type IChartApi,
  type IPriceLine,
  type ISeriesApi,
  type ISeriesMarkersPluginApi,
  LineStyle,
  type SeriesMarker,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useRef } from 'preact/hooks';
import { chartTime, stepDecimals } from '../lib/format.ts';
import { CHART_LAYOUT, COLORS } from './chart-theme.ts';

export interface ChartCandle {
  time: number;
  open: string;
  high: string;
  low: string;
  close: string;
}

export interface ChartLine {
  price: string;
  color: string;
  title: string;
  dashed?: boolean;
}

export interface ChartFill {
  /** UTC seconds. */
  time: number;
  side: 'buy' | 'sell';
}

interface Props {
  candles: ChartCandle[];
  lines: ChartLine[];
  fills: ChartFill[];
  priceStep: string | undefined;
  label: string;
  /** A new value (another pair or interval) fits the view to the data again. */
  viewKey?: string;
}

export function PriceChart({ candles, lines, fills, priceStep, label, viewKey = '' }: Props) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<{ api: IChartApi; series: ISeriesApi<'Candlestick'>; markers: ISeriesMarkersPluginApi<Time>; fitted: string | undefined }>();
  const priceLines = useRef<IPriceLine[]>([]);
  /** The lines' prices, which the price scale widens to show even when the candles stay far from them. */
  const linePrices = useRef<number[]>([]);

  useEffect(() => {
    const api = createChart(container.current!, { ...CHART_LAYOUT, autoSize: true });
    const series = api.addSeries(CandlestickSeries, {
      upColor: COLORS.up,
      downColor: COLORS.down,
      wickUpColor: COLORS.up,
      wickDownColor: COLORS.down,
      borderVisible: false,
      autoscaleInfoProvider: (candleRange: () => AutoscaleInfo | null) => {
        const found = candleRange();
        const prices = linePrices.current;
        if (prices.length === 0) return found;
        const min = Math.min(...prices, found?.priceRange?.minValue ?? Infinity);
        const max = Math.max(...prices, found?.priceRange?.maxValue ?? -Infinity);
        return { ...found, priceRange: { minValue: min, maxValue: max } };
      },
    });
    chart.current = { api, series, markers: createSeriesMarkers(series, []), fitted: undefined };
    return () => {
      api.remove();
      chart.current = undefined;
    };
  }, []);

  useEffect(() => {
    const current = chart.current!;
    const places = stepDecimals(priceStep);
    current.series.applyOptions({ priceFormat: { type: 'price', precision: places, minMove: Number(priceStep ?? '0.00000001') } });
    current.series.setData(
      candles.map((c) => ({ time: chartTime(c.time) as UTCTimestamp, open: +c.open, high: +c.high, low: +c.low, close: +c.close })),
    );
    current.markers.setMarkers(fillMarkers(fills, candles));
    if (current.fitted !== viewKey && candles.length > 0) {
      current.api.timeScale().fitContent();
      current.fitted = viewKey;
    }
  }, [candles, fills, priceStep, viewKey]);

  useEffect(() => {
    const series = chart.current!.series;
    linePrices.current = lines.map((line) => Number(line.price));
    for (const line of priceLines.current) series.removePriceLine(line);
    priceLines.current = lines.map((line) =>
      series.createPriceLine({
        price: Number(line.price),
        color: line.color,
        lineWidth: 1,
        lineStyle: line.dashed ? LineStyle.Dashed : LineStyle.Solid,
        axisLabelVisible: true,
        title: line.title,
      }),
    );
    chart.current!.api.priceScale('right').applyOptions({ autoScale: true });
  }, [lines]);

  return (
    <figure class="chart" aria-label={label}>
      <div ref={container} class="chart-canvas" data-candles={candles.length} data-fills={fills.length} />
      {candles.length === 0 && <figcaption class="chart-empty">No candles for this pair yet.</figcaption>}
    </figure>
  );
}

/**
 * One marker per candle and side, counting its fills: markers must sit on a candle, and
 * thousands of single arrows would hide the candles and slow the chart down.
 */
function fillMarkers(fills: ChartFill[], candles: ChartCandle[]): SeriesMarker<Time>[] {
  const counts = new Map<string, { time: number; side: ChartFill['side']; count: number }>();
  const first = candles[0]?.time;
  for (const fill of fills) {
    // Before the first candle the chart has no place for it.
    if (first === undefined || fill.time < first) continue;
    const time = candleStartAtOrBefore(candles, fill.time);
    const key = `${time}:${fill.side}`;
    const found = counts.get(key);
    if (found) found.count++;
    else counts.set(key, { time, side: fill.side, count: 1 });
  }
  return [...counts.values()]
    .sort((a, b) => a.time - b.time)
    .map(({ time, side, count }) => {
      const buy = side === 'buy';
      return {
        time: chartTime(time) as UTCTimestamp,
        position: buy ? 'belowBar' : 'aboveBar',
        shape: buy ? 'arrowUp' : 'arrowDown',
        color: buy ? COLORS.up : COLORS.down,
        text: `${buy ? 'B' : 'S'}${count > 1 ? ` ${count}` : ''}`,
      };
    });
}

function candleStartAtOrBefore(candles: ChartCandle[], time: number): number {
  let low = 0;
  let high = candles.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >>> 1;
    if (candles[middle]!.time <= time) low = middle;
    else high = middle - 1;
  }
  return candles[low]!.time;
}
