/**
 * Resolves the caller of every /public/api route in two steps. Before the body is read: the
 * address's failed authentications and the API key, so that nobody without a key makes the
 * server read or parse a body. Once the body is read: the signature over it, then the parameters
 * (path, query and body merged), the permission and the Forced-Mode header. A failure says which
 * part failed, within the reference's codes; the payloads tried are logged at debug level only.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasPermission } from '../../auth/permissions.ts';
import { TIMESTAMP_HEADER } from '../../auth/tl1-signing.ts';
import { verifyRequest } from '../../auth/verify-signature.ts';
import type { ApiKeysService, AuthenticatedKey } from '../../services/api-keys.service.ts';
import type { UserMode } from '../../services/repositories.ts';
import type { UsersService } from '../../services/users.service.ts';
import { type ApiError, errors } from '../../shared/errors.ts';
import { isPlainObject, mergeParameters } from '../request-input.ts';
import { parseBody } from './body-parsers.ts';
import { FailedAuthLimit } from './failed-auth-limit.ts';
import type { CommandForwarder } from '../../services/engine-commands.ts';

export interface Caller {
  key: AuthenticatedKey;
  userId: number;
  /** The mode this request works in: the Forced-Mode header, else the user's current mode. */
  mode(): Promise<UserMode>;
}

declare module 'fastify' {
  interface FastifyRequest {
    parameters: Record<string, unknown>;
    apiKey?: AuthenticatedKey;
    caller?: Caller;
  }
}

export interface AuthenticationDeps {
  apiKeys: ApiKeysService;
  users: UsersService;
  now(): Date;
  /** Failed authentications an address may make per minute; 0 for no limit. */
  failedAuthPerMinute: number;
  /** Recognises a command replayed by this engine: its signature was checked where it was sent. */
  commands?: CommandForwarder;
}

const EMPTY = Buffer.alloc(0);

export function registerAuthentication(app: FastifyInstance, deps: AuthenticationDeps): void {
  const limit = new FailedAuthLimit(deps.failedAuthPerMinute, () => deps.now().getTime());
  const failed = (request: FastifyRequest, error: ApiError): ApiError => {
    limit.recordFailure(request.ip);
    return error;
  };
  app.decorateRequest('parameters', null as unknown as Record<string, unknown>);
  app.decorateRequest('apiKey', undefined);
  app.decorateRequest('caller', undefined);

  const identify = async (request: FastifyRequest): Promise<void> => {
    const wait = limit.retryAfter(request.ip);
    if (wait > 0) throw errors.failedAuthenticationsLimited(wait);
    const apiKey = singleHeader(request, 'apikey');
    if (apiKey === undefined) throw failed(request, errors.apiKeyInvalid('The Apikey header is missing.'));
    const key = await deps.apiKeys.authenticate(apiKey);
    if (!key) throw failed(request, errors.apiKeyInvalid('No active key has this value.'));
    request.apiKey = key;
  };
  // A callback hook, so unsigned requests pass without a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!request.routeOptions.config.access?.signed) return done();
    identify(request).then(() => done(), done);
  });

  app.addHook('preHandler', async (request) => {
    const access = request.routeOptions.config.access;
    if (!access) return;
    const key = request.apiKey;
    if (key && !(deps.commands?.isCommand(request.headers) ?? false)) {
      const signed = {
        method: request.method,
        rawUrl: request.raw.url ?? '',
        body: request.rawBody ?? EMPTY,
        timestamp: singleHeader(request, TIMESTAMP_HEADER),
      };
      const verdict = verifyRequest(key.signingKey, signed, singleHeader(request, 'signature'), deps.now().getTime());
      if (!verdict.ok) {
        if (verdict.tried.length > 0) request.log.debug({ tried: verdict.tried }, 'no signature payload matched');
        throw failed(request, errors.signatureInvalid(verdict.reason));
      }
    }
    request.parameters = mergeParameters(request.query, parseBody(request));
    if (isPlainObject(request.params)) Object.assign(request.parameters, request.params);
    if (!key) return;
    if (!hasPermission(key.permissions, access.permission)) throw errors.permissionDenied();
    const forcedMode = readForcedMode(request);
    request.caller = {
      key,
      userId: key.userId,
      mode: async () => forcedMode ?? (await deps.users.get(key.userId)).mode,
    };
  });
}

function singleHeader(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function readForcedMode(request: FastifyRequest): UserMode | undefined {
  const value = request.headers['forced-mode'];
  if (value === undefined) return undefined;
  if (value === 'paper' || value === 'real') return value;
  throw errors.forcedModeInvalid();
}
