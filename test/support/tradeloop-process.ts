/** Runs bin/tradeloop.js as child processes, with an environment that holds only what a test sets. */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(ROOT, 'bin/tradeloop.js');

/** Settings the tests choose themselves; inherited ones would make results depend on the shell. */
const CONTROLLED = [
  'PORT', 'HOST', 'DATA_DIR', 'DATABASE_URL', 'TRADELOOP_MASTER_KEY', 'LOG_LEVEL',
  'RATE_LIMIT_PER_MINUTE', 'NODE_TEST_CONTEXT', 'NODE_OPTIONS',
];

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunningServer {
  port: number;
  pid: number;
  /** Sends `signal` without waiting for an exit (SIGSTOP, SIGCONT). */
  signal(signal: NodeJS.Signals): void;
  /** Everything the server wrote so far, stdout and stderr. */
  output(): string;
  stop(signal: NodeJS.Signals): Promise<number | null>;
  /** Sends `signal` the moment the output shows `text` (from the chunk that brings it, no polling). */
  stopOn(text: string, signal: NodeJS.Signals): Promise<number | null>;
}

/**
 * A server of its own for a test that kills it: its data directory, any free port, ticks posted
 * through the API (the manual paper feed), no rate limit, a master key of its own.
 */
export function serverEnv(dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    PORT: '0',
    PAPER_FEED: 'manual',
    LOG_LEVEL: 'info',
    RATE_LIMIT_PER_MINUTE: '0',
    TRADELOOP_MASTER_KEY: randomBytes(32).toString('hex'),
    ...extra,
  };
}

/** One per suite: `killAll` in an after hook ends whatever a failed or timed-out test left running. */
export class TradeloopProcesses {
  private readonly running = new Set<ChildProcess>();

  killAll(): void {
    for (const child of this.running) child.kill('SIGKILL');
  }

  run(args: string[], env: Record<string, string>): Promise<CliResult> {
    const child = this.spawn(args, env);
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    return new Promise((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  /** Starts `tradeloop serve`; resolves once it logs "Tradeloop is listening", rejects if it exits first. */
  async serve(env: Record<string, string>): Promise<RunningServer> {
    const started = await this.serveUntil(env, (output) => output.split('\n').some((line) => listeningPort(line) !== undefined));
    const port = started.output().split('\n').map(listeningPort).find((found) => found !== undefined)!;
    return { ...started, port };
  }

  /** Starts `tradeloop serve`; resolves once its output passes `ready`, rejects if it exits first. */
  serveUntil(env: Record<string, string>, ready: (output: string) => boolean): Promise<Omit<RunningServer, 'port'>> {
    const child = this.spawn(['serve'], env);
    let output = '';
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const stops: Array<{ text: string; signal: NodeJS.Signals }> = [];
    return new Promise((resolve, reject) => {
      let isReady = false;
      const onData = (chunk: string) => {
        const tail = output.slice(-Math.max(0, ...stops.map((stop) => stop.text.length)));
        output += chunk;
        for (const stop of stops) if ((tail + chunk).includes(stop.text)) child.kill(stop.signal);
        // Once ready, the output only grows: looking through all of it again per chunk would cost
        // time in proportion to its square while a server logs its trading.
        if (isReady || !ready(output)) return;
        isReady = true;
        resolve({
          pid: child.pid!,
          signal: (signal) => void child.kill(signal),
          output: () => output,
          stop: (signal) => {
            child.kill(signal);
            return exited;
          },
          stopOn: (text, signal) => {
            stops.push({ text, signal });
            return exited;
          },
        });
      };
      child.stdout!.setEncoding('utf8').on('data', onData);
      child.stderr!.setEncoding('utf8').on('data', onData);
      child.on('error', reject);
      void exited.then((code) => reject(new Error(`tradeloop serve exited with ${code}:\n${output}`)));
    });
  }

  private spawn(args: string[], env: Record<string, string>): ChildProcess {
    const base = { ...process.env };
    for (const name of CONTROLLED) delete base[name];
    // As in scripts/run-tests.mjs: short-lived processes spend less CPU on PGlite without V8's optimiser.
    const child = spawn(process.execPath, ['--liftoff-only', BIN, ...args], { cwd: ROOT, env: { ...base, ...env }, stdio: 'pipe' });
    this.running.add(child);
    child.on('exit', () => this.running.delete(child));
    return child;
  }
}

function listeningPort(line: string): number | undefined {
  if (!line.includes('Tradeloop is listening')) return undefined;
  try {
    const port: unknown = JSON.parse(line).address?.port;
    return typeof port === 'number' ? port : undefined;
  } catch {
    return undefined;
  }
}
