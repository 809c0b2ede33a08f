/** Bars (profit per day or per cycle) and a running total, on one time axis. */
import { createChart, HistogramSeries, type IChartApi, type ISeriesApi, LineSeries, type UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef } from 'preact/hooks';
import { chartTime } from '../lib/format.ts';
import { CHART_LAYOUT, COLORS } from './chart-theme.ts';

export interface SeriesPoint {
  /** UTC seconds; ascending and unique. */
  time: number;
  value: number;
}

interface Props {
  bars: SeriesPoint[];
  total?: SeriesPoint[];
  label: string;
  /** Days on the axis rather than times. */
  daily?: boolean;
}

export function SeriesChart({ bars, total, label, daily = false }: Props) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<{ api: IChartApi; bars: ISeriesApi<'Histogram'>; total: ISeriesApi<'Line'> }>();

  useEffect(() => {
    const api = createChart(container.current!, {
      ...CHART_LAYOUT,
      autoSize: true,
      timeScale: { ...CHART_LAYOUT.timeScale, timeVisible: !daily },
    });
    chart.current = {
      api,
      bars: api.addSeries(HistogramSeries, { priceFormat: { type: 'price', precision: 2, minMove: 0.01 } }),
      total: api.addSeries(LineSeries, { color: COLORS.accent, lineWidth: 2, priceFormat: { type: 'price', precision: 2, minMove: 0.01 } }),
    };
    return () => api.remove();
  }, [daily]);

  useEffect(() => {
    const current = chart.current!;
    const at = (time: number) => (daily ? time : chartTime(time)) as UTCTimestamp;
    current.bars.setData(bars.map((p) => ({ time: at(p.time), value: p.value, color: p.value >= 0 ? COLORS.up : COLORS.down })));
    current.total.setData((total ?? []).map((p) => ({ time: at(p.time), value: p.value })));
    current.api.timeScale().fitContent();
  }, [bars, total, daily]);

  return (
    <figure class="chart chart-small" aria-label={label}>
      <div ref={container} class="chart-canvas" data-points={bars.length} />
      {bars.length === 0 && <figcaption class="chart-empty">No profit booked yet.</figcaption>}
    </figure>
  );
}
