import { ColorType, type DeepPartial, type ChartOptions } from 'lightweight-charts';

export const COLORS = {
  up: '#1a7f37',
  down: '#cf222e',
  accent: '#1f6feb',
  muted: '#8c959f',
  warning: '#bf8700',
};

export const CHART_LAYOUT: DeepPartial<ChartOptions> = {
  layout: { background: { type: ColorType.Solid, color: '#ffffff' }, textColor: '#24292f', fontSize: 12 },
  grid: { vertLines: { color: '#eaeef2' }, horzLines: { color: '#eaeef2' } },
  rightPriceScale: { borderColor: '#d0d7de' },
  timeScale: { borderColor: '#d0d7de', timeVisible: true, secondsVisible: false },
  crosshair: { mode: 0 },
};
