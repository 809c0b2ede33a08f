/**
 * autocannon ships without type declarations; this loads it through createRequire and types the
 * part of its programmatic API the benchmarks use (see node_modules/autocannon/README.md).
 */
import { createRequire } from 'node:module';

export interface LoadOptions {
  url: string;
  connections?: number;
  /** Seconds. */
  duration?: number;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  /** Runs the load generator in this many worker threads instead of the calling thread. */
  workers?: number;
  title?: string;
}

/** Percentiles are keyed like p50, p97_5, p99; latencies are in milliseconds. */
export interface Distribution {
  average: number;
  mean: number;
  stddev: number;
  min: number;
  max: number;
  p50: number;
  p90: number;
  p99: number;
  [percentile: `p${string}`]: number;
}

export interface LoadResult {
  title?: string;
  url: string;
  connections: number;
  /** Seconds actually run. */
  duration: number;
  /** Requests per second, one sample per second. */
  requests: Distribution & { total: number; sent: number };
  latency: Distribution & { totalCount: number };
  errors: number;
  timeouts: number;
  mismatches: number;
  resets: number;
  non2xx: number;
  '2xx': number;
  statusCodeStats: Record<string, { count: number }>;
}

type Autocannon = (options: LoadOptions) => Promise<LoadResult>;

const require = createRequire(import.meta.url);

export const autocannon = require('autocannon') as Autocannon;
