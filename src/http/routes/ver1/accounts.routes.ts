import Type from 'typebox';
import type { AccountOverview, AccountOverviews } from '../../../services/account-overview.ts';
import type { AccountsService } from '../../../services/accounts.service.ts';
import type { MarketsService } from '../../../services/markets.service.ts';
import type { Account } from '../../../services/repositories.ts';
import { sellAll } from '../../../services/sell-all.ts';
import { errors } from '../../../shared/errors.ts';
import { presentAccount, presentPieChart, presentTableData } from '../../presenters/account.presenter.ts';
import { defineRoute } from '../../route.ts';
import { Id, Page } from '../../schemas/common.ts';
import { accountActivityRoutes } from './account-activity.routes.ts';
import { accountOptionRoutes } from './account-options.routes.ts';
import { type AccountVolumeDeps, accountVolumeRoutes } from './account-volume.routes.ts';

const Name = Type.String({ minLength: 1, maxLength: 100 });
const Credential = Type.Optional(Type.String({ maxLength: 4096 }));
const Credentials = {
  api_key: Credential,
  secret: Credential,
  passphrase: Credential,
  customer_id: Credential,
  address: Credential,
};
const AccountId = Type.Object({ account_id: Id });

export interface AccountRouteDeps extends AccountVolumeDeps {
  accounts: AccountsService;
  markets: MarketsService;
  overviews: AccountOverviews;
  /** Sales are the paper venue's writes: only the engine running the account may make them. */
  holdAccount(accountId: number): Promise<void>;
}

export const accountRoutes = (deps: AccountRouteDeps) => {
  // Lists and account answers show the last known value of an account whose exchange cannot be
  // read now; load_balances, the table and the pie chart report why instead.
  const present = async (account: Account, lastKnownIfUnreadable = true) =>
    presentAccount(
      await deps.overviews.overview(account, { lastKnownIfUnreadable }),
      await deps.markets.description(account.marketCode),
    );
  return [
    defineRoute({
      method: 'POST',
      url: '/ver1/accounts/new',
      summary: 'Connect an exchange account (type = market code), or open another paper account',
      tags: ['accounts'],
      input: Type.Object({ type: Type.String({ minLength: 1 }), name: Name, ...Credentials }),
      successStatus: 201,
      handler: async ({ input, caller }) => present(await deps.accounts.connect(caller.userId, input)),
    }),
    defineRoute({
      method: 'GET',
      url: '/ver1/accounts',
      summary: "The user's accounts for the current mode (paper or real)",
      tags: ['accounts'],
      input: Type.Object({
        page: Page,
        per_page: Type.Integer({ minimum: 1, maximum: 100, default: 100 }),
      }),
      handler: async ({ input, caller }) => {
        const accounts = await deps.accounts.list(caller.userId, await caller.mode());
        const page = accounts.slice((input.page - 1) * input.per_page, input.page * input.per_page);
        return Promise.all(page.map((account) => present(account)));
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/ver1/accounts/:account_id',
      summary: 'One account',
      tags: ['accounts'],
      input: AccountId,
      handler: async ({ input, caller }) => present(await deps.accounts.get(caller.userId, input.account_id)),
    }),
    defineRoute({
      method: 'POST',
      url: '/ver1/accounts/update',
      summary: 'Rename, replace credentials, or include in or exclude from summaries',
      tags: ['accounts'],
      input: Type.Object({
        account_id: Id,
        name: Type.Optional(Name),
        include_in_summary: Type.Optional(Type.Boolean()),
        ...Credentials,
      }),
      successStatus: 201,
      handler: async ({ input, caller }) => {
        const { account_id: accountId, ...changes } = input;
        return present(await deps.accounts.update(caller.userId, accountId, changes));
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/ver1/accounts/:account_id/rename',
      summary: 'Rename an account',
      tags: ['accounts'],
      input: Type.Object({ account_id: Id, name: Name }),
      successStatus: 201,
      handler: async ({ input, caller }) =>
        present(await deps.accounts.update(caller.userId, input.account_id, { name: input.name })),
    }),
    defineRoute({
      method: 'POST',
      url: '/ver1/accounts/:account_id/remove',
      summary: 'Remove an account (refused while it has active trading)',
      tags: ['accounts'],
      input: AccountId,
      successStatus: 201,
      handler: async ({ input, caller }) => {
        await deps.accounts.remove(caller.userId, input.account_id);
        return true;
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/ver1/accounts/:account_id/load_balances',
      summary: 'Refresh balances from the exchange',
      tags: ['accounts'],
      input: AccountId,
      successStatus: 201,
      handler: async ({ input, caller }) => present(await deps.accounts.get(caller.userId, input.account_id), false),
    }),
    ...(['btc', 'usd'] as const).map((target) =>
      defineRoute({
        method: 'POST',
        url: `/ver1/accounts/:account_id/sell_all_to_${target}`,
        summary: `Sell every free coin on the account for ${target.toUpperCase()} at market (confirm: true required)`,
        tags: ['accounts'],
        input: Type.Object({ account_id: Id, confirm: Type.Optional(Type.Boolean()) }),
        successStatus: 201,
        handler: async ({ input, caller }) => {
          if (input.confirm !== true) throw errors.recordInvalid({ confirm: ['must be true: every free coin on the account is sold'] });
          const account = await deps.accounts.get(caller.userId, input.account_id);
          await deps.holdAccount(account.id);
          const outcomes = await sellAll(await deps.accounts.exchangeFor(account), target);
          const refused = outcomes.flatMap((o) => ('refused' in o.result ? [`${o.currency}: ${o.result.refused}`] : []));
          if (refused.length > 0) throw errors.unprocessable(`The exchange refused to sell ${refused.join('; ')}`);
          return present(account, false);
        },
      }),
    ),
    overviewRoute(deps, '/ver1/accounts/:account_id/account_table_data', 'Balances per currency with their value', presentTableData),
    overviewRoute(deps, '/ver1/accounts/:account_id/pie_chart_data', 'Share of each currency in the account value', presentPieChart),
    ...accountActivityRoutes(deps.accounts),
    ...accountOptionRoutes(deps.accounts, deps.markets),
    ...accountVolumeRoutes(deps),
  ];
};

/** A POST that answers with a view of the caller's account valued at current prices. */
function overviewRoute(deps: AccountRouteDeps, url: string, summary: string, present: (overview: AccountOverview) => unknown) {
  return defineRoute({
    method: 'POST',
    url,
    summary,
    tags: ['accounts'],
    input: AccountId,
    successStatus: 201,
    handler: async ({ input, caller }) =>
      present(await deps.overviews.overview(await deps.accounts.get(caller.userId, input.account_id))),
  });
}
