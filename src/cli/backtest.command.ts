/**
 * `tradeloop backtest`: one automation on history, on the same engine and paper venue as live
 * trading. Bad input (flags, settings, data) is reported field by field with exit status 2 and
 * nothing is written; the reports are written only once the run has finished.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { BacktestResult } from '../backtest/backtest-result.ts';
import { type BacktestRequest, prepareBacktest } from '../backtest/backtest-request.ts';
import { type CandleRequest, candlesFromFile, type CandleSeries, shippedCandles } from '../backtest/candle-series.ts';
import { runBacktest } from '../backtest/runner.ts';
import { summaryTable } from '../backtest/summary-table.ts';
import { ApiError } from '../shared/errors.ts';
import { progressReporter, type ProgressOutput } from './backtest-progress.ts';

export const BACKTEST_USAGE = `Usage:
  tradeloop backtest --kind grid|dca|smart_trade --settings BOT.json --pair USDT_BTC --from 2019-01-01 --to 2019-03-31
      [--timeframe 1h] [--data FILE.csv | --exchange binance] [--allow-gaps] [--balances USDT:10000] [--fee 0.001] [--slippage-bps 5]
      [--out report.html] [--json result.json]
  BOT.json holds the body of the kind's create endpoint (POST /ver1/grid_bots/manual, POST /ver1/bots/create_bot,
  POST /v2/smart_trades). Without --data or --exchange the shipped candles are used; --exchange downloads them
  through ccxt once and keeps them under DATA_DIR/candles. --json - prints the result on stdout. --sweep runs one
  backtest per combination of settings ranges on every core and ranks them by net profit and by Calmar.`;

const OPTIONS = {
  kind: { type: 'string' },
  settings: { type: 'string' },
  pair: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  timeframe: { type: 'string' },
  data: { type: 'string' },
  exchange: { type: 'string' },
  'allow-gaps': { type: 'boolean' },
  balances: { type: 'string' },
  fee: { type: 'string' },
  'slippage-bps': { type: 'string' },
  out: { type: 'string' },
  json: { type: 'string' },
  sweep: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export interface CommandIo {
  stdout: ProgressOutput;
  stderr: ProgressOutput;
}

/** Exit status 2 with one readable message: what the user gave is wrong. */
class BadInput extends Error {}

export async function runBacktestCommand(argv: string[], io: CommandIo = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  try {
    const { values, positionals } = parse(argv);
    if (values.help) {
      io.stdout.write(`${BACKTEST_USAGE}\n`);
      return 0;
    }
    if (positionals.length > 0) throw new BadInput(`Unexpected argument "${positionals[0]}"`);
    const request = requestOf(values);
    const prepared = prepareBacktest(request);
    if (values.data !== undefined && values.exchange !== undefined) throw new BadInput('Give --data or --exchange, not both');
    if (values.sweep !== undefined) return await sweep(request, prepared.candles, values, io);
    const series = await candles(prepared.candles, values, io);
    const result = await runBacktest({ ...prepared, series }, { onProgress: progressReporter(io.stderr) });
    await writeOutputs(result, series, values, io);
    return 0;
  } catch (error) {
    if (error instanceof BadInput) {
      io.stderr.write(`${error.message}\n\n${BACKTEST_USAGE}\n`);
      return 2;
    }
    if (error instanceof ApiError) {
      io.stderr.write(`Backtest refused:\n${describe(error)}\n`);
      return 2;
    }
    if (error instanceof Error && error.name === 'DownloadError') {
      io.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

function parse(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new BadInput((error as Error).message);
  }
}

type Values = ReturnType<typeof parse>['values'];

function requestOf(values: Values): BacktestRequest {
  return {
    kind: values.kind,
    settings: values.settings === undefined ? undefined : readSettings(values.settings),
    pair: values.pair,
    from: values.from,
    to: values.to,
    timeframe: values.timeframe,
    balances: values.balances,
    fee: values.fee,
    slippage_bps: values['slippage-bps'],
    allow_gaps: values['allow-gaps'] ?? false,
  };
}

/** One backtest per combination, on every core; the ranked tables, and every outcome with --json. */
async function sweep(request: BacktestRequest, period: CandleRequest, values: Values, io: CommandIo): Promise<number> {
  if (values.exchange !== undefined || values.out !== undefined) throw new BadInput('--sweep runs on shipped candles or --data, and writes no --out report');
  const { runSweep, sweepCombinations, sweepTable } = await import('../backtest/sweep.ts');
  const combinations = sweepCombinations(values.sweep!);
  // The candles are checked once here, so a bad period is one message and not one per run.
  await candles(period, values, io);
  const started = performance.now();
  const outcomes = await runSweep({ request, data: values.data }, combinations, (done, total) => {
    if (io.stderr.isTTY) io.stderr.write(`\rsweep ${done}/${total}\x1b[K${done === total ? '\n' : ''}`);
    else if (done === total || done % Math.max(1, Math.round(total / 10)) === 0) io.stderr.write(`sweep ${done}/${total}\n`);
  });
  const seconds = (performance.now() - started) / 1000;
  const json = `${JSON.stringify(outcomes, null, 2)}\n`;
  if (values.json !== undefined && values.json !== '-') fs.writeFileSync(values.json, json);
  io.stdout.write(values.json === '-' ? json : `${sweepTable(outcomes)}\n\n${outcomes.length} backtests in ${seconds.toFixed(1)} s\n`);
  return 0;
}

async function candles(request: CandleRequest, values: Values, io: CommandIo): Promise<CandleSeries> {
  if (values.data !== undefined) return candlesFromFile(values.data, request);
  if (values.exchange === undefined) return shippedCandles(request);
  // ccxt takes seconds to load: only a download loads it.
  const { exchangeCandles } = await import('../backtest/exchange-candles.ts');
  return exchangeCandles(request, {
    exchange: values.exchange,
    cacheDir: path.resolve(process.env.DATA_DIR || 'data', 'candles'),
    onDownload: (month) => io.stderr.write(`downloading ${values.exchange} ${request.pair} candles of ${month}\n`),
  });
}

function readSettings(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new BadInput(`--settings ${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new BadInput(`--settings ${file} is not valid JSON: ${(error as Error).message}`);
  }
}

async function writeOutputs(result: BacktestResult, series: CandleSeries, values: Values, io: CommandIo) {
  const json = `${JSON.stringify(result, null, 2)}\n`;
  if (values.json !== undefined && values.json !== '-') fs.writeFileSync(values.json, json);
  if (values.out !== undefined) {
    const { renderReport } = await import('../backtest/html-report.ts');
    fs.writeFileSync(values.out, renderReport(result, series));
  }
  io.stdout.write(values.json === '-' ? json : `${summaryTable(result)}\n`);
}

/** An error's field messages, one line each. */
function describe(error: ApiError): string {
  if (!error.attributes) return `  ${error.description ?? error.code}`;
  return Object.entries(error.attributes)
    .map(([field, messages]) => `  ${field}: ${messages.join('; ')}`)
    .join('\n');
}
