/**
 * Runs one backtest: the automation is created from its settings at the first candle's open,
 * then every candle is walked along the intra-candle path of domain/market/candle.ts (open, the
 * extreme nearer the open's side of the move, the other extreme, close), one tick at a time, each
 * applied to the paper venue and handled by the engine before the next. The account's value is
 * sampled at every close. Nothing the run makes outlives it but the result.
 */
import { intraCandlePath } from '../domain/market/candle.ts';
import { parsePair } from '../domain/market/pair.ts';
import type { EngineLogger } from '../engine/engine.ts';
import type { Balance } from '../exchanges/exchange.ts';
import { type Decimal, ZERO } from '../shared/decimal.ts';
import { errors } from '../shared/errors.ts';
import { type BacktestResult, collectResult } from './backtest-result.ts';
import { type BacktestVenue, openBacktestVenue } from './backtest-venue.ts';
import { type BotKind, settingsObject, startAutomation } from './bot-settings.ts';
import type { CandleSeries } from './candle-series.ts';

export interface BacktestSpec {
  kind: BotKind;
  settings: unknown;
  series: CandleSeries;
  balances: Balance[];
  fee: Decimal;
  slippageBasisPoints: number;
}

export interface Progress {
  done: number;
  total: number;
}

export interface RunOptions {
  onProgress?: (progress: Progress) => void;
  signal?: AbortSignal;
  logger?: EngineLogger;
}

export class BacktestCancelled extends Error {
  constructor() {
    super('The backtest was cancelled');
    this.name = 'BacktestCancelled';
  }
}

const QUIET: EngineLogger = { warn: () => undefined, error: () => undefined };
const PROGRESS_STEPS = 200;
const YIELD_EVERY_MS = 20;

/** A backtest whose automation has started at the first candle's open; `run` walks the rest. */
export interface StartedBacktest {
  run(options?: RunOptions): Promise<BacktestResult>;
  /** Stops it without running (when `run` is never called). */
  close(): Promise<void>;
}

export async function runBacktest(spec: BacktestSpec, options: RunOptions = {}): Promise<BacktestResult> {
  return (await startBacktest(spec, options.logger)).run(options);
}

/**
 * Checks the spec and starts the automation: bad settings or funds are refused here, before any
 * candle is walked, so a caller can answer them at once and run the rest in the background.
 */
export async function startBacktest(spec: BacktestSpec, logger: EngineLogger = QUIET): Promise<StartedBacktest> {
  const { series } = spec;
  const settings = settingsObject(spec.settings);
  const pair = parsePair(series.pair);
  if (!pair) throw errors.recordInvalid({ pair: ['does not have a valid value'] });
  checkBalances(spec.balances, pair.base, pair.quote);
  const first = series.candles[0]!;
  const venue = await openBacktestVenue({ ...spec, logger }, first.time);
  let automationId: number;
  try {
    const opening = intraCandlePath(first, series.timeframeMs)[0]!;
    await venue.applyTick({ pair: series.pair, price: opening.price, at: opening.at });
    automationId = await startAutomation(venue, spec.kind, settings, series.pair);
  } catch (error) {
    await venue.close();
    throw error;
  }
  return {
    close: () => venue.close(),
    run: async (options = {}) => {
      try {
        return await walk(spec, venue, automationId, options);
      } finally {
        await venue.close();
      }
    },
  };
}

async function walk(spec: BacktestSpec, venue: BacktestVenue, automationId: number, options: RunOptions): Promise<BacktestResult> {
  const { series } = spec;
  const pair = parsePair(series.pair)!;
  const exchange = await venue.exchange();
  const times: number[] = [];
  const values: number[] = [];
  const exposed: boolean[] = [];
  const startBase = held(spec.balances, pair.base);
  // Base worth less than one order (what a deal's exit cannot trade) is not a position.
  const minTotal = venue.venue.market(series.pair).rules.minTotal;
  const every = Math.max(1, Math.floor(series.candles.length / PROGRESS_STEPS));
  let yieldedAt = performance.now();
  // What the account holds moves only with fills: it is read again only after new ones.
  let fillsSeen = -1;
  let holding = { base: ZERO, baseNumber: 0, quoteNumber: 0 };
  for (let index = 0; index < series.candles.length; index++) {
    if (options.signal?.aborted) throw new BacktestCancelled();
    const candle = series.candles[index]!;
    const path = intraCandlePath(candle, series.timeframeMs);
    for (let point = index === 0 ? 1 : 0; point < path.length; point++) {
      const handled = venue.applyTick({ pair: series.pair, price: path[point]!.price, at: path[point]!.at });
      if (handled) await handled;
    }
    if (venue.paperStore.fillCount !== fillsSeen) {
      fillsSeen = venue.paperStore.fillCount;
      const balances = await exchange.balances();
      const base = held(balances, pair.base);
      holding = { base, baseNumber: base.toNumber(), quoteNumber: held(balances, pair.quote).toNumber() };
    }
    times.push(path[path.length - 1]!.at.getTime());
    // The equity curve is in doubles, as its figures are; exposure is decided exactly.
    values.push(holding.quoteNumber + holding.baseNumber * candle.close.toNumber());
    exposed.push(holding.base.minus(startBase).times(candle.close).gte(minTotal));
    if ((index + 1) % every === 0 || index + 1 === series.candles.length) options.onProgress?.({ done: index + 1, total: series.candles.length });
    // The engine's work resolves without I/O: without a pause now and then, a backtest inside the
    // server would keep every request waiting until it ends.
    if (performance.now() - yieldedAt > YIELD_EVERY_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      yieldedAt = performance.now();
    }
  }
  await venue.engine.settled();
  return collectResult({ spec, venue, automationId, times, values, exposed, finalBalances: await exchange.balances() });
}

function held(balances: readonly Balance[], currency: string): Decimal {
  const balance = balances.find((b) => b.currency === currency);
  return balance ? balance.free.plus(balance.locked) : ZERO;
}

function checkBalances(balances: readonly Balance[], base: string, quote: string): void {
  const foreign = balances.filter((b) => b.currency !== base && b.currency !== quote).map((b) => b.currency);
  if (foreign.length > 0) throw errors.recordInvalid({ balances: [`name ${foreign.join(', ')}; a ${quote}_${base} backtest holds only ${quote} and ${base}`] });
  if (balances.every((b) => b.free.isZero())) throw errors.recordInvalid({ balances: ['are all zero'] });
}
