/**
 * Request parameters the way 3Commas clients send them: query string, form body or JSON body, with
 * bracketed nested names (`position[units][value]`, `account_ids[]`). A name given in both the
 * query and the body takes the query's value.
 */
import qs from 'qs';
import { errors } from '../shared/errors.ts';

export const MAX_NESTING = 16;
const QS_OPTIONS = { depth: MAX_NESTING, arrayLimit: 1000, parameterLimit: 2000, allowDots: false };

export function parseQuery(text: string): Record<string, unknown> {
  return qs.parse(text, QS_OPTIONS) as Record<string, unknown>;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function decodeUtf8(body: Buffer): string {
  try {
    return utf8.decode(body);
  } catch {
    throw errors.invalidRequest('The request body is not valid UTF-8');
  }
}

export function parseJsonBody(body: Buffer): unknown {
  const text = decodeUtf8(body);
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw errors.invalidRequest('The request body is not valid JSON');
  }
  if (nestingDepth(parsed) > MAX_NESTING) {
    throw errors.invalidRequest(`The request body is nested deeper than ${MAX_NESTING} levels`);
  }
  return parsed;
}

export function parseFormBody(body: Buffer): Record<string, unknown> {
  return parseQuery(decodeUtf8(body));
}

/** Non-object bodies (the reference sends a bare `true` to some deletes) carry no parameters. */
export function mergeParameters(query: unknown, body: unknown): Record<string, unknown> {
  return deepMerge(isPlainObject(body) ? body : {}, isPlainObject(query) ? query : {});
}

function deepMerge(base: Record<string, unknown>, winner: Record<string, unknown>) {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(winner)) {
    const existing = merged[key];
    merged[key] =
      isPlainObject(existing) && isPlainObject(value) ? deepMerge(existing, value) : value;
  }
  return merged;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Iterative, so a hostile body cannot exhaust the stack while it is being measured. */
function nestingDepth(root: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > MAX_NESTING) return deepest;
    for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
  return deepest;
}
