/**
 * The CPU each test file spends, its own and that of the processes it starts and waits for
 * (servers, the command line). Files share the machine, so a file's wall time says as much about
 * what ran beside it as about the file; its CPU is what a change to it can save.
 */
import fs from 'node:fs';

export const CPU_FILE_VARIABLE = 'TRADELOOP_TEST_CPU_FILE';

/** Starts counting for `name`; the returned function appends what it spent to the run's CPU file. */
export function countCpu(name) {
  const file = process.env[CPU_FILE_VARIABLE];
  if (file === undefined) return () => {};
  const start = cpuSeconds();
  return () => {
    const end = cpuSeconds();
    fs.appendFileSync(file, `${JSON.stringify({ name, own: end.own - start.own, started: end.started - start.started })}\n`);
  };
}

/** What each file spent, by its name; empty when nothing was counted. */
export function readCpu(file) {
  const spent = new Map();
  if (file === undefined || !fs.existsSync(file)) return spent;
  for (const line of fs.readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const { name, own, started } = JSON.parse(line);
    spent.set(name, { own, started });
  }
  return spent;
}

function cpuSeconds() {
  const { user, system } = process.cpuUsage();
  return { own: (user + system) / 1e6, started: startedProcessesSeconds() };
}

/** Linux adds the CPU of waited-for child processes to /proc/self/stat (cutime, cstime: 1/100 s). */
function startedProcessesSeconds() {
  try {
    const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return 0;
  }
}
