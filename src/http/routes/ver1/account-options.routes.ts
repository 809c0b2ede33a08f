/**
 * What a client asks before it connects or trades on an account: the exchange types it can still
 * connect, and the leverage an account offers (none: every market here is spot).
 */
import Type from 'typebox';
import type { AccountsService } from '../../../services/accounts.service.ts';
import type { MarketsService } from '../../../services/markets.service.ts';
import { SPOT_LEVERAGE_DATA } from '../../presenters/market.presenter.ts';
import { defineRoute, type RouteDefinition } from '../../route.ts';
import { Id } from '../../schemas/common.ts';

const Text = Type.Optional(Type.String({ maxLength: 4096 }));

export const accountOptionRoutes = (accounts: AccountsService, markets: MarketsService): RouteDefinition[] => [
  ...(['GET', 'POST'] as const).map((method) =>
    defineRoute({
      method,
      url: '/ver1/accounts/types_to_connect',
      summary: 'Exchange types and whether the user has connected one (POST in the legacy docs)',
      tags: ['accounts'],
      // The reference also takes name, api_key and secret; nothing here depends on them.
      input: Type.Object({ type: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })), name: Text, api_key: Text, secret: Text }),
      handler: async ({ input, caller }) => {
        const owned = [...(await accounts.list(caller.userId, 'paper')), ...(await accounts.list(caller.userId, 'real'))];
        const connected = new Set(owned.map((account) => account.marketCode));
        return (await markets.describe())
          .filter((market) => input.type === undefined || market.marketCode === input.type)
          .map((market) => ({ type: market.marketCode, connected: connected.has(market.marketCode), available: true, unified: false }));
      },
    }),
  ),
  ...(['GET', 'POST'] as const).map((method) =>
    defineRoute({
      method,
      url: '/ver1/accounts/:account_id/leverage_data',
      summary: 'Leverage types of the account (spot only: none)',
      tags: ['accounts'],
      input: Type.Object({ account_id: Id, pair: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })), page: Type.Optional(Type.Integer({ minimum: 1 })) }),
      handler: async ({ input, caller }) => {
        const account = await accounts.get(caller.userId, input.account_id);
        if (input.pair !== undefined) await markets.market(account.marketCode, input.pair);
        return SPOT_LEVERAGE_DATA;
      },
    }),
  ),
];
