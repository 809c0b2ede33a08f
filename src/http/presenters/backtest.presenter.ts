import type { StoredBacktest } from '../../backtest/backtest-store.ts';

/** A backtest job; `result` (the command line's `--json`) only when it finished and was asked for. */
export function presentBacktest(job: StoredBacktest) {
  const { request } = job;
  return {
    id: job.id,
    status: job.status,
    progress: job.progress,
    kind: request.kind,
    pair: request.pair,
    from: request.from,
    to: request.to,
    timeframe: request.timeframe ?? null,
    created_at: job.createdAt.toISOString(),
    updated_at: job.updatedAt.toISOString(),
    finished_at: job.finishedAt?.toISOString() ?? null,
    error: job.error,
    ...(job.result ? { result: job.result } : {}),
  };
}
