/** The report's HTML: figures as a table, then the charts drawn by the inlined library from inlined data. */
import type { BacktestResult } from './backtest-result.ts';
import type { ReportData } from './html-report.ts';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** JSON inside a script element: `<` escaped so that no text in it can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

const LABELS: Array<[keyof BacktestResult['figures'], string, string?]> = [
  ['start_value', 'Start value', 'q'], ['end_value', 'End value', 'q'], ['net_profit', 'Net profit', 'q'],
  ['net_profit_percentage', 'Net profit', '%'], ['realised_profit', 'Realised profit', 'q'],
  ['annualised_return_percentage', 'Annualised return', '%'], ['buy_and_hold_return_percentage', 'Buy and hold', '%'],
  ['max_drawdown', 'Max drawdown', 'q'], ['max_drawdown_percentage', 'Max drawdown', '%'],
  ['max_drawdown_duration_seconds', 'Longest drawdown', 's'], ['sharpe', 'Sharpe'], ['sortino', 'Sortino'], ['calmar', 'Calmar'],
  ['win_rate_percentage', 'Win rate', '%'], ['profit_factor', 'Profit factor'], ['fees_paid', 'Fees paid', 'q'],
  ['grid_cycles', 'Grid cycles'], ['deals', 'Deals'], ['trades', 'Trades'],
  ['average_deal_duration_seconds', 'Average deal', 's'], ['longest_deal_duration_seconds', 'Longest deal', 's'],
  ['max_safety_orders_used', 'Max safety orders used'], ['exposure_percentage', 'Exposure', '%'],
];

function figureRows(result: BacktestResult): string {
  const quote = result.pair.split('_')[0]!;
  const shown = (value: string | number | null, unit?: string) => {
    if (value === null) return '–';
    if (unit === 'q') return `${value} ${quote}`;
    if (unit === '%') return `${value} %`;
    if (unit === 's') return `${(Number(value) / 86_400).toFixed(1)} days`;
    return String(value);
  };
  // Counts of other kinds, and deal figures a grid does not have, are left out.
  const otherKinds = (key: string) =>
    (['grid_cycles', 'deals', 'trades'].includes(key) && result.figures[key as 'deals'] === 0) ||
    (['average_deal_duration_seconds', 'longest_deal_duration_seconds', 'max_safety_orders_used'].includes(key) && result.figures[key as 'deals'] === null);
  return LABELS.filter(([key]) => !otherKinds(key))
    .map(([key, label, unit]) => `<tr><th>${escape(label)}</th><td>${escape(shown(result.figures[key], unit))}</td></tr>`)
    .join('');
}

const DRAW = `
const data = JSON.parse(document.getElementById('report-data').textContent);
const L = LightweightCharts;
const base = { layout: { background: { color: '#ffffff' }, textColor: '#1f2933' }, timeScale: { timeVisible: true }, autoSize: true };
const candleChart = L.createChart(document.getElementById('candles'), base);
const candles = candleChart.addSeries(L.CandlestickSeries, {});
candles.setData(data.candles.map(([time, open, high, low, close]) => ({ time, open, high, low, close })));
const label = { grid_line: '', balancing: 'bal', base: 'BO', safety: 'SO', take_profit: 'TP', stop_loss: 'SL' };
const withText = data.markers.length <= 300;
const markers = L.createSeriesMarkers(candles, data.markers.map((m) => ({
  time: m.time,
  position: m.side === 'buy' ? 'belowBar' : 'aboveBar',
  shape: m.side === 'buy' ? 'arrowUp' : 'arrowDown',
  color: m.side === 'buy' ? '#1b873f' : '#c62828',
  text: withText ? (label[m.role] ?? m.role) : '',
})));
for (const line of data.lines) {
  candles.createPriceLine({ price: line.price, color: line.side === 'buy' ? '#1b873f' : '#c62828', lineWidth: 1,
    lineStyle: L.LineStyle.Dotted, axisLabelVisible: false, title: label[line.role] ?? line.role });
}
candleChart.timeScale().fitContent();
document.getElementById('candles').dataset.markers = String(markers.markers().length);
const equityChart = L.createChart(document.getElementById('equity'), base);
equityChart.addSeries(L.AreaSeries, { lineColor: '#1f6feb', topColor: 'rgba(31,111,235,0.3)', bottomColor: 'rgba(31,111,235,0.02)' })
  .setData(data.equity.map(([time, value]) => ({ time, value })));
equityChart.timeScale().fitContent();
const drawdownChart = L.createChart(document.getElementById('drawdown'), base);
drawdownChart.addSeries(L.AreaSeries, { lineColor: '#c62828', topColor: 'rgba(198,40,40,0.02)', bottomColor: 'rgba(198,40,40,0.3)', invertFilledArea: true })
  .setData(data.drawdown.map(([time, value]) => ({ time, value })));
drawdownChart.timeScale().fitContent();
document.body.dataset.ready = 'true';
`;

export function report(result: BacktestResult, data: ReportData, library: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Backtest: ${escape(data.title)}</title>
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #1f2933; }
  h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 24px 0 8px; }
  .meta { color: #52606d; margin-bottom: 16px; }
  table { border-collapse: collapse; } th { text-align: left; font-weight: 500; padding: 2px 16px 2px 0; color: #52606d; }
  td { text-align: right; font-variant-numeric: tabular-nums; }
  .chart { height: 420px; } .small { height: 220px; }
</style>
</head>
<body>
<h1>Backtest: ${escape(data.title)}</h1>
<div class="meta">${result.candles} candles of ${escape(result.timeframe)} from ${escape(result.source)}; fee ${escape(result.fee)},
slippage ${result.slippage_bps} bps; ${result.orders.length} orders, ${result.fills.length} fills.</div>
<table id="figures">${figureRows(result)}</table>
<h2>Candles, fills (▲ buy, ▼ sell) and the orders open at the end</h2>
<div id="candles" class="chart"></div>
<h2>Equity (${escape(result.pair.split('_')[0]!)})</h2>
<div id="equity" class="chart small"></div>
<h2>Drawdown (%)</h2>
<div id="drawdown" class="chart small"></div>
<script id="report-data" type="application/json">${scriptJson(data)}</script>
<script>${library.replace(/<\/script/gi, '<\\/script')}</script>
<script>${DRAW}</script>
</body>
</html>
`;
}
