/**
 * A year of 1-minute candles through a backtest of one grid bot of 100 lines and one DCA bot with
 * 10 safety orders, next to a bare loop over the same ticks in the same run: candles per second,
 * the ratio to the bare loop, the whole time, and the heap after a full collection at each tenth.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import type { BacktestResult } from '../src/backtest/backtest-result.ts';
import type { CandleSeries } from '../src/backtest/candle-series.ts';
import { runBacktest } from '../src/backtest/runner.ts';
import { intraCandlePath } from '../src/domain/market/candle.ts';
import { dec, ZERO } from '../src/shared/decimal.ts';
import type { Benchmark } from './support/benchmark.ts';
import { minuteCandles } from './support/minute-candles.ts';

v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

const DAYS = Number(process.env.BENCH_BACKTEST_DAYS ?? 365);
const FROM = new Date('2018-01-01T00:00:00Z');

const GRID = { lower_price: '3000', upper_price: '17000', grids_quantity: 100, quantity_per_grid: '0.01' };
const DCA = {
  name: 'bench', base_order_volume: '100', base_order_volume_type: 'quote_currency', start_order_type: 'market',
  take_profit: '1.5', take_profit_type: 'total', safety_order_volume: '100', safety_order_step_percentage: '1.5',
  martingale_volume_coefficient: '1.2', martingale_step_coefficient: '1.1', max_safety_orders: 10, active_safety_orders_count: 2,
  strategy_list: [{ strategy: 'nonstop', options: {} }],
};

/** The same ticks, walked with nothing behind them but counting the grid lines they cross. */
function bareLoop(series: CandleSeries): number {
  const lines = Array.from({ length: 100 }, (_, k) => 3000 + k * 140);
  let crossings = 0;
  let last = series.candles[0]!.open.toNumber();
  for (const candle of series.candles) {
    for (const point of intraCandlePath(candle, series.timeframeMs)) {
      const price = point.price.toNumber();
      for (const line of lines) if ((line - last) * (line - price) <= 0) crossings++;
      last = price;
    }
  }
  return crossings;
}

/** CPU seconds this process used (every thread), which other work on the machine hardly moves. */
function cpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

async function measured(kind: 'grid' | 'dca', series: CandleSeries) {
  const heapMb: number[] = [];
  let nextTenth = 0.1;
  let gcMs = 0;
  let gcCpu = 0;
  const cpuStarted = cpuSeconds();
  const started = performance.now();
  const result: BacktestResult = await runBacktest(
    { kind, settings: kind === 'grid' ? GRID : DCA, series, balances: [{ currency: 'USDT', free: dec(100_000), locked: ZERO }], fee: dec('0.001'), slippageBasisPoints: 5 },
    {
      onProgress: ({ done, total }) => {
        if (done / total + 1e-9 < nextTenth) return;
        nextTenth += 0.1;
        const gcStarted = performance.now();
        const gcCpuStarted = cpuSeconds();
        collectGarbage();
        gcMs += performance.now() - gcStarted;
        gcCpu += cpuSeconds() - gcCpuStarted;
        heapMb.push(Math.round(process.memoryUsage().heapUsed / 1e6));
      },
    },
  );
  return { result, seconds: (performance.now() - started - gcMs) / 1000, cpu: cpuSeconds() - cpuStarted - gcCpu, heapMb };
}

export const benchmark: Benchmark = {
  name: 'backtest',
  description: `backtests of a grid bot (100 lines) and a DCA bot (10 safety orders) over ${DAYS} days of 1-minute candles built from real hourly returns, against a bare loop over the same ticks`,
  async run() {
    const failures: string[] = [];
    const candles = minuteCandles(FROM, DAYS);
    const series: CandleSeries = { pair: 'USDT_BTC', timeframeMs: 60_000, candles, source: 'minutes from coinbase-BTCUSD-1h', missing: 0 };
    collectGarbage();
    const baseHeap = Math.round(process.memoryUsage().heapUsed / 1e6);
    console.log(`  ${candles.length} candles (${candles.length * 4} ticks), heap with the candles ${baseHeap} MB`);
    const bareStarted = performance.now();
    const bareCpuStarted = cpuSeconds();
    const crossings = bareLoop(series);
    const bareRate = candles.length / ((performance.now() - bareStarted) / 1000);
    const bareCpuRate = candles.length / (cpuSeconds() - bareCpuStarted);
    console.log(`  bare loop: ${Math.round(bareRate)} candles/s, ${Math.round(bareCpuRate)} per CPU second (${crossings} line crossings)`);
    for (const kind of ['grid', 'dca'] as const) {
      const { result, seconds, cpu, heapMb } = await measured(kind, series);
      const rate = candles.length / seconds;
      const cpuRate = candles.length / cpu;
      console.log(
        `  ${kind.padEnd(4)}: ${Math.round(rate)} candles/s, ${(rate / bareRate).toFixed(5)}× bare, ${seconds.toFixed(1)} s for the period; ` +
          `per CPU second ${Math.round(cpuRate)} candles, ${(cpuRate / bareCpuRate).toFixed(5)}× bare, ${cpu.toFixed(1)} CPU s; ` +
          `${result.orders.length} orders, ${result.fills.length} fills, net ${result.figures.net_profit} USDT; heap after GC at each tenth (MB): ${heapMb.join(' ')}`,
      );
      if (result.fills.length === 0) failures.push(`${kind}: nothing filled`);
    }
    return { failures };
  },
};
