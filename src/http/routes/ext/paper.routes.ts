/** Moving the paper market by hand (PAPER_FEED=manual), for tests, scripts and demos. */
import Type from 'typebox';
import type { MarketTick } from '../../../domain/market/market-tick.ts';
import type { PaperTrading } from '../../../engine/paper-trading.ts';
import { dec } from '../../../shared/decimal.ts';
import { ApiError, FieldErrorCollector } from '../../../shared/errors.ts';
import { PAPER_MARKET_CODE } from '../../../services/markets.service.ts';
import { defineRoute } from '../../route.ts';
import { oneOf } from '../../schemas/common.ts';
import { Instant, instant } from '../../schemas/instant.ts';

const Price = Type.String({ pattern: '^\\d+(\\.\\d+)?$', maxLength: 40 });

const TicksInput = Type.Object({
  market_code: oneOf([PAPER_MARKET_CODE]),
  ticks: Type.Array(
    Type.Object({
      pair: Type.String({ minLength: 1, maxLength: 40 }),
      price: Price,
      bid: Type.Optional(Price),
      ask: Type.Optional(Price),
      volume: Type.Optional(Price),
      at: Type.Optional(Instant),
    }),
    { minItems: 1, maxItems: 1000 },
  ),
});

/** Applies ticks; answers the fills they caused (with several servers: on this server's engine's accounts). */
export type PaperTicks = (ticks: MarketTick[]) => Promise<number>;

export const paperRoutes = (paper: PaperTrading, applyTicks: PaperTicks, now: () => Date) => [
  defineRoute({
    method: 'POST',
    url: '/ext/paper/ticks',
    summary: 'Apply price ticks to the paper market; answers once every fill they cause is stored and the automations have handled them',
    tags: ['ext'],
    input: TicksInput,
    handler: async ({ input }) => {
      if (paper.feedKind !== 'manual') {
        throw new ApiError(409, 'feed_not_manual', `The paper market follows the ${paper.feedKind} feed; start with PAPER_FEED=manual to post ticks`);
      }
      const pairs = new Set(paper.markets().map((market) => market.pair));
      const invalid = new FieldErrorCollector();
      input.ticks.forEach((tick, index) => {
        if (!pairs.has(tick.pair)) invalid.add(`ticks[${index}][pair]`, 'does not have a valid value');
        for (const field of ['price', 'bid', 'ask'] as const) {
          const value = tick[field];
          if (value !== undefined && dec(value).isZero()) invalid.add(`ticks[${index}][${field}]`, 'must be greater than 0');
        }
        // A missing side of the quote is the price, so a lone bid or ask may not cross it either.
        if (tick.bid !== undefined && tick.ask !== undefined) {
          if (dec(tick.bid).gt(dec(tick.ask))) invalid.add(`ticks[${index}][bid]`, 'must not be above ask');
        } else if (tick.bid !== undefined && dec(tick.bid).gt(dec(tick.price))) {
          invalid.add(`ticks[${index}][bid]`, 'must not be above price when ask is not given');
        } else if (tick.ask !== undefined && dec(tick.ask).lt(dec(tick.price))) {
          invalid.add(`ticks[${index}][ask]`, 'must not be below price when bid is not given');
        }
      });
      invalid.throwIfAny();
      const at = now();
      const fills = await applyTicks(
        input.ticks.map((tick) => ({
          pair: tick.pair,
          price: dec(tick.price),
          at: tick.at === undefined ? at : instant(tick.at),
          ...(tick.bid === undefined ? {} : { bid: dec(tick.bid) }),
          ...(tick.ask === undefined ? {} : { ask: dec(tick.ask) }),
          ...(tick.volume === undefined ? {} : { volume: dec(tick.volume) }),
        })),
      );
      return { applied: input.ticks.length, fills };
    },
  }),
];
