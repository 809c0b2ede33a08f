/**
 * The route table as the OpenAPI document publishes it, and signed requests sent to it through
 * inject(): what the route-table suites walk. Schemas here are the document's (OpenAPI 3.0 form).
 */
import qs from 'qs';
import type { FastifyInstance } from 'fastify';
import { signPayload, type Credentials } from '../support/signing.ts';

export interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  enum?: unknown[];
  nullable?: boolean;
  additionalProperties?: Schema | boolean;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  default?: unknown;
}

export interface Operation {
  method: string;
  /** Relative to /public/api, with `:name` path parameters. */
  url: string;
  pathParams: string[];
  /** The query parameters (GET, DELETE) or the body (others), as one object schema. */
  input: Schema;
}

interface OpenApiParameter {
  in: string;
  name: string;
  required?: boolean;
  schema: Schema;
}

export async function loadOperations(app: FastifyInstance): Promise<Operation[]> {
  const document = (await app.inject({ url: '/public/api/openapi.json' })).json();
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries<Record<string, any>>(document.paths)) {
    if (!path.startsWith('/public/api/')) continue;
    for (const [method, operation] of Object.entries<any>(methods)) {
      const parameters: OpenApiParameter[] = operation.parameters ?? [];
      const query = parameters.filter((parameter) => parameter.in === 'query');
      const body: Schema | undefined = operation.requestBody?.content?.['application/json']?.schema;
      operations.push({
        method: method.toUpperCase(),
        url: path.slice('/public/api'.length).replace(/\{(\w+)\}/g, ':$1'),
        pathParams: parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name),
        input: body ?? {
          type: 'object',
          properties: Object.fromEntries(query.map((parameter) => [parameter.name, parameter.schema])),
          required: query.filter((parameter) => parameter.required).map((parameter) => parameter.name),
        },
      });
    }
  }
  return operations;
}

export interface Sent {
  status: number;
  contentType: string;
  text: string;
}

export interface Request {
  method: string;
  /** Path (ids filled in) and query, relative to /public/api. */
  target: string;
  body?: string;
  contentType?: string;
}

/** A request signed over the path, query and body exactly as sent. */
export async function send(app: FastifyInstance, credentials: Credentials, request: Request): Promise<Sent> {
  const url = `/public/api${request.target}`;
  const body = request.body ?? '';
  const response = await app.inject({
    method: request.method as 'GET',
    url,
    headers: {
      apikey: credentials.apiKey,
      signature: signPayload(credentials, `${url}${body}`),
      ...(request.contentType === undefined ? {} : { 'content-type': request.contentType }),
    },
    ...(request.body === undefined ? {} : { payload: request.body }),
  });
  return { status: response.statusCode, contentType: String(response.headers['content-type'] ?? ''), text: response.body };
}

/** Bracketed names, as 3Commas clients write nested parameters in queries and forms. */
export const formText = (value: Record<string, unknown>) => qs.stringify(value, { arrayFormat: 'indices', encodeValuesOnly: false });

/** The path of each text leaf of a schema (free-form values count as text), arrays entered at index 0. */
export function* textLeaves(schema: Schema, path: string[] = []): Generator<string[]> {
  const text = schema.anyOf?.find((branch) => branch.type === 'string');
  if (schema.type === 'string' || text || (schema.type === undefined && !schema.anyOf && !schema.enum)) {
    yield path;
  } else if (schema.type === 'object') {
    for (const [name, property] of Object.entries(schema.properties ?? {})) yield* textLeaves(property, [...path, name]);
  } else if (schema.type === 'array' && schema.items) {
    yield* textLeaves(schema.items, [...path, '0']);
  } else if (schema.anyOf) {
    for (const branch of schema.anyOf) if (branch.type === 'object' || branch.type === 'array') yield* textLeaves(branch, path);
  }
}

/** `{a: {b: [value]}}` for the path ['a', 'b', '0']. */
export function nested(path: string[], value: unknown): Record<string, unknown> {
  return path.reduceRight<unknown>((inner, key) => (/^\d+$/.test(key) ? [inner] : { [key]: inner }), value) as Record<string, unknown>;
}

/** The reference's field name for a path: `take_profit[steps][0][price]`. */
export const fieldName = (path: string[]) => path[0] + path.slice(1).map((part) => `[${part}]`).join('');

/** A small seeded generator (mulberry32): the same seed sends the same requests. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    chance: (p: number) => next() < p,
  };
}

export type Random = ReturnType<typeof seededRandom>;
