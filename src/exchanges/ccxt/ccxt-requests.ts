/** What the port asks for, in ccxt's unified parameters, and ccxt's balances in the port's terms. */
import type { Balances as CcxtBalances, Exchange as CcxtClient } from 'ccxt';
import { ZERO } from '../../shared/decimal.ts';
import type { Balance, OrderRequest } from '../exchange.ts';
import { decimalOrUndefined } from './ccxt-decimal.ts';

const TIME_IN_FORCE = { gtc: 'GTC', ioc: 'IOC', fok: 'FOK' } as const;

export function orderParams(request: OrderRequest): Record<string, unknown> {
  const params: Record<string, unknown> = { clientOrderId: request.clientOrderId };
  const timeInForce = request.type === 'limit' ? request.timeInForce : undefined;
  if (timeInForce === 'post_only') params['postOnly'] = true;
  else if (timeInForce !== undefined) params['timeInForce'] = TIME_IN_FORCE[timeInForce];
  return params;
}

/**
 * True for exchanges whose market buys spend a quote amount (Gate, Bitget): ccxt then needs a
 * price to turn the base amount asked for into the quote amount to spend.
 */
export function marketBuysSpendQuote(client: CcxtClient): boolean {
  const options = client.options as Record<string, unknown>;
  const createOrder = options['createOrder'] as Record<string, unknown> | undefined;
  return (createOrder?.['createMarketBuyOrderRequiresPrice'] ?? options['createMarketBuyOrderRequiresPrice']) === true;
}

/** Currencies with anything free or locked, by currency code. */
export function balancesFrom(source: CcxtBalances): Balance[] {
  const free = (source.free ?? {}) as unknown as Record<string, unknown>;
  const used = (source.used ?? {}) as unknown as Record<string, unknown>;
  const currencies = [...new Set([...Object.keys(free), ...Object.keys(used)])].sort();
  return currencies
    .map((currency) => ({
      currency,
      free: decimalOrUndefined(free[currency]) ?? ZERO,
      locked: decimalOrUndefined(used[currency]) ?? ZERO,
    }))
    .filter((balance) => !balance.free.isZero() || !balance.locked.isZero());
}
