/**
 * Serves the dashboard at `/`: the page, its hashed script and style, compressed as the browser
 * accepts. It holds no data and no back door: the page signs its own calls to the public API.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Asset, dashboardBundle } from './bundle.ts';

// lightweight-charts sizes its canvases through style attributes, hence 'unsafe-inline' for styles.
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export function registerDashboard(app: FastifyInstance): void {
  const serve = async (request: FastifyRequest, reply: FastifyReply, path: string) => {
    const found = (await dashboardBundle()).get(path);
    if (!found) return reply.code(404).send({ error: 'not_found', error_description: 'Not Found' });
    return send(request, reply, found);
  };
  app.get('/', (request, reply) => serve(request, reply, '/'));
  app.get('/favicon.svg', (request, reply) => serve(request, reply, '/favicon.svg'));
  app.get<{ Params: { name: string } }>('/assets/:name', (request, reply) => serve(request, reply, `/assets/${request.params.name}`));
}

function send(request: FastifyRequest, reply: FastifyReply, asset: Asset) {
  const accepted = String(request.headers['accept-encoding'] ?? '');
  const [encoding, body] = /\bbr\b/.test(accepted)
    ? ['br', asset.brotli]
    : /\bgzip\b/.test(accepted)
      ? ['gzip', asset.gzip]
      : [undefined, asset.raw];
  if (encoding) reply.header('content-encoding', encoding);
  return reply
    .header('vary', 'accept-encoding')
    .header('cache-control', asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
    .header('content-security-policy', CONTENT_SECURITY_POLICY)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .type(asset.contentType)
    .send(body);
}
