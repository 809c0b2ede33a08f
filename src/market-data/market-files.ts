/** Reads the shipped candle and trade files (plain or gzip CSV, see fixtures/market/README.md). */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { Candle } from '../domain/market/candle.ts';
import { dec, type Decimal } from '../shared/decimal.ts';

export const MARKET_FIXTURES_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../fixtures/market',
);

export interface Trade {
  at: Date;
  price: Decimal;
  amount: Decimal;
  takerSide: 'buy' | 'sell';
}

function readRows(file: string, header: string, from?: Date): string[][] {
  const raw = fs.readFileSync(file);
  const text = (file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  if (lines[0]?.trim() !== header) {
    throw new Error(`${path.basename(file)}: expected the header "${header}"`);
  }
  const rows = lines.slice(1).map((line) => line.trim().split(','));
  // Rows are filtered on their time before any decimal is made: that is where reading costs.
  return from === undefined ? rows : rows.filter((row) => Number(row[0]) >= from.getTime());
}

/** The file's candles in time order; with `from`, only those opening at or after it. */
export function readCandles(file: string, from?: Date): Candle[] {
  return readRows(file, 'time,open,high,low,close,volume', from).map(([time, open, high, low, close, volume]) => ({
    time: new Date(Number(time)),
    open: dec(open!),
    high: dec(high!),
    low: dec(low!),
    close: dec(close!),
    volume: dec(volume!),
  }));
}

export function readTrades(file: string): Trade[] {
  return readRows(file, 'time,price,qty,side,trade_id').map(([time, price, qty, side]) => ({
    at: new Date(Number(time)),
    price: dec(price!),
    amount: dec(qty!),
    takerSide: side === 'buy' ? 'buy' : 'sell',
  }));
}

/** The opening time of the file's last candle or trade. */
export function lastRowTime(file: string): Date {
  const raw = fs.readFileSync(file);
  const text = (file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8').trimEnd();
  return new Date(Number(text.slice(text.lastIndexOf('\n') + 1).split(',')[0]));
}

/** The candle duration a file name states (`-1h-`, `-4h-`, `-5m-`). */
export function candleDurationMs(file: string): number {
  const match = /-(\d+)([mhd])-/.exec(path.basename(file));
  if (!match) throw new Error(`${path.basename(file)}: no timeframe in the file name`);
  const unit = { m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 'm' | 'h' | 'd'];
  return Number(match[1]) * unit;
}
