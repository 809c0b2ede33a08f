/** Operator endpoints (ADMIN): users and API keys can be managed while the server runs. */
import Type from 'typebox';
import { parsePermissionList, PERMISSIONS, type Permission } from '../../../auth/permissions.ts';
import type { ApiKeysService } from '../../../services/api-keys.service.ts';
import type { UsersService } from '../../../services/users.service.ts';
import { errors } from '../../../shared/errors.ts';
import { presentApiKey, presentUser } from '../../presenters/admin.presenter.ts';
import { defineRoute } from '../../route.ts';
import { Id, oneOf } from '../../schemas/common.ts';

const CreateUserInput = Type.Object({ name: Type.String({ minLength: 1, maxLength: 64 }) });

const CreateKeyInput = Type.Object({
  user: Type.String({ minLength: 1 }),
  name: Type.String({ minLength: 1, maxLength: 100 }),
  permissions: Type.Union([
    Type.Array(Type.String(), { minItems: 1 }),
    Type.String({ minLength: 1, description: `comma-separated: ${PERMISSIONS.join(', ')}` }),
  ]),
  rsa_public_key: Type.Optional(Type.String({ minLength: 1 })),
  strict: Type.Optional(Type.Boolean()),
  signing: Type.Optional(oneOf(['3commas', 'tl1'], { description: 'tl1: method, path, query, body digest and a timestamp are signed (docs/signing.md)' })),
});

export const adminRoutes = (users: UsersService, apiKeys: ApiKeysService) => [
  defineRoute({
    method: 'POST',
    url: '/ext/users',
    summary: 'Create a user',
    tags: ['ext'],
    input: CreateUserInput,
    successStatus: 201,
    handler: async ({ input }) => presentUser(await users.create(input.name)),
  }),
  defineRoute({
    method: 'GET',
    url: '/ext/users',
    summary: 'List users',
    tags: ['ext'],
    handler: async () => (await users.list()).map(presentUser),
  }),
  defineRoute({
    method: 'POST',
    url: '/ext/api_keys',
    summary: 'Create an API key; the key and its secret are returned only here',
    tags: ['ext'],
    input: CreateKeyInput,
    successStatus: 201,
    handler: ({ input }) =>
      apiKeys.create({
        userName: input.user,
        name: input.name,
        permissions: permissionList(input.permissions),
        ...(input.rsa_public_key === undefined ? {} : { rsaPublicKeyPem: input.rsa_public_key }),
        strict: input.strict ?? false,
        ...(input.signing === undefined ? {} : { signing: input.signing }),
      }),
  }),
  defineRoute({
    method: 'GET',
    url: '/ext/api_keys',
    summary: 'List API keys (never their secrets)',
    tags: ['ext'],
    handler: async () => (await apiKeys.list()).map(presentApiKey),
  }),
  defineRoute({
    method: 'DELETE',
    url: '/ext/api_keys/:id',
    summary: 'Revoke an API key',
    tags: ['ext'],
    input: Type.Object({ id: Id }),
    handler: async ({ input }) => {
      await apiKeys.revoke(input.id);
      return { id: input.id, revoked: true };
    },
  }),
];

function permissionList(raw: string | string[]): Permission[] {
  const { permissions, unknown } = parsePermissionList(raw);
  if (unknown.length > 0) {
    throw errors.recordInvalid({ permissions: [`unknown: ${unknown.join(', ')}`] });
  }
  return permissions;
}
