/**
 * What an account traded, from the orders this server placed on it (its bots, SmartTrades and
 * trades), each counted on the UTC day of its last fill and valued at current prices.
 */
import Type from 'typebox';
import type { AccountsService } from '../../../services/accounts.service.ts';
import { tradedVolume } from '../../../services/account-volume.ts';
import type { MarketsService } from '../../../services/markets.service.ts';
import type { TradedVolumes } from '../../../services/repositories.ts';
import type { Decimal } from '../../../shared/decimal.ts';
import { errors } from '../../../shared/errors.ts';
import { defineRoute } from '../../route.ts';
import { Id } from '../../schemas/common.ts';

const DAY = Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$', description: 'A UTC day, YYYY-MM-DD; today when omitted' });
const MONTH = Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$', description: 'A UTC month, YYYY-MM; this month when omitted' });

const figures = (volume: { usd: Decimal; btc: Decimal }) => ({
  volume_btc: volume.btc.toDecimalPlaces(8).toFixed(),
  volume_usd: volume.usd.toDecimalPlaces(2).toFixed(),
});

export interface AccountVolumeDeps {
  accounts: AccountsService;
  markets: MarketsService;
  tradedVolumes: TradedVolumes;
  now: () => Date;
}

export const accountVolumeRoutes = ({ accounts, markets, tradedVolumes, now }: AccountVolumeDeps) => {
  const volume = async (userId: number, accountId: number, from: Date | null, until: Date | null) =>
    figures(await tradedVolume(tradedVolumes, markets, await accounts.get(userId, accountId), from, until));
  return [
    defineRoute({
      method: 'GET',
      url: '/ver1/accounts/:account_id/volume/daily',
      summary: 'Volume traded on the account in one UTC day',
      tags: ['accounts'],
      input: Type.Object({ account_id: Id, date: Type.Optional(DAY) }),
      handler: async ({ input, caller }) => {
        const day = input.date ?? now().toISOString().slice(0, 10);
        const from = new Date(`${day}T00:00:00Z`);
        if (Number.isNaN(from.getTime()) || from.toISOString().slice(0, 10) !== day) throw errors.recordInvalid({ date: ['is invalid'] });
        const until = new Date(from.getTime() + 86_400_000);
        return { utc_date: day, ...(await volume(caller.userId, input.account_id, from, until)) };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/ver1/accounts/:account_id/volume/monthly',
      summary: 'Volume traded on the account in one UTC month',
      tags: ['accounts'],
      input: Type.Object({ account_id: Id, month: Type.Optional(MONTH) }),
      handler: async ({ input, caller }) => {
        const month = input.month ?? now().toISOString().slice(0, 7);
        const [year, monthNo] = month.split('-').map(Number) as [number, number];
        const from = new Date(Date.UTC(year, monthNo - 1, 1));
        const until = new Date(Date.UTC(year, monthNo, 1));
        return { utc_month: month, ...(await volume(caller.userId, input.account_id, from, until)) };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/ver1/accounts/:account_id/volume/total',
      summary: 'Volume traded on the account since it was connected',
      tags: ['accounts'],
      input: Type.Object({ account_id: Id }),
      handler: async ({ input, caller }) => volume(caller.userId, input.account_id, null, null),
    }),
  ];
};
