/** /ver1/trades ("simple trading"): create a trade, list active ones and the history, show, cancel. */
import Type from 'typebox';
import type { TradesService } from '../../../services/trades.service.ts';
import { presentTrade } from '../../presenters/trade.presenter.ts';
import { defineRoute } from '../../route.ts';
import { Id, Offset, oneOf } from '../../schemas/common.ts';
import { Decimal } from '../../schemas/smart-trade.ts';

const tags = ['trades'];
const PriceType = oneOf(['bid', 'ask', 'last']);
const Uuid = Type.Object({ uuid: Type.String({ minLength: 1, maxLength: 64 }) });

const CreateTrade = Type.Object({
  account_id: Id,
  pair: Type.String({ minLength: 1, maxLength: 40 }),
  order: Type.Object({
    type: oneOf(['market', 'limit']),
    side: oneOf(['buy', 'sell']),
    // Clients send null for the default, as for the reference.
    strategy: Type.Optional(Type.Union([oneOf(['gtc', 'ioc', 'fok', 'post_only']), Type.Null()])),
    position_side: Type.Optional(oneOf(['both', 'long', 'short'])),
    reduce_only: Type.Optional(Type.Boolean()),
  }),
  units: Type.Object({ value: Decimal }),
  price: Type.Optional(Type.Object({ value: Type.Optional(Decimal) })),
  conditional: Type.Optional(
    Type.Object({
      enabled: Type.Boolean(),
      value: Type.Optional(oneOf(['less', 'less_or_equal', 'greater', 'greater_or_equal'])),
      price: Type.Optional(Type.Object({ value: Type.Optional(Decimal), type: Type.Optional(PriceType) })),
    }),
  ),
  trailing: Type.Optional(Type.Object({ enabled: Type.Boolean(), value: Type.Optional(Decimal), percent: Type.Optional(Decimal) })),
  timeout: Type.Optional(Type.Object({ enabled: Type.Boolean(), value: Type.Optional(Type.Integer({ minimum: 1, maximum: 31_536_000 })) })),
  leverage: Type.Optional(Type.Object({ type: Type.Optional(oneOf(['isolated', 'cross'])) })),
});

const listQuery = (orderBy: readonly ['pair', 'created_at', ...Array<'closed_at'>]) =>
  Type.Object({
    account_id: Type.Optional(Id),
    pair: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
    order_by: oneOf([...orderBy], { default: 'created_at' }),
    order_direction: oneOf(['asc', 'desc'], { default: 'asc' }),
    limit: Type.Integer({ minimum: 1, maximum: 1000, default: 10 }),
    offset: Offset,
  });

export const tradeRoutes = (trades: TradesService) => [
  defineRoute({
    method: 'POST',
    url: '/ver1/trades',
    summary: 'Create a trade: a market or limit order, optionally conditional, trailing and with a timeout',
    tags,
    input: CreateTrade,
    successStatus: 201,
    handler: async ({ input, caller }) => ({ trade: presentTrade(await trades.create(caller.userId, input)) }),
  }),
  defineRoute({
    method: 'GET',
    url: '/ver1/trades',
    summary: 'Active trades',
    tags,
    input: listQuery(['pair', 'created_at']),
    handler: async ({ input, caller }) => ({ trades: (await trades.list(caller.userId, await caller.mode(), false, input)).map(presentTrade) }),
  }),
  defineRoute({
    method: 'GET',
    url: '/ver1/trades/history',
    summary: 'Finished, cancelled and failed trades',
    tags,
    input: listQuery(['pair', 'created_at', 'closed_at']),
    handler: async ({ input, caller }) => ({ trades: (await trades.list(caller.userId, await caller.mode(), true, input)).map(presentTrade) }),
  }),
  defineRoute({
    method: 'GET',
    url: '/ver1/trades/:uuid',
    summary: 'One trade',
    tags,
    input: Uuid,
    handler: async ({ input, caller }) => ({ trade: presentTrade(await trades.show(caller.userId, input.uuid)) }),
  }),
  defineRoute({
    method: 'POST',
    url: '/ver1/trades/:uuid/cancel',
    summary: 'Cancel an open trade (data.cancelable)',
    tags,
    input: Uuid,
    successStatus: 201,
    handler: async ({ input, caller }) => ({ trade: presentTrade(await trades.cancel(caller.userId, input.uuid)) }),
  }),
];
