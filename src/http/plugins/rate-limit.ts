/** Requests per minute per API key (per client address for unsigned calls), like the reference. */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../shared/errors.ts';
import { API_PREFIX } from '../route.ts';

export async function registerRateLimit(app: FastifyInstance, perMinute: number): Promise<void> {
  if (perMinute === 0) return;
  await app.register(rateLimit, {
    max: perMinute,
    timeWindow: 60_000,
    allowList: (request) => !request.url.startsWith(API_PREFIX),
    keyGenerator: (request) => {
      const apiKey = request.headers.apikey;
      return typeof apiKey === 'string' && apiKey !== '' ? `key:${apiKey}` : `ip:${request.ip}`;
    },
    errorResponseBuilder: (_request, context) =>
      errors.rateLimited(Math.max(1, Math.ceil(context.ttl / 1000))),
  });
}
