/** The figures of a result as a two-column table for a terminal. */
import type { BacktestResult } from './backtest-result.ts';

const duration = (seconds: number | null) => {
  if (seconds === null) return '–';
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3_600);
  return days > 0 ? `${days}d ${hours}h` : `${hours}h ${Math.floor((seconds % 3_600) / 60)}m`;
};
const orDash = (text: string | null, suffix = '') => (text === null ? '–' : `${text}${suffix}`);

export function summaryTable(result: BacktestResult): string {
  const f = result.figures;
  const quote = result.pair.split('_')[0];
  const rows: Array<[string, string]> = [
    ['Period', `${result.from.slice(0, 16)} → ${result.to.slice(0, 16)} (${result.candles} × ${result.timeframe}, ${result.source})`],
    ['Start value', `${f.start_value} ${quote}`],
    ['End value', `${f.end_value} ${quote}`],
    ['Net profit', `${f.net_profit} ${quote} (${f.net_profit_percentage} %)`],
    ['Realised profit', `${f.realised_profit} ${quote}`],
    ['Annualised return', orDash(f.annualised_return_percentage, ' %')],
    ['Buy and hold', `${f.buy_and_hold_return_percentage} %`],
    ['Max drawdown', `${f.max_drawdown} ${quote} (${f.max_drawdown_percentage} %), longest ${duration(f.max_drawdown_duration_seconds)}`],
    ['Sharpe / Sortino / Calmar', [f.sharpe, f.sortino, f.calmar].map((x) => orDash(x)).join(' / ')],
    ['Win rate', orDash(f.win_rate_percentage, ' %')],
    ['Profit factor', orDash(f.profit_factor)],
    ['Fees paid', `${f.fees_paid} ${quote}`],
    ['Exposure', `${f.exposure_percentage} %`],
  ];
  if (result.kind === 'grid') rows.push(['Grid cycles', String(f.grid_cycles)]);
  if (result.kind === 'dca') {
    rows.push(['Deals', String(f.deals)], ['Max safety orders used', String(f.max_safety_orders_used)]);
  }
  if (result.kind === 'smart_trade') rows.push(['Trades', String(f.trades)]);
  if (result.kind !== 'grid') {
    rows.push(['Deal duration (avg / longest)', `${duration(f.average_deal_duration_seconds)} / ${duration(f.longest_deal_duration_seconds)}`]);
  }
  rows.push(['Orders / fills', `${result.orders.length} / ${result.fills.length}`]);
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join('\n');
}
