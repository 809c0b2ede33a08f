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

export function registerRoutes(app: FastifyInstance, routes: RouteDefinition[]): void {
  for (const route of routes) {
    const access = accessFor(route.method, route.url);
    if (!access) throw new Error(`${route.method} ${route.url} is missing from the access table`);
    const input = route.input ?? NO_INPUT;
    const validate = compileValidator<unknown>(input);
    const inputDocs = route.method === 'GET' || route.method === 'DELETE' ? 'querystring' : 'body';
    app.route({
      method: route.method,
      url: `${API_PREFIX}${route.url}`,
      config: { access },
      schema: {
        summary: route.summary,
        tags: route.tags,
        [inputDocs]: input,
        ...(access.signed ? { security: [{ Apikey: [], Signature: [] }] } : {}),
      },
      handler: async (request, reply) => {
        const result = await route.handler({
          input: validate(request.parameters),
          caller: request.caller!,
          request,
          reply,
        });
        reply.code(route.successStatus ?? 200);
        return result;
      },
    });
  }
}
