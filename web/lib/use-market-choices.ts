/** The accounts of the chosen mode, the pairs of the chosen account's market, and the chosen pair's rules and price. */
import { useEffect, useState } from 'preact/hooks';
import { publicGet } from '../api/client.ts';
import { ApiError } from '../api/errors.ts';
import type { Account, CurrencyRates } from '../api/types.ts';
import { useApp } from '../app-context.ts';
import { currencyRates, PAPER } from './candles.ts';

/** `chooseAccount` is told the first account while none is chosen, so a new form starts on it. */
export function useMarketChoices(accountId: string, pair: string, chooseAccount?: (id: string) => void) {
  const { client } = useApp();
  const [accounts, setAccounts] = useState<Account[]>([]);
  const [pairs, setPairs] = useState<string[]>([]);
  const [rates, setRates] = useState<CurrencyRates>();
  const [error, setError] = useState<ApiError>();

  useEffect(() => {
    client
      .get<Account[]>('/ver1/accounts')
      .then(setAccounts)
      .catch((caught: unknown) => setError(caught instanceof ApiError ? caught : undefined));
  }, [client]);

  const account = accounts.find((candidate) => String(candidate.id) === accountId) ?? accounts[0];
  const marketCode = account?.market_code ?? PAPER;

  useEffect(() => {
    if (chooseAccount && account && accountId === '') chooseAccount(String(account.id));
  }, [account]);

  useEffect(() => {
    publicGet<string[]>('/ver1/accounts/market_pairs', { market_code: marketCode })
      .then(setPairs)
      .catch(() => setPairs([]));
  }, [marketCode]);

  useEffect(() => {
    setRates(undefined);
    void currencyRates(marketCode, pair).then(setRates);
  }, [marketCode, pair]);

  /** The pairs to offer, the chosen one first when the market's list lacks it. */
  const pairChoices = pairs.includes(pair) ? pairs : [pair, ...pairs];
  return { accounts, account, marketCode, pairChoices, rates, error };
}
