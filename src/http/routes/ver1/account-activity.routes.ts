import Type from 'typebox';
import type { AccountsService } from '../../../services/accounts.service.ts';
import { dec } from '../../../shared/decimal.ts';
import { errors } from '../../../shared/errors.ts';
import { defineRoute } from '../../route.ts';
import { Id } from '../../schemas/common.ts';

const DateParam = Type.String({ minLength: 1, maxLength: 40 });

export const accountActivityRoutes = (accounts: AccountsService) => [
  defineRoute({
    method: 'GET',
    url: '/ver1/accounts/:account_id/active_trading_entities',
    summary: 'What is trading on the account now',
    tags: ['accounts'],
    input: Type.Object({ account_id: Id }),
    handler: async ({ input, caller }) => {
      const account = await accounts.get(caller.userId, input.account_id);
      const openOrders = await accounts.openOrders(account);
      return {
        data: {
          active_bots_count: 0,
          active_deals_count: 0,
          active_smart_trades_count: 0,
          active_orders_count: openOrders.length,
          active_grid_bots_count: 0,
        },
      };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/ver1/accounts/:account_id/balance_chart_data',
    summary: "The account's daily value in USD and BTC",
    tags: ['accounts'],
    input: Type.Object({ account_id: Id, date_from: DateParam, date_to: Type.Optional(DateParam) }),
    handler: async ({ input, caller }) => {
      await accounts.get(caller.userId, input.account_id);
      const from = day(input.date_from, 'date_from');
      const to = input.date_to === undefined ? '9999-12-31' : day(input.date_to, 'date_to');
      const points = await accounts.balanceHistory(input.account_id, from, to);
      // Numbers, as in the reference's example.
      return points.map((point) => ({
        date: Date.parse(`${point.day}T00:00:00Z`) / 1000,
        usd: Number(dec(point.usd).toDecimalPlaces(8).toFixed()),
        btc: Number(dec(point.btc).toDecimalPlaces(8).toFixed()),
        btc_deposit_amount: 0,
        usd_deposit_amount: 0,
      }));
    },
  }),
];

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/**
 * The UTC day of an ISO 8601 date or date-time (UTC unless it names an offset) or of Unix
 * seconds. Date.parse alone would take "2024-02-30" for March 1 and read text after a date.
 */
function day(text: string, field: string): string {
  const invalid = () => errors.recordInvalid({ [field]: ['is invalid'] });
  if (/^\d{1,10}$/.test(text)) return new Date(Number(text) * 1000).toISOString().slice(0, 10);
  const match = ISO_DATE.exec(text);
  if (!match) throw invalid();
  const [, year, month, date, hours = '00', minutes = '00', seconds = '00', fraction = '', zone = 'Z'] = match;
  const calendar = new Date(Date.UTC(Number(year), Number(month) - 1, Number(date)));
  const valid =
    calendar.toISOString().slice(0, 10) === `${year}-${month}-${date}` &&
    Number(hours) < 24 && Number(minutes) < 60 && Number(seconds) < 60;
  if (!valid) throw invalid();
  const time = Date.parse(`${year}-${month}-${date}T${hours}:${minutes}:${seconds}${fraction.slice(0, 4)}${zone}`);
  if (Number.isNaN(time)) throw invalid();
  return new Date(time).toISOString().slice(0, 10);
}
