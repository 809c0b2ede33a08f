/**
 * Requests per minute per API key (per client address for unsigned calls), like the reference.
 * It counts after authentication (a route-level preHandler runs after the authentication hook),
 * so only a verified key spends its own quota; a made-up key value cannot drain or dodge one.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../shared/errors.ts';
import { API_PREFIX } from '../route.ts';
import type { CommandForwarder } from '../../services/engine-commands.ts';

export async function registerRateLimit(app: FastifyInstance, perMinute: number, commands?: CommandForwarder): Promise<void> {
  if (perMinute === 0) return;
  await app.register(rateLimit, {
    max: perMinute,
    timeWindow: 60_000,
    hook: 'preHandler',
    // A command replayed by the owning engine was counted by the server it was sent to.
    allowList: (request) => !request.url.startsWith(API_PREFIX) || (commands?.isCommand(request.headers) ?? false),
    keyGenerator: (request) => (request.caller ? `key:${request.caller.key.id}` : `ip:${request.ip}`),
    errorResponseBuilder: (_request, context) =>
      errors.rateLimited(Math.max(1, Math.ceil(context.ttl / 1000))),
  });
}
