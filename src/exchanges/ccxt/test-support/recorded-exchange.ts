/**
 * A transport that answers from recorded exchange responses, routed by method and path, and
 * fails the test for any request nobody expected. Replies listed for a route are given out in
 * order; the last one keeps answering.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Transport, TransportResponse } from '../ccxt-transport.ts';

export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: string | undefined;
  /** Query and urlencoded or JSON body parameters together. */
  params: Record<string, string>;
}

export type Reply = TransportResponse | ((request: SeenRequest) => TransportResponse);

export function fixture(path: string): string {
  return readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');
}

export const ok = (path: string): TransportResponse => ({ status: 200, body: fixture(path) });

export const json = (status: number, value: unknown): TransportResponse => ({ status, body: JSON.stringify(value) });

/** One entry of a fixture file that holds several named error bodies. */
export function recordedError(path: string, name: string, status = 400): TransportResponse {
  const errors = JSON.parse(fixture(path)) as Record<string, unknown>;
  assert.ok(name in errors, `${path} has ${name}`);
  return json(status, errors[name]);
}

export class RecordedExchange {
  readonly requests: SeenRequest[] = [];
  readonly unexpected: string[] = [];
  private readonly routes = new Map<string, Reply[]>();

  constructor(routes: Record<string, Reply | Reply[]> = {}) {
    for (const [route, replies] of Object.entries(routes)) this.on(route, ...(Array.isArray(replies) ? replies : [replies]));
  }

  /** Replaces the replies of a route such as `GET /api/v3/account`. */
  on(route: string, ...replies: Reply[]): this {
    this.routes.set(route, replies);
    return this;
  }

  seen(route: string): SeenRequest[] {
    return this.requests.filter((request) => `${request.method} ${request.path}` === route);
  }

  readonly transport: Transport = async (url, method, headers, body) => {
    const request = seenRequest(url, method, headers, body);
    const route = `${request.method} ${request.path}`;
    const replies = this.routes.get(route);
    if (!replies || replies.length === 0) {
      this.unexpected.push(route);
      assert.fail(`unexpected request ${route}`);
    }
    this.requests.push(request);
    const reply = replies.length > 1 ? replies.shift()! : replies[0]!;
    return typeof reply === 'function' ? reply(request) : reply;
  };
}

export function seenRequest(url: string, method: string, headers: Record<string, string>, body: string | undefined): SeenRequest {
  const parsed = new URL(url);
  const params = Object.fromEntries(parsed.searchParams);
  if (body !== undefined && body.startsWith('{')) Object.assign(params, JSON.parse(body) as Record<string, string>);
  else if (body !== undefined && body.startsWith('[')) Object.assign(params, (JSON.parse(body) as Record<string, string>[])[0]);
  else if (body !== undefined) Object.assign(params, Object.fromEntries(new URLSearchParams(body)));
  return { method: method.toUpperCase(), path: parsed.pathname, query: parsed.searchParams, headers, body, params };
}
