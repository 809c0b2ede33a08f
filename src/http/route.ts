/**
 * The shape every API route is declared in: a method and path relative to /public/api, a TypeBox
 * schema for its merged parameters, and a handler that gets validated input and the caller.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static, TSchema } from 'typebox';
import Type from 'typebox';
import type { Caller } from './plugins/authentication.ts';
import { accessFor, type RouteAccess } from './access-table.ts';
import { compileValidator } from './validation.ts';

export const API_PREFIX = '/public/api';

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface RouteContext<Input> {
  input: Input;
  /** The authenticated caller; present on every signed route. */
  caller: Caller;
  request: FastifyRequest;
  reply: FastifyReply;
}

export interface RouteDefinition<S extends TSchema = TSchema> {
  method: Method;
  url: string;
  summary: string;
  tags: string[];
  input?: S;
  successStatus?: number;
  handler(context: RouteContext<Static<S>>): Promise<unknown> | unknown;
}

export function defineRoute<S extends TSchema>(route: RouteDefinition<S>): RouteDefinition {
  return route as unknown as RouteDefinition;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
}

const NO_INPUT = Type.Object({});
/** Unsigned routes take no body; a small cap keeps anyone without a key from making us read one. */
const UNSIGNED_BODY_LIMIT = 4096;
const JSON_TYPE = 'application/json; charset=utf-8';

export function registerRoutes(app: FastifyInstance, routes: RouteDefinition[]): void {
  for (const route of routes) {
    const access = accessFor(route.method, route.url);
    if (!access) throw new Error(`${route.method} ${route.url} is missing from the access table`);
    const input = route.input ?? NO_INPUT;
    const validate = compileValidator<unknown>(input);
    app.route({
      method: route.method,
      url: `${API_PREFIX}${routerPath(route.url, input)}`,
      config: { access },
      ...(access.signed ? {} : { bodyLimit: UNSIGNED_BODY_LIMIT }),
      schema: {
        summary: route.summary,
        description: accessText(access),
        'x-permission': access.permission,
        tags: route.tags,
        ...documentedInput(route, input),
        ...(access.signed ? { security: [{ Apikey: [], Signature: [] }] } : {}),
      },
      handler: async (request, reply) => {
        const result = await route.handler({
          input: validate(request.parameters),
          caller: request.caller!,
          request,
          reply,
        });
        // Clients parse every reply as JSON: Fastify sends objects, arrays, numbers, booleans and
        // null as JSON, but a string as bare text and undefined as nothing.
        if (result === undefined) throw new Error(`${route.method} ${route.url} answered no body`);
        reply.code(route.successStatus ?? 200);
        return typeof result === 'string' ? reply.type(JSON_TYPE).send(JSON.stringify(result)) : result;
      },
    });
  }
}

/**
 * An integer path parameter matches only digits, so a word in its place (`/ver1/accounts/summary`)
 * is an unknown path (404, or 501 for a reference endpoint not served), never a malformed id.
 */
function routerPath(url: string, input: TSchema): string {
  const properties = (input as { properties?: Record<string, { type?: string }> }).properties ?? {};
  return url.replace(/:(\w+)/g, (param, name: string) => (properties[name]?.type === 'integer' ? `${param}(^\\d+$)` : param));
}

function accessText(access: RouteAccess): string {
  return access.signed ? `Signed; the key needs the ${access.permission} permission.` : 'Public: no key or signature needed.';
}

/** Path parameters are documented as such, the rest as the query (GET, DELETE) or the body. */
function documentedInput(route: RouteDefinition, input: TSchema) {
  type ObjectSchema = TSchema & { properties?: Record<string, TSchema & { default?: unknown }>; required?: string[] };
  const { properties = {}, required = [], ...schema } = input as ObjectSchema;
  const pathNames = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  // A parameter with a default is required of the handler, not of the client.
  const otherNames = required.filter((name) => !pathNames.includes(name) && properties[name]?.default === undefined);
  const others = {
    ...schema,
    properties: Object.fromEntries(Object.entries(properties).filter(([name]) => !pathNames.includes(name))),
    ...(otherNames.length > 0 ? { required: otherNames } : {}),
  };
  const params = Object.fromEntries(pathNames.map((name) => [name, properties[name] ?? Type.String()]));
  return {
    ...(pathNames.length > 0 ? { params: Type.Object(params) } : {}),
    [route.method === 'GET' || route.method === 'DELETE' ? 'querystring' : 'body']: others,
  };
}
