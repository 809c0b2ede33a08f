/**
 * A pair's paper candles between polls: each refresh asks only for the candles from the last one
 * held (which may still be forming) on. Real exchange pairs have none.
 */
import { type ApiClient, publicGet } from '../api/client.ts';
import type { Account, Candle, CurrencyRates } from '../api/types.ts';

export const CANDLE_LIMIT = 1500;
export const PAPER = 'paper_trading';
export const NO_REAL_CANDLES = 'The server keeps candles of paper pairs only; this chart shows the levels without them.';
export const CANDLE_INTERVALS = ['1m', '5m', '15m', '1h', '4h'];

export class CandleCache {
  private held: Candle[] = [];
  private key = '';

  async load(marketCode: string, pair: string, interval: string, signal: AbortSignal): Promise<Candle[]> {
    if (marketCode !== PAPER) return [];
    const key = `${pair}:${interval}`;
    if (key !== this.key) this.held = [];
    this.key = key;
    const from = this.held.at(-1)?.time;
    const fresh = await publicGet<Candle[]>(
      '/ext/paper/candles',
      { pair, interval, limit: CANDLE_LIMIT, ...(from === undefined ? {} : { from }) },
      signal,
    );
    const kept = from === undefined ? [] : this.held.filter((candle) => candle.time < from);
    this.held = [...kept, ...fresh].slice(-CANDLE_LIMIT);
    return this.held;
  }
}

/** The pair's trading rules and price, or undefined before its first price. */
export async function currencyRates(marketCode: string, pair: string, signal?: AbortSignal): Promise<CurrencyRates | undefined> {
  try {
    return await publicGet<CurrencyRates>('/ver1/accounts/currency_rates', { market_code: marketCode, pair }, signal);
  } catch (error) {
    if (signal?.aborted) throw error;
    return undefined;
  }
}

const marketCodes = new Map<number, Promise<string>>();

/**
 * The market an account trades on, read once per account. A key without ACCOUNTS_READ cannot ask,
 * and the tab's mode tells: paper accounts are listed in paper mode only.
 */
export function marketCodeOf(client: ApiClient, accountId: number): Promise<string> {
  let found = marketCodes.get(accountId);
  if (!found) {
    found = client
      .get<Account>(`/ver1/accounts/${accountId}`, { mode: null })
      .then((account) => account.market_code)
      .catch(() => (client.session.mode === 'paper' ? PAPER : 'real'));
    marketCodes.set(accountId, found);
  }
  return found;
}
