/** Setting one paper account's maker and taker fees (the default comes from PAPER_FEE). */
import Type from 'typebox';
import type { PaperTrading } from '../../../engine/paper-trading.ts';
import { dec } from '../../../shared/decimal.ts';
import { errors } from '../../../shared/errors.ts';
import { defineRoute } from '../../route.ts';
import { Id } from '../../schemas/common.ts';

const Fee = Type.String({ pattern: '^0(\\.\\d{1,8})?$', description: 'a fraction below 1, e.g. "0.00075"' });

export const paperFeeRoutes = (paper: PaperTrading) => [
  defineRoute({
    method: 'POST',
    url: '/ext/paper/fees',
    summary: "Set a paper account's maker and taker fees for its future fills",
    tags: ['ext'],
    input: Type.Object({ account_id: Id, maker_fee: Fee, taker_fee: Fee }),
    successStatus: 201,
    handler: async ({ input }) => {
      const fees = { maker: dec(input.maker_fee), taker: dec(input.taker_fee) };
      if (!(await paper.setFees(input.account_id, fees))) throw errors.notFound();
      return { account_id: input.account_id, maker_fee: fees.maker.toFixed(), taker_fee: fees.taker.toFixed() };
    },
  }),
];
