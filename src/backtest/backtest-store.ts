/** The port through which backtest jobs are kept (src/store/backtests.repository.ts implements it). */
import type { ErrorBody } from '../shared/errors.ts';
import type { BacktestRequest } from './backtest-request.ts';
import type { BacktestResult } from './backtest-result.ts';

export type BacktestStatus = 'running' | 'finished' | 'failed' | 'cancelled';

export interface StoredBacktest {
  id: number;
  userId: number;
  status: BacktestStatus;
  /** 0 to 100. */
  progress: number;
  request: BacktestRequest;
  /** Present once finished, and only where asked for. */
  result?: BacktestResult;
  error: ErrorBody | null;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
}

export type BacktestEnd =
  | { status: 'finished'; result: BacktestResult }
  | { status: 'failed'; error: ErrorBody }
  | { status: 'cancelled' };

export interface BacktestStore {
  insert(userId: number, request: BacktestRequest, at: Date): Promise<StoredBacktest>;
  setProgress(id: number, progress: number, at: Date): Promise<void>;
  /** Ends a running backtest; false when it was not running any more. */
  end(id: number, end: BacktestEnd, at: Date): Promise<boolean>;
  /** With its result. */
  get(id: number): Promise<StoredBacktest | undefined>;
  /** Newest first, without results. */
  list(userId: number): Promise<StoredBacktest[]>;
  /** Every backtest still marked running, oldest first. */
  running(): Promise<StoredBacktest[]>;
  remove(id: number): Promise<void>;
}
