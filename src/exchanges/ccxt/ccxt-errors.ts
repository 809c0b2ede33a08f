/**
 * ccxt's error classes -> the port's error kinds. ccxt already turns each exchange's error codes
 * into its classes (Binance -2010 "insufficient balance" is InsufficientFunds, OKX 51008 too), so
 * this mapping is the same for every exchange. Messages keep the exchange's own explanation but
 * lose URLs' query strings (signatures, timestamps) and every credential value.
 */
import {
  AuthenticationError,
  BadRequest,
  BadSymbol,
  BaseError,
  DDoSProtection,
  DuplicateOrderId,
  InsufficientFunds,
  InvalidNonce,
  InvalidOrder,
  NetworkError,
  OperationFailed,
  OperationRejected,
  OrderNotFound,
  RateLimitExceeded,
  ExchangeError as CcxtExchangeError,
} from 'ccxt';
import { ExchangeError, type ExchangeErrorKind } from '../exchange.ts';

export interface ErrorContext {
  exchangeId: string;
  exchangeName: string;
  /** Order placement: a refusal ccxt cannot classify is still a refusal of this order. */
  placingOrder: boolean;
  secrets: readonly string[];
}

export function toExchangeError(error: unknown, context: ErrorContext): unknown {
  if (error instanceof ExchangeError) return error;
  if (!(error instanceof BaseError)) return error;
  return new ExchangeError(kindOf(error, context.placingOrder), cleanMessage(error.message, context));
}

function kindOf(error: BaseError, placingOrder: boolean): ExchangeErrorKind {
  if (error instanceof OrderNotFound) return 'order_not_found';
  if (error instanceof BadSymbol) return 'unknown_market';
  if (error instanceof AuthenticationError) return 'invalid_credentials';
  if (error instanceof InsufficientFunds) return 'insufficient_funds';
  if (error instanceof InvalidOrder) return 'rule_violation';
  if (error instanceof OperationFailed) return 'unavailable';
  const refusal = error instanceof BadRequest || error instanceof OperationRejected || error instanceof CcxtExchangeError;
  return placingOrder && refusal ? 'rule_violation' : 'unavailable';
}

/**
 * True when the exchange did not answer: the network failed, the request timed out, or the
 * exchange is down or in maintenance. Rate limits and nonce errors are answers. Markets are
 * loaded by the connector, whose errors arrive already mapped: there `unavailable` is the sign.
 */
export function isUnreachable(error: unknown): boolean {
  if (error instanceof ExchangeError) return error.kind === 'unavailable';
  if (!(error instanceof NetworkError)) return false;
  return !(error instanceof RateLimitExceeded || error instanceof DDoSProtection || error instanceof InvalidNonce);
}

/** True when the exchange refused an order because its client order id is taken. */
export function isDuplicateClientOrderId(error: unknown): boolean {
  if (error instanceof DuplicateOrderId) return true;
  return error instanceof BaseError && /duplicate/i.test(error.message);
}

function cleanMessage(message: string, context: ErrorContext): string {
  let text = exchangeExplanation(message) ?? message.replace(/(https?:\/\/[^\s?"]+)\?[^\s"]*/g, '$1');
  // Shorter values are no keys, and replacing them would scramble the text.
  for (const secret of context.secrets) if (secret.length >= 4) text = text.split(secret).join('***');
  text = text.trim();
  if (text.startsWith(`${context.exchangeId} `)) text = text.slice(context.exchangeId.length + 1).trim();
  const prefix = `${context.exchangeName}: `;
  return text.length > 0 ? `${prefix}${text}` : `${prefix}request failed`;
}

/**
 * ccxt quotes the exchange's JSON error body in its messages; the explanation inside it (Binance
 * `msg`, OKX `sMsg`/`msg`, Bybit `retMsg`, ...) with its code is what a person needs to read.
 */
function exchangeExplanation(message: string): string | undefined {
  const start = message.indexOf('{');
  const end = message.lastIndexOf('}');
  if (start === -1 || end <= start) return undefined;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(message.slice(start, end + 1)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const first = Array.isArray(body['data']) ? (body['data'][0] as Record<string, unknown> | undefined) : undefined;
  const nested = typeof body['error'] === 'object' && body['error'] !== null ? (body['error'] as Record<string, unknown>) : {};
  const explanation = [first?.['sMsg'], body['msg'], body['retMsg'], body['message'], nested['message'], body['error']]
    .find((value): value is string => typeof value === 'string' && value.trim() !== '');
  if (explanation === undefined) return undefined;
  const code = [first?.['sCode'], body['code'], body['retCode'], nested['code']]
    .find((value) => (typeof value === 'string' && value !== '' && value !== '1') || typeof value === 'number');
  return code === undefined ? explanation.trim() : `${explanation.trim()} (code ${String(code)})`;
}
