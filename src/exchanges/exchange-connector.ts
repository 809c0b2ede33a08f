/**
 * The port to real exchanges as a whole (the ccxt adapter implements it): which exchanges can be
 * connected and with which credentials, their public markets and prices, and an `Exchange` for one
 * account's credentials.
 */
import type { Exchange, Market, Ticker } from './exchange.ts';

export interface FormField {
  field: string;
  localized_name: string;
}

export interface ExchangeDescription {
  /** The API's market code (`binance`, `okx`, ...). */
  marketCode: string;
  name: string;
  marketUrl: string;
  helpLink: string;
  /** The address of the exchange's logo, for `market_icon`. */
  icon: string;
  formFields: { required: FormField[]; optional: FormField[] };
  /** True when order updates can be streamed over a websocket; polled otherwise. */
  streamsOrders: boolean;
}

/** Credentials as the API names them. */
export interface ExchangeCredentials {
  api_key?: string;
  secret?: string;
  passphrase?: string;
  customer_id?: string;
  address?: string;
}

export interface ExchangeConnector {
  describe(): Promise<ExchangeDescription[]>;
  markets(marketCode: string): Promise<Market[]>;
  tickers(marketCode: string, pairs: string[]): Promise<Ticker[]>;
  /** An exchange for one account; nothing is sent until it is used. */
  connect(marketCode: string, credentials: ExchangeCredentials): Promise<Exchange & { close(): Promise<void> }>;
}
