/**
 * Runs the benchmarks: every module directly in bench/ (this one aside) that exports `benchmark`
 * as described in support/benchmark.ts, one after the other in file-name order. Arguments name the
 * ones to run (`npm run bench -- http-signing`). Exits with status 1 when any fails or throws.
 * Started by run.mjs, which loads each module compiled.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isBenchmark, readSettings, type Benchmark, type BenchSettings } from './support/benchmark.ts';
import { delayedRelay } from './support/delayed-relay.ts';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const thisFile = path.basename(fileURLToPath(import.meta.url));

/** Loads a module of bench/ by its source file's path. */
export type LoadModule = (sourceFile: string) => Promise<unknown>;

async function loadBenchmarks(load: LoadModule): Promise<Benchmark[]> {
  const files = fs
    .readdirSync(benchDir)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && file !== thisFile)
    .sort();
  const benchmarks: Benchmark[] = [];
  for (const file of files) {
    const loaded = await load(path.join(benchDir, file));
    const candidate = (loaded as { benchmark?: unknown }).benchmark;
    if (!isBenchmark(candidate)) throw new Error(`bench/${file} does not export a \`benchmark\``);
    benchmarks.push(candidate);
  }
  return benchmarks;
}

export async function main(load: LoadModule): Promise<number> {
  let settings: BenchSettings;
  try {
    settings = readSettings(process.env);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  }
  const all = await loadBenchmarks(load);
  const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
  const unknown = wanted.filter((name) => !all.some((benchmark) => benchmark.name === name));
  if (unknown.length > 0) {
    console.error(`Unknown benchmark: ${unknown.join(', ')}. Known: ${all.map((b) => b.name).join(', ')}`);
    return 1;
  }
  const selected = wanted.length === 0 ? all : all.filter((benchmark) => wanted.includes(benchmark.name));

  const relay = await relayDatabase();
  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
  console.log(`node ${process.version}, ${os.availableParallelism()} CPUs (${cpu}), ${os.platform()} ${os.release()}`);
  // Other work on the machine moves the figures; the load average shows how much there was.
  console.log(`load average before: ${loadAverage()}`);
  const failed: string[] = [];
  for (const benchmark of selected) {
    console.log(`\n${benchmark.name}: ${benchmark.description}`);
    try {
      const { failures } = await benchmark.run(settings);
      for (const failure of failures) console.error(`  FAILED ${failure}`);
      if (failures.length > 0) failed.push(benchmark.name);
    } catch (error) {
      console.error(`  FAILED ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      failed.push(benchmark.name);
    }
  }
  await relay?.close();
  console.log(`\nload average after: ${loadAverage()}`);
  console.log(failed.length === 0 ? 'All benchmarks passed.' : `Failed: ${failed.join(', ')}`);
  return failed.length === 0 ? 0 : 1;
}

/** With BENCH_PG_DELAY_MS, every benchmark reaches DATABASE_URL through a relay that delays it. */
async function relayDatabase(): Promise<{ close(): Promise<void> } | undefined> {
  const raw = process.env.BENCH_PG_DELAY_MS?.trim();
  if (!raw) return undefined;
  const delayMs = Number(raw);
  if (!(delayMs >= 0 && delayMs <= 100) || !process.env.DATABASE_URL) throw new Error(`BENCH_PG_DELAY_MS needs DATABASE_URL and milliseconds from 0 to 100, got "${raw}"`);
  const relay = await delayedRelay(new URL(process.env.DATABASE_URL), delayMs);
  process.env.DATABASE_URL = relay.url;
  console.log(`PostgreSQL through a relay on 127.0.0.1 that holds each chunk ${delayMs} ms each way`);
  return relay;
}

function loadAverage(): string {
  return os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
}
