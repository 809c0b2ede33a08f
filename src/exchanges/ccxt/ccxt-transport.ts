/**
 * The seam between ccxt and the network. A transport answers one HTTP request with status, body
 * and headers; ccxt's own response handling (JSON parsing, exchange-specific error mapping) still
 * runs on what it returns, so a recorded response behaves exactly as the live one would.
 */
import type { Exchange as CcxtClient } from 'ccxt';

export interface TransportResponse {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

/** Rejects with ccxt's NetworkError (or RequestTimeout) when the exchange cannot be reached. */
export type Transport = (
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
) => Promise<TransportResponse>;

/** Routes every REST request of `client` through `transport` instead of the network. */
export function useTransport(client: CcxtClient, transport: Transport): void {
  client.fetch = async (url: string, method = 'GET', headers?: Record<string, string>, body?: string) => {
    const sentHeaders = { ...(headers ?? {}) };
    const reply = await transport(url, method, sentHeaders, body);
    const response = new Response(reply.body, {
      status: reply.status,
      headers: { 'content-type': 'application/json', ...(reply.headers ?? {}) },
    });
    return client.handleRestResponse(response, url, method, sentHeaders, body);
  };
}
