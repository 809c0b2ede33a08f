/**
 * Bodies are read as raw bytes only: signatures are computed over the exact bytes received, and
 * a body is parsed once its request is authenticated (parseBody, called by the authentication
 * hook), so an unauthenticated client never makes the server parse up to a megabyte. JSON and
 * form bodies are told apart by their content type; a body with another or no content type is
 * read as JSON when it looks like JSON and as a form otherwise, because several clients omit it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseFormBody, parseJsonBody } from '../request-input.ts';

type Parser = (body: Buffer) => unknown;

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: Buffer;
    bodyParser?: Parser;
  }
}

export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  const keep = (parser: Parser) => {
    return (request: FastifyRequest, body: Buffer, done: (error: Error | null, value?: unknown) => void) => {
      request.rawBody = body;
      request.bodyParser = parser;
      done(null, undefined);
    };
  };
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, keep(parseJsonBody));
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, keep(parseFormBody));
  app.addContentTypeParser('*', { parseAs: 'buffer' }, keep(sniff));
}

/** The body's parameters, parsed now; invalid bodies throw the catalogue's invalid_request. */
export function parseBody(request: FastifyRequest): unknown {
  return request.rawBody === undefined || request.bodyParser === undefined ? undefined : request.bodyParser(request.rawBody);
}

function sniff(body: Buffer): unknown {
  const first = body.find((byte) => byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09);
  return first === 0x7b || first === 0x5b ? parseJsonBody(body) : parseFormBody(body);
}
