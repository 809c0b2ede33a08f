/**
 * A backtest as asked for, in text (command-line flags or a JSON body), checked as a whole: every
 * bad field is named in one record_invalid error. The settings themselves are checked later by
 * the create endpoint's own schema and service.
 */
import { parsePair } from '../domain/market/pair.ts';
import type { Balance } from '../exchanges/exchange.ts';
import { type Decimal, dec, ZERO } from '../shared/decimal.ts';
import { FieldErrorCollector } from '../shared/errors.ts';
import { BOT_KINDS, type BotKind } from './bot-settings.ts';
import type { CandleRequest } from './candle-series.ts';
import { parseTimeframe } from './timeframes.ts';

export interface BacktestRequest {
  kind?: string | undefined;
  settings?: unknown | undefined;
  pair?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  timeframe?: string | undefined;
  /** `USDT:10000,BTC:0.1`; the quote currency's 10000 when not given. */
  balances?: string | undefined;
  fee?: string | undefined;
  slippage_bps?: string | number | undefined;
  allow_gaps?: boolean | undefined;
}

export interface PreparedBacktest {
  kind: BotKind;
  settings: unknown;
  candles: CandleRequest;
  balances: Balance[];
  fee: Decimal;
  slippageBasisPoints: number;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z$/;
const AMOUNT = /^\d+(\.\d+)?$/;
const DAY_MS = 86_400_000;

export const DEFAULT_FEE = '0.001';
export const DEFAULT_SLIPPAGE_BPS = 5;

export function prepareBacktest(request: BacktestRequest): PreparedBacktest {
  const invalid = new FieldErrorCollector();
  const kind = request.kind;
  if (kind === undefined) invalid.add('kind', 'is missing');
  else if (!(BOT_KINDS as readonly string[]).includes(kind)) invalid.add('kind', `must be one of ${BOT_KINDS.join(', ')}`);
  if (request.settings === undefined) invalid.add('settings', 'is missing');
  const pair = request.pair === undefined ? undefined : parsePair(request.pair.toUpperCase());
  if (request.pair === undefined) invalid.add('pair', 'is missing');
  else if (!pair) invalid.add('pair', 'must look like USDT_BTC (quote_base)');
  const from = instant(request.from, 'from', false, invalid);
  const to = instant(request.to, 'to', true, invalid);
  if (from && to && from >= to) invalid.add('to', 'must be after from');
  const timeframeMs = request.timeframe === undefined ? undefined : parseTimeframe(request.timeframe);
  if (request.timeframe !== undefined && timeframeMs === undefined) invalid.add('timeframe', 'must look like 1m, 5m, 1h, 4h or 1d');
  const fee = request.fee ?? DEFAULT_FEE;
  if (!/^0(\.\d+)?$/.test(fee)) invalid.add('fee', 'must be a fraction below 1, such as 0.001');
  const slippage = Number(request.slippage_bps ?? DEFAULT_SLIPPAGE_BPS);
  if (!Number.isInteger(slippage) || slippage < 0 || slippage > 1000) invalid.add('slippage_bps', 'must be a whole number from 0 to 1000');
  const balances = request.balances !== undefined ? parseBalances(request.balances, invalid) : pair ? parseBalances(`${pair.quote}:10000`, invalid) : [];
  invalid.throwIfAny();
  return {
    kind: kind as BotKind,
    settings: request.settings,
    candles: { pair: pair!.code, from: from!, to: to!, ...(timeframeMs === undefined ? {} : { timeframeMs }), allowGaps: request.allow_gaps ?? false },
    balances,
    fee: dec(fee),
    slippageBasisPoints: slippage,
  };
}

/** A day (the start of it, or with `endOfDay` the start of the next) or an exact UTC time. */
function instant(text: string | undefined, field: string, endOfDay: boolean, invalid: FieldErrorCollector): Date | undefined {
  if (text === undefined) {
    invalid.add(field, 'is missing');
    return undefined;
  }
  const date = DATE.test(text) ? new Date(`${text}T00:00:00Z`) : DATE_TIME.test(text) ? new Date(text) : undefined;
  if (!date || Number.isNaN(date.getTime())) {
    invalid.add(field, 'must be a day (2021-01-31) or a UTC time (2021-01-31T12:00:00Z)');
    return undefined;
  }
  return endOfDay && DATE.test(text) ? new Date(date.getTime() + DAY_MS) : date;
}

function parseBalances(text: string, invalid: FieldErrorCollector): Balance[] {
  const balances: Balance[] = [];
  for (const part of text.split(',')) {
    const [currency, amount, ...rest] = part.trim().split(':');
    if (!currency || !/^[A-Z0-9]{1,20}$/.test(currency) || amount === undefined || !AMOUNT.test(amount) || rest.length > 0) {
      invalid.add('balances', 'must look like USDT:10000,BTC:0.1');
      return [];
    }
    if (balances.some((b) => b.currency === currency)) invalid.add('balances', `name ${currency} twice`);
    balances.push({ currency, free: dec(amount), locked: ZERO });
  }
  return balances;
}
