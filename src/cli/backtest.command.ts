/**
 * `tradeloop backtest`: one automation on history, on the same engine and paper venue as live
 * trading. Bad input (flags, settings, data) is reported field by field with exit status 2 and
 * nothing is written; the reports are written only once the run has finished.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { BacktestResult } from '../backtest/backtest-result.ts';
import { prepareBacktest } from '../backtest/backtest-request.ts';
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
  through ccxt once and keeps them under DATA_DIR/candles. --json - prints the result on stdout.`;

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
    const prepared = prepareBacktest({
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
    });
    if (values.data !== undefined && values.exchange !== undefined) throw new BadInput('Give --data or --exchange, not both');
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

async function candles(request: CandleRequest, values: ReturnType<typeof parse>['values'], io: CommandIo): Promise<CandleSeries> {
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

async function writeOutputs(result: BacktestResult, series: CandleSeries, values: ReturnType<typeof parse>['values'], io: CommandIo) {
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
