/** One thread of a sweep: runs the backtests it is sent, one at a time, and answers their figures. */
import { parentPort } from 'node:worker_threads';
import { ApiError } from '../shared/errors.ts';
import { prepareBacktest } from './backtest-request.ts';
import { candlesFromFile, shippedCandles } from './candle-series.ts';
import { runBacktest } from './runner.ts';
import type { SweepJob } from './sweep.ts';

parentPort!.on('message', async (job: SweepJob) => {
  try {
    const prepared = prepareBacktest(job.request);
    const series = job.data === undefined ? shippedCandles(prepared.candles) : candlesFromFile(job.data, prepared.candles);
    const result = await runBacktest({ ...prepared, series });
    parentPort!.postMessage({ figures: result.figures });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    parentPort!.postMessage({ error: error.toBody() });
  }
});
