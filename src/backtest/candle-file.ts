/**
 * Reads a candle CSV (`time,open,high,low,close,volume`, open time in epoch milliseconds, the
 * format of fixtures/market/README.md; plain or gzip) and refuses what a backtest cannot trust:
 * no rows, a row that is not a candle, times that do not rise. Each refusal is one record_invalid
 * error naming the `data` field, the row and what is wrong with it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Candle } from '../domain/market/candle.ts';
import { dec } from '../shared/decimal.ts';
import { errors } from '../shared/errors.ts';

const HEADER = 'time,open,high,low,close,volume';
const NUMBER = /^\d+(\.\d+)?(e[+-]?\d+)?$/i;

export const dataError = (message: string) => errors.recordInvalid({ data: [message] });

/** Every row is checked for order; only those opening inside `keep` become candles (that is where reading costs). */
export interface KeepRange {
  from: number;
  to: number;
}

export function readCandleFile(file: string, keep?: KeepRange): CandleFile {
  let raw: Buffer;
  try {
    raw = fs.readFileSync(file);
  } catch (error) {
    throw dataError(`cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)} (${file})`);
  }
  let text: string;
  try {
    text = (file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
  } catch {
    throw dataError(`${path.basename(file)} is not a valid gzip file`);
  }
  return parseCandles(text, path.basename(file), keep);
}

/** The candles kept, the open times of the file's first and last rows, and the shortest step between two rows. */
export interface CandleFile {
  candles: Candle[];
  first: number;
  last: number;
  step: number;
}

export function parseCandles(text: string, name: string, keep: KeepRange = { from: -Infinity, to: Infinity }): CandleFile {
  const lines = text.split('\n');
  if (lines[0]?.trim() !== HEADER) throw dataError(`${name} must start with the header "${HEADER}"`);
  const candles: Candle[] = [];
  let first: number | undefined;
  let previous: number | undefined;
  let step = Infinity;
  for (let index = 1; index < lines.length; index++) {
    const line = lines[index]!.trim();
    if (line === '') continue;
    const fields = line.split(',');
    const where = `${name} line ${index + 1}`;
    if (fields.length !== 6 || !/^\d+$/.test(fields[0]!) || !fields.slice(1).every((field) => NUMBER.test(field))) {
      throw dataError(`${where} is not a candle: "${line.slice(0, 80)}"`);
    }
    const time = Number(fields[0]);
    if (previous !== undefined && previous >= time) {
      throw dataError(`${where}: the candles are not sorted by time (${iso(time)} follows ${iso(previous)})`);
    }
    if (previous !== undefined) step = Math.min(step, time - previous);
    first ??= time;
    previous = time;
    if (time < keep.from || time >= keep.to) continue;
    const [, open, high, low, close, volume] = fields as [string, string, string, string, string, string];
    const candle: Candle = { time: new Date(time), open: dec(open), high: dec(high), low: dec(low), close: dec(close), volume: dec(volume) };
    if (candle.low.lte(0) || candle.high.lt(candle.low) || !inRange(candle)) {
      throw dataError(`${where}: prices must be above 0 with low ≤ open, close ≤ high`);
    }
    candles.push(candle);
  }
  if (first === undefined || previous === undefined) throw dataError(`${name} holds no candles`);
  return { candles, first, last: previous, step };
}

const iso = (time: number) => new Date(time).toISOString();

function inRange(candle: Candle): boolean {
  return [candle.open, candle.close].every((price) => price.gte(candle.low) && price.lte(candle.high));
}
