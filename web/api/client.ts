/**
 * The dashboard's only way to the server: signed calls to the public API under /public/api. The
 * key and secret live in this tab's sessionStorage and nowhere else; the chosen paper or real
 * mode is sent as Forced-Mode on every call, as any API client would.
 */
import { ApiError, apiErrorFrom, missingPermission } from './errors.ts';
import { type SigningScheme, signatureHeaders } from './signing.ts';

const API_PREFIX = '/public/api';
const SESSION_KEY = 'tradeloop.session';

export type Mode = 'paper' | 'real';

export interface Session {
  apiKey: string;
  secret: string;
  scheme: SigningScheme;
  permissions: string[];
  mode: Mode;
  /** How often pages refresh their data, in milliseconds. */
  refreshMs: number;
  /** Server clock minus browser clock, in seconds: TL1 timestamps must be within 30 s of the server's. */
  clockOffset: number;
}

export type Query = Record<string, string | number | boolean | undefined>;

export interface CallOptions {
  query?: Query;
  body?: unknown;
  /** Overrides the session's mode for this call; null sends no Forced-Mode (the user's own mode applies). */
  mode?: Mode | null;
  signal?: AbortSignal;
}

export function loadSession(): Session | undefined {
  const stored = sessionStorage.getItem(SESSION_KEY);
  if (!stored) return undefined;
  try {
    return JSON.parse(stored) as Session;
  } catch {
    return undefined;
  }
}

export function saveSession(session: Session | undefined): void {
  if (session) sessionStorage.setItem(SESSION_KEY, JSON.stringify(session));
  else sessionStorage.removeItem(SESSION_KEY);
}

export function queryString(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.append(name, String(value));
  return params.toString();
}

export class ApiClient {
  constructor(readonly session: Session) {}

  get<T>(path: string, options: Omit<CallOptions, 'body'> = {}): Promise<T> {
    return this.call<T>('GET', path, options);
  }

  post<T>(path: string, body: unknown = {}, options: CallOptions = {}): Promise<T> {
    return this.call<T>('POST', path, { ...options, body });
  }

  patch<T>(path: string, body: unknown, options: CallOptions = {}): Promise<T> {
    return this.call<T>('PATCH', path, { ...options, body });
  }

  delete<T>(path: string, options: CallOptions = {}): Promise<T> {
    return this.call<T>('DELETE', path, options);
  }

  async call<T>(method: string, path: string, options: CallOptions = {}): Promise<T> {
    // A read the key may not make is not sent: its section says why instead. Writes always go
    // to the server, which has the last word.
    if (method === 'GET') {
      const refusal = missingPermission(this.session.permissions, method, path);
      if (refusal) throw refusal;
    }
    const query = queryString(options.query);
    const body = options.body === undefined ? '' : JSON.stringify(options.body);
    const fullPath = API_PREFIX + path;
    const { apiKey, secret, scheme, clockOffset } = this.session;
    const nowSeconds = Math.floor(Date.now() / 1000) + clockOffset;
    const headers: Record<string, string> = {
      ...(await signatureHeaders(scheme, apiKey, secret, { method, path: fullPath, query, body }, nowSeconds)),
      ...(options.mode === null ? {} : { 'Forced-Mode': options.mode ?? this.session.mode }),
      ...(body === '' ? {} : { 'Content-Type': 'application/json' }),
    };
    return request<T>(method, path, query, { method, headers, ...(body === '' ? {} : { body }), ...(options.signal ? { signal: options.signal } : {}) });
  }
}

/** An unsigned call (public market data). */
export function publicGet<T>(path: string, query: Query = {}, signal?: AbortSignal): Promise<T> {
  return request<T>('GET', path, queryString(query), { method: 'GET', ...(signal ? { signal } : {}) });
}

async function request<T>(method: string, path: string, query: string, init: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(API_PREFIX + path + (query === '' ? '' : `?${query}`), init);
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError('The server cannot be reached.', 0, 'unreachable');
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    throw new ApiError(`The server answered ${response.status} with something that is not JSON.`, response.status, 'not_json');
  }
  if (!response.ok) throw apiErrorFrom(response.status, parsed, method, path);
  return parsed as T;
}
