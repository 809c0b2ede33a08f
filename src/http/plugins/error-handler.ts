/** Every failure leaves as a catalogue error body; nothing unexpected leaks as an HTML or stack. */
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, errors, StorageUnavailableError } from '../../shared/errors.ts';
import { AccountOwnedElsewhereError } from '../../engine/lease-store.ts';
import { API_PREFIX } from '../route.ts';
import { unsupportedReason } from '../unsupported-routes.ts';
import { type CommandForwarder, ELSEWHERE_HEADER, type ForwardedRequest } from '../../services/engine-commands.ts';

export function registerErrorHandling(app: FastifyInstance, bodyLimit: number, commands?: CommandForwarder): void {
  app.setNotFoundHandler(async (request, reply) => {
    const path = (request.url.split('?')[0] ?? '').slice(API_PREFIX.length);
    const reason = request.url.startsWith(`${API_PREFIX}/`) ? unsupportedReason(request.method, path) : undefined;
    const error = reason === undefined ? errors.notFound() : errors.notImplemented(`${request.method} ${path}`, reason);
    return reply.code(error.status).send(error.toBody());
  });

  app.setErrorHandler(async (raw: FastifyError | ApiError, request, reply) => {
    if (raw instanceof AccountOwnedElsewhereError && commands) {
      // A replayed command whose account moved on is handed back to wait for the new owner.
      if (commands.isCommand(request.headers)) void reply.header(ELSEWHERE_HEADER, '1');
      else {
        const answer = await commands.forward(raw.accountId, forwarded(request));
        if (answer) return reply.code(answer.status).headers(answer.headers).send(answer.body);
      }
    }
    const error = toApiError(raw, bodyLimit, String(request.headers['content-type'] ?? ''));
    if (error.status >= 500) request.log.error({ err: raw }, 'request failed');
    return reply.code(error.status).headers(error.headers).send(error.toBody());
  });
}

function forwarded(request: FastifyRequest): ForwardedRequest {
  const headers: Record<string, string> = {};
  for (const name of ['apikey', 'forced-mode', 'content-type']) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return { method: request.method, url: request.raw.url ?? request.url, body: (request.rawBody ?? Buffer.alloc(0)).toString('base64'), headers };
}

function toApiError(error: FastifyError | ApiError, bodyLimit: number, contentType: string): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof StorageUnavailableError) return errors.databaseUnavailable();
  if (error instanceof AccountOwnedElsewhereError) return errors.accountRunElsewhere();
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return errors.payloadTooLarge(bodyLimit);
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return errors.unsupportedMediaType(contentType);
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return new ApiError(status, 'invalid_request', error.message);
  return errors.unknown();
}

/** Errors the router raises before any hook runs: a path that is not valid percent-encoding, an over-long path parameter. */
export function frameworkErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const apiError =
    error.code === 'FST_ERR_BAD_URL'
      ? errors.invalidRequest('The request path is not valid percent-encoded UTF-8')
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? errors.invalidRequest('A path segment is too long')
        : errors.unknown();
  void reply.code(apiError.status).send(apiError.toBody());
}

/**
 * Requests Node's HTTP parser refuses (a request line or headers over 16 KiB, a malformed request,
 * a timeout) never reach a route; they still get a catalogue body, then the connection closes.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, description] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'The request line and headers must stay under 16 KiB']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'The request was not received in time']
        : [400, 'Bad Request', 'Malformed HTTP request'];
  if (socket.writable) {
    const body = JSON.stringify(errors.invalidRequest(description).toBody());
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
