/**
 * A connector loaded when first asked for. ccxt costs a server about 1.4 s of CPU and tens of MB to
 * load, and a server whose accounts are all paper accounts never needs it.
 */
import type { ExchangeConnector } from './exchange-connector.ts';

export function connectorOnFirstUse(load: () => Promise<ExchangeConnector>): ExchangeConnector {
  let loading: Promise<ExchangeConnector> | undefined;
  const loaded = () =>
    (loading ??= load().catch((error: unknown) => {
      // A failed load (a file missing mid-upgrade) is tried again at the next use.
      loading = undefined;
      throw error;
    }));
  return {
    describe: async () => (await loaded()).describe(),
    markets: async (marketCode) => (await loaded()).markets(marketCode),
    tickers: async (marketCode, pairs) => (await loaded()).tickers(marketCode, pairs),
    connect: async (marketCode, credentials) => (await loaded()).connect(marketCode, credentials),
  };
}
