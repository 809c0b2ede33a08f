/**
 * CPU time used by processes on this machine, read from /proc (Linux): the benchmark's engine
 * processes by pid, and PostgreSQL's processes by name, when the server runs on this machine. A
 * backend that exits between two readings takes its time with it, so PostgreSQL's is a lower bound.
 */
import fs from 'node:fs';
import os from 'node:os';

export interface CpuMark {
  at: number;
  processes: Map<number, { name: string; seconds: number }>;
}

const TICKS_PER_SECOND = 100;

/** Undefined where /proc cannot be read. */
export function markCpu(): CpuMark | undefined {
  if (!fs.existsSync('/proc/self/stat')) return undefined;
  const processes = new Map<number, { name: string; seconds: number }>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat) processes.set(Number(entry), stat);
  }
  return { at: performance.now(), processes };
}

/** Core-seconds used since `before` by these pids, and by processes named postgres. */
export function cpuSince(before: CpuMark, pids: readonly number[]): { wallSeconds: number; engines: number; postgres: number } {
  const after = markCpu()!;
  let engines = 0;
  let postgres = 0;
  for (const [pid, { name, seconds }] of after.processes) {
    const used = seconds - (before.processes.get(pid)?.seconds ?? 0);
    if (pids.includes(pid)) engines += used;
    else if (name.startsWith('postgres')) postgres += used;
  }
  return { wallSeconds: (after.at - before.at) / 1000, engines, postgres };
}

export function describeCpu(used: { wallSeconds: number; engines: number; postgres: number }): string {
  const share = (seconds: number) => `${Math.round((100 * seconds) / used.wallSeconds)} %`;
  return (
    `    CPU during the replay (share of one core): engine processes ${share(used.engines)}, PostgreSQL ${share(used.postgres)}, ` +
    `of ${os.availableParallelism()} cores`
  );
}

function readStat(pid: number): { name: string; seconds: number } | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, the 14th and 15th fields of the line (11th and 12th after the name).
    return { name, seconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND };
  } catch {
    return undefined;
  }
}
