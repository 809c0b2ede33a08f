/**
 * Resolves the caller of every /public/api route: parameters merged from path, query and body,
 * the Forced-Mode header, and for signed routes the API key, its signature and its permission.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasPermission } from '../../auth/permissions.ts';
import { verifySignature } from '../../auth/verify-signature.ts';
import type { ApiKeysService, AuthenticatedKey } from '../../services/api-keys.service.ts';
import type { UserMode } from '../../services/repositories.ts';
import type { UsersService } from '../../services/users.service.ts';
import { errors } from '../../shared/errors.ts';
import { isPlainObject, mergeParameters } from '../request-input.ts';

export interface Caller {
  key: AuthenticatedKey;
  userId: number;
  /** The mode this request works in: the Forced-Mode header, else the user's current mode. */
  mode(): Promise<UserMode>;
}

declare module 'fastify' {
  interface FastifyRequest {
    parameters: Record<string, unknown>;
    caller?: Caller;
  }
}

export interface AuthenticationDeps {
  apiKeys: ApiKeysService;
  users: UsersService;
}

export function registerAuthentication(app: FastifyInstance, deps: AuthenticationDeps): void {
  app.decorateRequest('parameters', null as unknown as Record<string, unknown>);
  app.decorateRequest('caller', undefined);
  app.addHook('preHandler', async (request) => {
    const access = request.routeOptions.config.access;
    if (!access) return;
    request.parameters = mergeParameters(request.query, request.body);
    if (isPlainObject(request.params)) Object.assign(request.parameters, request.params);
    if (!access.signed) return;

    const apiKey = singleHeader(request, 'apikey');
    const key = apiKey === undefined ? undefined : await deps.apiKeys.authenticate(apiKey);
    if (!key) throw errors.apiKeyInvalid();
    const signature = singleHeader(request, 'signature');
    const signedRequest = { rawUrl: request.raw.url ?? '', body: request.rawBody ?? EMPTY };
    if (signature === undefined || !verifySignature(key.signingKey, signedRequest, signature)) {
      throw errors.signatureInvalid();
    }
    if (!hasPermission(key.permissions, access.permission)) throw errors.permissionDenied();
    const forcedMode = readForcedMode(request);
    request.caller = {
      key,
      userId: key.userId,
      mode: async () => forcedMode ?? (await deps.users.get(key.userId)).mode,
    };
  });
}

const EMPTY = Buffer.alloc(0);

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
