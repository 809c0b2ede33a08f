/**
 * What request signing costs at the HTTP level: the unsigned GET /ver1/ping against the
 * HMAC-signed GET /ver1/validate (API key lookup, signature check, permission check) on the real
 * server. Goal: the signed route keeps at least 60 % of the unsigned rate.
 *
 * The load generator runs in a worker thread, so the server's event loop does only server work.
 * Each route gets half its time in two runs ordered unsigned, signed, signed, unsigned, so that a
 * change in background load during the benchmark weighs on both routes alike. The request is
 * constant, so its signature is computed once. The key cache expires every 10 s, so the signed
 * runs include the occasional database lookup that a long-lived client also causes.
 */
import { createHmac } from 'node:crypto';
import { autocannon, type LoadResult } from './support/autocannon.ts';
import type { Benchmark, BenchOutcome, BenchSettings } from './support/benchmark.ts';
import { startBenchServer } from './support/server.ts';

const CONNECTIONS = 50;
const WARMUP_SECONDS = 2;
const GOAL_RATIO = 0.6;
const PING_PATH = '/public/api/ver1/ping';
const VALIDATE_PATH = '/public/api/ver1/validate';

interface Target {
  label: string;
  url: string;
  headers: Record<string, string>;
}

/** The runs of one route added up. */
interface Totals {
  requests: number;
  seconds: number;
  /** The highest p99 of the runs. */
  p99Ms: number;
  non2xx: number;
  errors: number;
  nonSuccessCodes: Map<string, number>;
}

export const benchmark: Benchmark = {
  name: 'http-signing',
  description: 'requests/s of signed GET /ver1/validate against unsigned GET /ver1/ping',
  run,
};

async function run({ durationSeconds }: BenchSettings): Promise<BenchOutcome> {
  const server = await startBenchServer();
  try {
    await server.core.users.create('bench');
    const key = await server.core.apiKeys.create({
      userName: 'bench',
      name: 'http-signing benchmark',
      permissions: ['BOTS_READ'],
    });
    if (key.secret === undefined) throw new Error('an HMAC key was expected to come with a secret');
    const signature = createHmac('sha256', key.secret).update(VALIDATE_PATH).digest('hex');

    const unsigned: Target = { label: 'unsigned GET /ver1/ping', url: `${server.baseUrl}${PING_PATH}`, headers: {} };
    const signed: Target = {
      label: 'signed GET /ver1/validate',
      url: `${server.baseUrl}${VALIDATE_PATH}`,
      headers: { APIKEY: key.api_key, Signature: signature },
    };
    for (const target of [unsigned, signed]) await expectSuccess(target);

    const firstHalf = Math.ceil(durationSeconds / 2);
    const secondHalf = durationSeconds - firstHalf;
    console.log(
      `  ${CONNECTIONS} connections; ${durationSeconds} s measured per route ` +
        `(runs of ${secondHalf > 0 ? `${firstHalf} + ${secondHalf}` : firstHalf} s, ordered unsigned, signed, signed, unsigned) ` +
        `after ${WARMUP_SECONDS} s of warm-up per route`,
    );
    const unsignedRuns: LoadResult[] = [];
    const signedRuns: LoadResult[] = [];
    await warmUp(unsigned);
    unsignedRuns.push(await measure(unsigned, firstHalf));
    await warmUp(signed);
    signedRuns.push(await measure(signed, firstHalf));
    if (secondHalf > 0) {
      signedRuns.push(await measure(signed, secondHalf));
      unsignedRuns.push(await measure(unsigned, secondHalf));
    }

    const unsignedTotals = addUp(unsignedRuns);
    const signedTotals = addUp(signedRuns);
    printTable([
      [unsigned.label, unsignedTotals],
      [signed.label, signedTotals],
    ]);
    const ratio = rate(signedTotals) / rate(unsignedTotals);
    console.log(
      `  signed / unsigned: ${percent(ratio)} ` +
        `(goal: signed keeps at least ${percent(GOAL_RATIO)} of the unsigned rate): ${ratio >= GOAL_RATIO ? 'met' : 'NOT met'}`,
    );

    return {
      failures: [...problemsOf(unsigned.label, unsignedTotals), ...problemsOf(signed.label, signedTotals)],
    };
  } finally {
    await server.close();
  }
}

/** One request first, so that a broken route fails with its response rather than a count. */
async function expectSuccess(target: Target): Promise<void> {
  const response = await fetch(target.url, { headers: target.headers });
  const text = await response.text();
  if (response.status !== 200) {
    throw new Error(`${target.label} answered ${response.status}: ${text}`);
  }
}

async function warmUp(target: Target): Promise<void> {
  await measure(target, WARMUP_SECONDS);
}

function measure(target: Target, seconds: number): Promise<LoadResult> {
  return autocannon({
    title: target.label,
    url: target.url,
    headers: target.headers,
    connections: CONNECTIONS,
    duration: seconds,
    workers: 1,
  });
}

function addUp(results: LoadResult[]): Totals {
  const totals: Totals = { requests: 0, seconds: 0, p99Ms: 0, non2xx: 0, errors: 0, nonSuccessCodes: new Map() };
  for (const result of results) {
    totals.requests += result.requests.total;
    totals.seconds += result.duration;
    totals.p99Ms = Math.max(totals.p99Ms, result.latency.p99);
    totals.non2xx += result.non2xx;
    totals.errors += result.errors + result.timeouts;
    for (const [code, { count }] of Object.entries(result.statusCodeStats)) {
      if (!code.startsWith('2')) totals.nonSuccessCodes.set(code, (totals.nonSuccessCodes.get(code) ?? 0) + count);
    }
  }
  return totals;
}

function rate(totals: Totals): number {
  return totals.seconds > 0 ? totals.requests / totals.seconds : 0;
}

function problemsOf(label: string, totals: Totals): string[] {
  const problems: string[] = [];
  if (totals.non2xx > 0) {
    const codes = [...totals.nonSuccessCodes].map(([code, count]) => `${code} x${count}`).join(', ');
    problems.push(`${label}: ${totals.non2xx} non-2xx responses (${codes})`);
  }
  if (totals.errors > 0) problems.push(`${label}: ${totals.errors} connection errors or timeouts`);
  if (totals.requests === 0) problems.push(`${label}: no request completed`);
  return problems;
}

function printTable(rows: Array<[string, Totals]>): void {
  const header = ['route', 'req/s', 'max p99 ms', 'requests', 'non-2xx', 'errors'];
  const lines = rows.map(([label, totals]) => [
    label,
    rate(totals).toFixed(0),
    String(totals.p99Ms),
    String(totals.requests),
    String(totals.non2xx),
    String(totals.errors),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
  for (const line of [header, ...lines]) {
    const cells = line.map((cell, column) =>
      column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!),
    );
    console.log(`  ${cells.join('  ')}`);
  }
}

function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)} %`;
}
