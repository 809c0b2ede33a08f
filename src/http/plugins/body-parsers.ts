/**
 * Bodies are read as raw bytes first: signatures are computed over the exact bytes received, and
 * only then parsed. JSON and form bodies are parsed by their content type; a body with another or
 * no content type is read as JSON when it looks like JSON and as a form otherwise, because several
 * clients omit the header.
 */
import type { FastifyInstance } from 'fastify';
import { parseFormBody, parseJsonBody } from '../request-input.ts';

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: Buffer;
  }
}

export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  const parse = (parser: (body: Buffer) => unknown) => {
    return (request: { rawBody?: Buffer }, body: Buffer, done: (e: Error | null, v?: unknown) => void) => {
      request.rawBody = body;
      try {
        done(null, parser(body));
      } catch (error) {
        done(error as Error);
      }
    };
  };
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, parse(parseJsonBody));
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'buffer' },
    parse(parseFormBody),
  );
  app.addContentTypeParser('*', { parseAs: 'buffer' }, parse(sniff));
}

function sniff(body: Buffer): unknown {
  const first = body.find((byte) => byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09);
  return first === 0x7b || first === 0x5b ? parseJsonBody(body) : parseFormBody(body);
}
