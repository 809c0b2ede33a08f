import Type from 'typebox';
import type { UsersService } from '../../../services/users.service.ts';
import { defineRoute } from '../../route.ts';
import { oneOf } from '../../schemas/common.ts';

const ModeInput = Type.Object({ mode: oneOf(['paper', 'real']) });
export const LOCALES = ['en', 'ru', 'pt', 'zh', 'es', 'fr', 'tr', 'de', 'it'];

export const userRoutes = (users: UsersService) => [
  defineRoute({
    method: 'POST',
    url: '/ver1/users/change_mode',
    summary: "Switch the user's mode between paper and real trading",
    tags: ['users'],
    input: ModeInput,
    successStatus: 201,
    handler: async ({ input, caller }) => {
      const user = await users.changeMode(caller.userId, input.mode);
      return { mode: user.mode };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/ver1/users/current_mode',
    summary: 'The mode this request works in (Forced-Mode header, else the user mode)',
    tags: ['users'],
    handler: async ({ caller }) => ({ mode: await caller.mode() }),
  }),
  defineRoute({
    method: 'PUT',
    url: '/ver1/users/locale',
    summary: "Keep the user's language (texts stay English)",
    tags: ['users'],
    input: Type.Object({ locale: oneOf(LOCALES) }),
    handler: async ({ input, caller }) => ({ locale: (await users.changeLocale(caller.userId, input.locale)).locale }),
  }),
  defineRoute({
    method: 'GET',
    url: '/ver1/users/permissions_info',
    summary: 'The permissions of the calling API key',
    tags: ['users'],
    handler: ({ caller }) => ({
      permissions: caller.key.permissions,
      signature_type: caller.key.signingKey.scheme,
      strict_signing: caller.key.signingKey.strict,
      signing: caller.key.signingKey.signing,
    }),
  }),
];
