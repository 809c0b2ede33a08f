/**
 * Which ccxt exchanges can be connected, how each is described to the API, and how the API's
 * credential fields map onto ccxt's. Everything here reads the ccxt classes only; no network.
 */
import ccxt, { type Exchange as CcxtClient } from 'ccxt';
import { ExchangeError } from '../exchange.ts';
import type { ExchangeCredentials, ExchangeDescription, FormField } from '../exchange-connector.ts';

/** Market codes are ccxt's exchange ids (`gate` is Gate.io). */
export const SUPPORTED_EXCHANGES = ['binance', 'bybit', 'okx', 'kucoin', 'coinbase', 'kraken', 'gate', 'bitget'] as const;

type CcxtCredential = 'apiKey' | 'secret' | 'password' | 'uid' | 'walletAddress';

const CREDENTIAL_FIELDS: Record<CcxtCredential, { field: keyof ExchangeCredentials; name: string }> = {
  apiKey: { field: 'api_key', name: 'API Key' },
  secret: { field: 'secret', name: 'Secret' },
  password: { field: 'passphrase', name: 'Passphrase' },
  uid: { field: 'customer_id', name: 'Customer ID' },
  walletAddress: { field: 'address', name: 'Address' },
};

/**
 * Exchanges whose ccxt `fetchOrder` looks an order up by the client order id alone; elsewhere it
 * is found among the open orders.
 */
const FETCHES_BY_CLIENT_ORDER_ID = new Set(['binance', 'okx', 'bitget']);

/** Extra parameters some exchanges need before ccxt will fetch one order. */
const FETCH_ORDER_PARAMS: Record<string, Record<string, unknown>> = {
  bybit: { acknowledged: true },
};

type CcxtClass = new (config?: Record<string, unknown>) => CcxtClient;

export function ccxtClass(marketCode: string): CcxtClass {
  const found = (SUPPORTED_EXCHANGES as readonly string[]).includes(marketCode)
    ? (ccxt as unknown as Record<string, CcxtClass | undefined>)[marketCode]
    : undefined;
  if (!found) throw new ExchangeError('unknown_market', `Unknown market code ${marketCode}`);
  return found;
}

export function ccxtProClass(marketCode: string): CcxtClass | undefined {
  return (ccxt.pro as unknown as Record<string, CcxtClass | undefined>)[marketCode];
}

export function fetchesByClientOrderId(marketCode: string): boolean {
  return FETCHES_BY_CLIENT_ORDER_ID.has(marketCode);
}

export function fetchOrderParams(marketCode: string): Record<string, unknown> {
  return FETCH_ORDER_PARAMS[marketCode] ?? {};
}

function requiredCredentials(client: CcxtClient): CcxtCredential[] {
  const flags = client.requiredCredentials as Partial<Record<string, boolean>>;
  return (Object.keys(CREDENTIAL_FIELDS) as CcxtCredential[]).filter((name) => flags[name] === true);
}

function firstLink(link: unknown): string {
  if (typeof link === 'string') return link;
  if (Array.isArray(link) && typeof link[0] === 'string') return link[0];
  return '';
}

export function describeExchange(marketCode: string): ExchangeDescription {
  const client = new (ccxtClass(marketCode))();
  const Pro = ccxtProClass(marketCode);
  const required: FormField[] = requiredCredentials(client).map((name) => ({
    field: CREDENTIAL_FIELDS[name].field,
    localized_name: CREDENTIAL_FIELDS[name].name,
  }));
  const urls = client.urls as Record<string, unknown>;
  return {
    marketCode,
    name: client.name ?? marketCode,
    marketUrl: firstLink(urls['www']),
    helpLink: firstLink(urls['doc']),
    icon: firstLink(urls['logo']),
    formFields: { required, optional: [] },
    streamsOrders: Pro !== undefined && new Pro().has['watchOrders'] === true,
  };
}

/**
 * ccxt's constructor settings for one account's credentials. Fails before anything is sent when
 * a credential the exchange requires is missing.
 */
export function ccxtCredentials(marketCode: string, credentials: ExchangeCredentials): Record<string, string> {
  const client = new (ccxtClass(marketCode))();
  const settings: Record<string, string> = {};
  const missing: string[] = [];
  for (const name of Object.keys(CREDENTIAL_FIELDS) as CcxtCredential[]) {
    const { field, name: label } = CREDENTIAL_FIELDS[name];
    const value = credentials[field];
    if (value !== undefined && value !== '') settings[name] = value;
    else if (requiredCredentials(client).includes(name)) missing.push(label);
  }
  if (missing.length > 0) {
    throw new ExchangeError('invalid_credentials', `${client.name ?? marketCode} needs ${missing.join(', ')}`);
  }
  return settings;
}

/** The credential values an error message must never show. */
export function secretValues(credentials: ExchangeCredentials): string[] {
  return Object.values(credentials).filter((value): value is string => typeof value === 'string' && value.length > 0);
}
