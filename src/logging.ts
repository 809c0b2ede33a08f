/**
 * The process logger: JSON lines for log collectors, or one readable line per entry when the
 * output is a terminal (LOG_FORMAT overrides the choice). Credentials are redacted either way.
 */
import tty from 'node:tty';
import { pino, type DestinationStream, type Logger } from 'pino';

export type LogFormat = 'auto' | 'pretty' | 'json';

const LEVEL_NAMES: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const LEVEL_COLOURS: Record<number, string> = { 10: '90', 20: '90', 30: '32', 40: '33', 50: '31', 60: '31' };
/** Fields every entry has, or that the line shows in its own place. */
const SHOWN_APART = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'service']);

/**
 * Logs go to stdout for the server, written asynchronously so a request never waits on the
 * terminal; CLI commands pass stderr (fd 2), synchronously, to keep stdout for their output.
 */
export function createLogger(level: string, fd = 1, format: LogFormat = 'auto'): Logger {
  const destination = pino.destination({ dest: fd, sync: fd !== 1 });
  const pretty = format === 'pretty' || (format === 'auto' && tty.isatty(fd));
  return pino(
    {
      level,
      base: { service: 'tradeloop' },
      redact: {
        paths: ['apiKey', 'secret', 'signature', '*.apikey', '*.signature', '*.secret', '*.api_key'],
        censor: '[redacted]',
      },
    },
    pretty ? readable(destination, tty.isatty(fd)) : destination,
  );
}

function readable(destination: DestinationStream & { flush?(cb?: () => void): void }, colour: boolean) {
  return {
    write: (line: string) => destination.write(formatLogLine(line, colour)),
    flush: (callback?: () => void) => destination.flush?.(callback),
  };
}

/** `12:00:01 INFO  message key=value ...` from one JSON log line; a line that is no JSON stays. */
export function formatLogLine(line: string, colour = false): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line);
  } catch {
    return line;
  }
  const level = Number(entry.level);
  const name = (LEVEL_NAMES[level] ?? String(entry.level)).padEnd(5);
  const time = new Date(Number(entry.time)).toTimeString().slice(0, 8);
  const fields = Object.entries(entry)
    .filter(([key]) => !SHOWN_APART.has(key))
    .map(([key, value]) => `${key}=${fieldText(value)}`);
  const levelText = colour ? `\u001b[${LEVEL_COLOURS[level] ?? '0'}m${name}\u001b[0m` : name;
  return `${time} ${levelText} ${String(entry.msg ?? '')}${fields.length > 0 ? ` ${fields.join(' ')}` : ''}\n`;
}

function fieldText(value: unknown): string {
  // An error shows its message; its stack is for the JSON form.
  if (value !== null && typeof value === 'object' && 'message' in value && 'stack' in value) {
    return JSON.stringify((value as { message: unknown }).message);
  }
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value);
}
