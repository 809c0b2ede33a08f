/**
 * Backtests as background jobs of the server: a request is checked and its automation started
 * before it is accepted (bad input is answered at once, as the command line refuses it), then the
 * candles are walked in the background, progress stored every few percent, the result stored at
 * the end. Jobs still running when the server stops run again from the start when it starts.
 */
import type { Candle } from '../domain/market/candle.ts';
import type { EngineLogger } from '../engine/engine.ts';
import { ApiError, errors } from '../shared/errors.ts';
import type { BacktestRequest } from './backtest-request.ts';
import type { BacktestStore, StoredBacktest } from './backtest-store.ts';
import type { StartedBacktest } from './runner.ts';

/** Checks a request and starts its automation, ready to walk the candles. */
export type PrepareBacktest = (request: BacktestRequest, logger: EngineLogger) => Promise<StartedBacktest>;

export interface BacktestJobsOptions {
  store: BacktestStore;
  now: () => Date;
  logger: EngineLogger;
  /** The runner's by default. */
  prepare?: PrepareBacktest;
}

/** Progress is stored when it moved by this many points. */
const PROGRESS_STEP = 5;

export class BacktestJobs {
  private readonly active = new Map<number, { abort: AbortController; done: Promise<void> }>();
  private closing = false;

  private readonly prepare: PrepareBacktest;

  constructor(private readonly options: BacktestJobsOptions) {
    this.prepare = options.prepare ?? prepareBacktestRun;
  }

  /** Checks the request, starts the automation, stores the job and runs it in the background. */
  async start(userId: number, request: BacktestRequest): Promise<StoredBacktest> {
    const started = await this.prepare(request, this.options.logger);
    const job = await this.options.store.insert(userId, request, this.options.now()).catch(async (error: unknown) => {
      await started.close();
      throw error;
    });
    this.run(job.id, started);
    return job;
  }

  /** Runs again every job a stopped server left running. */
  async resume(): Promise<void> {
    for (const job of await this.options.store.running()) {
      try {
        this.run(job.id, await this.prepare(job.request, this.options.logger));
      } catch (error) {
        await this.options.store.end(job.id, { status: 'failed', error: errorBody(error) }, this.options.now());
      }
    }
  }

  async get(userId: number, id: number): Promise<StoredBacktest> {
    const job = await this.options.store.get(id);
    if (!job || job.userId !== userId) throw errors.notFound();
    return job;
  }

  /** The candles a backtest walks, merged into coarser ones where there are more than a chart draws. */
  async candles(userId: number, id: number): Promise<Candle[]> {
    const job = await this.get(userId, id);
    const [{ prepareBacktest }, { shippedCandles }, { coarsen }] = await Promise.all([
      import('./backtest-request.ts'),
      import('./candle-series.ts'),
      import('./html-report.ts'),
    ]);
    const series = shippedCandles(prepareBacktest(job.request).candles);
    return coarsen(series.candles, series.timeframeMs);
  }

  list(userId: number): Promise<StoredBacktest[]> {
    return this.options.store.list(userId);
  }

  /** Cancels a running backtest (it stays, cancelled); removes one that has ended. Answers it as it was. */
  async cancel(userId: number, id: number): Promise<StoredBacktest> {
    const job = await this.get(userId, id);
    const active = this.active.get(id);
    if (active) {
      active.abort.abort();
      await active.done;
      return this.get(userId, id);
    }
    if (job.status === 'running') await this.options.store.end(id, { status: 'cancelled' }, this.options.now());
    else await this.options.store.remove(id);
    return { ...job, status: job.status === 'running' ? 'cancelled' : job.status };
  }

  /** Resolves once no backtest runs. */
  async idle(): Promise<void> {
    while (this.active.size > 0) await Promise.all([...this.active.values()].map(({ done }) => done));
  }

  /** Stops every run without ending its job, so that the next start runs it again. */
  async close(): Promise<void> {
    this.closing = true;
    for (const { abort } of this.active.values()) abort.abort();
    await this.idle();
  }

  private run(id: number, started: StartedBacktest): void {
    const { store, now, logger } = this.options;
    const abort = new AbortController();
    let stored = 0;
    let saving: Promise<void> = Promise.resolve();
    const onProgress = ({ done, total }: { done: number; total: number }) => {
      const progress = Math.floor((done / total) * 100);
      if (progress - stored < PROGRESS_STEP || progress === 100) return;
      stored = progress;
      saving = saving.then(() => store.setProgress(id, progress, now()));
    };
    const done = started
      .run({ onProgress, signal: abort.signal, logger })
      .then(
        async (result) => {
          await saving;
          await store.end(id, { status: 'finished', result }, now());
        },
        async (error: unknown) => {
          await saving;
          if (abort.signal.aborted && this.closing) return;
          if (abort.signal.aborted) await store.end(id, { status: 'cancelled' }, now());
          else {
            if (!(error instanceof ApiError)) logger.error({ err: error, backtestId: id }, 'backtest failed');
            await store.end(id, { status: 'failed', error: errorBody(error) }, now());
          }
        },
      )
      .catch((error: unknown) => logger.error({ err: error, backtestId: id }, 'backtest could not be stored'))
      .finally(() => this.active.delete(id));
    this.active.set(id, { abort, done });
  }
}

/** The runner is loaded with the first backtest: the server starts without it. */
export async function prepareBacktestRun(request: BacktestRequest, logger: EngineLogger): Promise<StartedBacktest> {
  const [{ prepareBacktest }, { shippedCandles }, { startBacktest }] = await Promise.all([
    import('./backtest-request.ts'),
    import('./candle-series.ts'),
    import('./runner.ts'),
  ]);
  const prepared = prepareBacktest(request);
  return startBacktest({ ...prepared, series: shippedCandles(prepared.candles) }, logger);
}

function errorBody(error: unknown) {
  return error instanceof ApiError ? error.toBody() : { error: 'backtest_failed', error_description: 'The backtest stopped on an internal error' };
}
