/** The contract between bench/run.ts and each benchmark module in bench/. */

export interface Benchmark {
  /** Short name used on the command line: `npm run bench -- <name>`. */
  name: string;
  description: string;
  /** Prints its own figures; failures make `npm run bench` exit with status 1. */
  run(settings: BenchSettings): Promise<BenchOutcome>;
}

export interface BenchOutcome {
  /** Empty when the run counts as passed. */
  failures: string[];
}

export interface BenchSettings {
  /** Measured seconds per load run (BENCH_DURATION, default 10). */
  durationSeconds: number;
}

export function readSettings(env: NodeJS.ProcessEnv): BenchSettings {
  const raw = env.BENCH_DURATION?.trim();
  const durationSeconds = raw === undefined || raw === '' ? 10 : Number(raw);
  if (!Number.isInteger(durationSeconds) || durationSeconds < 1 || durationSeconds > 3600) {
    throw new Error(`BENCH_DURATION must be a whole number of seconds from 1 to 3600, got "${raw}"`);
  }
  return { durationSeconds };
}

export function isBenchmark(value: unknown): value is Benchmark {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Benchmark>;
  return (
    typeof candidate.name === 'string' &&
    typeof candidate.description === 'string' &&
    typeof candidate.run === 'function'
  );
}

/**
 * BENCH_SCALE (a fraction from 0.01 to 1, default 1) scales the engine benchmarks' populations
 * for a quick run: `count` automations become `count × scale`, at least `minimum`.
 */
export function scaled(count: number, minimum = 2): number {
  const raw = process.env.BENCH_SCALE?.trim();
  const scale = raw === undefined || raw === '' ? 1 : Number(raw);
  if (!(scale >= 0.01 && scale <= 1)) throw new Error(`BENCH_SCALE must be a fraction from 0.01 to 1, got "${raw}"`);
  return Math.max(minimum, Math.round(count * scale));
}
