/** One value over time drawn as a filled curve: a backtest's equity, or its drawdown below zero. */
import { AreaSeries, createChart, type UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef } from 'preact/hooks';
import { chartTime } from '../lib/format.ts';
import { CHART_LAYOUT } from './chart-theme.ts';
import type { SeriesPoint } from './series-chart.tsx';

interface Props {
  points: SeriesPoint[];
  color: string;
  label: string;
  /** Decimal places on the value axis. */
  precision: number;
}

export function CurveChart({ points, color, label, precision }: Props) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const api = createChart(container.current!, { ...CHART_LAYOUT, autoSize: true });
    const minMove = 10 ** -precision;
    const series = api.addSeries(AreaSeries, {
      lineColor: color,
      topColor: `${color}55`,
      bottomColor: `${color}08`,
      lineWidth: 2,
      priceFormat: { type: 'price', precision, minMove },
    });
    series.setData(points.map((point) => ({ time: chartTime(point.time) as UTCTimestamp, value: point.value })));
    api.timeScale().fitContent();
    return () => api.remove();
  }, [points, color, precision]);
  return (
    <figure class="chart chart-small" aria-label={label}>
      <div ref={container} class="chart-canvas" data-points={points.length} />
    </figure>
  );
}
