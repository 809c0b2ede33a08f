/**
 * A parameter sweep: one backtest per combination of settings ranges
 * (`lower_price=3000..3600:200,upper_price=4000..4600:200,grids_quantity=10..30:10`), run by worker
 * threads (one per core), then ranked by net profit and by Calmar. A combination the create
 * endpoint refuses is listed with its error and takes no rank.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { dec } from '../shared/decimal.ts';
import { errors, type ErrorBody } from '../shared/errors.ts';
import type { BacktestRequest } from './backtest-request.ts';
import type { Figures } from './backtest-result.ts';

export const MAX_SWEEP_RUNS = 1000;

export type SweepSettings = Record<string, string>;

export interface SweepJob {
  request: BacktestRequest;
  /** A CSV file to read instead of the shipped candles. */
  data?: string | undefined;
}

export interface SweepOutcome {
  settings: SweepSettings;
  figures?: Figures;
  error?: ErrorBody;
}

const RANGE = /^([a-z_]+)=(\d+(?:\.\d+)?)\.\.(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)$/;

/** Every combination of the ranges, in order; record_invalid naming `sweep` when the text is not ranges. */
export function sweepCombinations(text: string): SweepSettings[] {
  let combinations: SweepSettings[] = [{}];
  for (const part of text.split(',')) {
    const match = RANGE.exec(part.trim());
    if (!match) throw errors.recordInvalid({ sweep: [`"${part}" is not FIELD=FROM..TO:STEP (lower_price=3000..3600:200)`] });
    const [, field, from, to, step] = match as unknown as [string, string, string, string, string];
    if (dec(step).lte(0) || dec(from).gt(to)) throw errors.recordInvalid({ sweep: [`${field} needs FROM ≤ TO and a STEP above 0`] });
    const values: string[] = [];
    for (let value = dec(from); value.lte(to); value = value.plus(step)) values.push(value.toFixed());
    combinations = combinations.flatMap((combination) => values.map((value) => ({ ...combination, [field]: value })));
    if (combinations.length > MAX_SWEEP_RUNS) throw errors.recordInvalid({ sweep: [`makes more than ${MAX_SWEEP_RUNS} backtests`] });
  }
  return combinations;
}

/** Runs every combination over `job`'s settings, on one worker thread per core. */
export async function runSweep(
  job: SweepJob,
  combinations: SweepSettings[],
  onDone: (done: number, total: number) => void = () => undefined,
): Promise<SweepOutcome[]> {
  const outcomes: SweepOutcome[] = new Array(combinations.length);
  let next = 0;
  let done = 0;
  const workers = Math.max(1, Math.min(os.availableParallelism(), combinations.length));
  await Promise.all(
    Array.from({ length: workers }, async () => {
      const worker = new Worker(new URL('./sweep-worker-entry.mjs', import.meta.url));
      try {
        while (next < combinations.length) {
          const index = next++;
          const settings = combinations[index]!;
          const request = { ...job.request, settings: { ...(job.request.settings as object), ...settings } };
          outcomes[index] = { settings, ...(await ask(worker, { request, data: job.data })) };
          onDone(++done, combinations.length);
        }
      } finally {
        await worker.terminate();
      }
    }),
  );
  return outcomes;
}

function ask(worker: Worker, job: SweepJob): Promise<Omit<SweepOutcome, 'settings'>> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
    };
    const onMessage = (answer: Omit<SweepOutcome, 'settings'>) => {
      cleanup();
      resolve(answer);
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.postMessage(job);
  });
}

/** The outcomes with figures, best first by a figure (null last). */
export function ranked(outcomes: SweepOutcome[], figure: 'net_profit' | 'calmar'): SweepOutcome[] {
  const value = (outcome: SweepOutcome) => {
    const text = outcome.figures?.[figure];
    return text === null || text === undefined ? -Infinity : Number(text);
  };
  return outcomes.filter((outcome) => outcome.figures).sort((a, b) => value(b) - value(a));
}

export function sweepTable(outcomes: SweepOutcome[], rows = 10): string {
  const fields = [...new Set(outcomes.flatMap((outcome) => Object.keys(outcome.settings)))];
  const table = (figure: 'net_profit' | 'calmar', name: string) => {
    const list = ranked(outcomes, figure);
    const title = `Best ${Math.min(rows, list.length)} by ${name}`;
    const header = [...fields, 'net profit', 'net %', 'max dd %', 'Calmar', 'Sharpe', 'cycles'];
    const lines = list.slice(0, rows).map((outcome) => {
      const f = outcome.figures!;
      return [...fields.map((field) => outcome.settings[field] ?? '–'), f.net_profit, f.net_profit_percentage, f.max_drawdown_percentage, f.calmar ?? '–', f.sharpe ?? '–', String(f.grid_cycles || f.deals || f.trades)];
    });
    const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
    const format = (cells: string[]) => cells.map((cell, column) => cell.padStart(widths[column]!)).join('  ');
    return [title, format(header), ...lines.map(format)].join('\n');
  };
  const refused = outcomes.filter((outcome) => outcome.error);
  return [
    table('net_profit', 'net profit'),
    '',
    table('calmar', 'Calmar'),
    ...(refused.length > 0 ? ['', `${refused.length} combination(s) refused, e.g. ${JSON.stringify(refused[0]!.settings)}: ${JSON.stringify(refused[0]!.error)}`] : []),
  ].join('\n');
}
