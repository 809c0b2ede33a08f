/** Every failure leaves as a catalogue error body; nothing unexpected leaks as an HTML or stack. */
import type { FastifyError, FastifyInstance } from 'fastify';
import { ApiError, errors } from '../../shared/errors.ts';

export function registerErrorHandling(app: FastifyInstance, bodyLimit: number): void {
  app.setNotFoundHandler(async (_request, reply) => {
    const error = errors.notFound();
    return reply.code(error.status).send(error.toBody());
  });

  app.setErrorHandler(async (raw: FastifyError | ApiError, request, reply) => {
    const error = toApiError(raw, bodyLimit);
    if (error.status >= 500) request.log.error({ err: raw }, 'request failed');
    return reply.code(error.status).headers(error.headers).send(error.toBody());
  });
}

function toApiError(error: FastifyError | ApiError, bodyLimit: number): ApiError {
  if (error instanceof ApiError) return error;
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return errors.payloadTooLarge(bodyLimit);
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return new ApiError(status, 'invalid_request', error.message);
  return errors.unknown();
}
