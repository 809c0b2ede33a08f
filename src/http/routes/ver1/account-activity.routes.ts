import Type from 'typebox';
import type { AccountsService } from '../../../services/accounts.service.ts';
import { dec } from '../../../shared/decimal.ts';
import { defineRoute } from '../../route.ts';
import { Id } from '../../schemas/common.ts';
import { Instant, instant } from '../../schemas/instant.ts';

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
    input: Type.Object({ account_id: Id, date_from: Instant, date_to: Type.Optional(Instant) }),
    handler: async ({ input, caller }) => {
      await accounts.get(caller.userId, input.account_id);
      const from = day(input.date_from);
      const to = input.date_to === undefined ? '9999-12-31' : day(input.date_to);
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

/** The UTC day of an instant. */
const day = (text: string) => instant(text).toISOString().slice(0, 10);
