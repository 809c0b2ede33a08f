import { createLogger, openCore, type Core } from '../app.ts';
import type { Config } from '../config/config.ts';

/** Like the server's core, but logging to stderr: stdout carries the command's output (--json). */
export function openCliCore(config: Config): Promise<Core> {
  return openCore(config, { logger: createLogger(config.logLevel, 2) });
}
