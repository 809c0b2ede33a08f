import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FillInput } from '../domain/automation.ts';
import type { ExchangeOrder, Fill } from '../exchanges/exchange.ts';
import { dec, ZERO } from '../shared/decimal.ts';
import type { EngineOrder } from './automation-kind.ts';
import { OrderJournal } from './order-journal.ts';

const at = new Date(Date.UTC(2024, 0, 1));

const entry = (): EngineOrder => ({
  id: 1,
  automationId: 1,
  key: 'o1',
  clientOrderId: 'g-1-o1',
  accountId: 1,
  pair: 'BTC_USDT',
  role: 'grid_line',
  side: 'buy',
  orderType: 'limit',
  timeInForce: null,
  price: '100',
  amount: '2',
  filled: '0',
  filledTotal: '0',
  fee: '0',
  status: 'open',
  cancelRequested: false,
  exchangeOrderId: 'P-1',
  feeCurrency: 'BTC',
  filledAt: null,
  createdAt: at,
  updatedAt: at,
});

const order = (filled: string, filledTotal: string): ExchangeOrder => ({
  id: 'P-1',
  clientOrderId: 'g-1-o1',
  pair: 'BTC_USDT',
  side: 'buy',
  type: 'limit',
  price: dec('100'),
  amount: dec('2'),
  filled: dec(filled),
  filledTotal: dec(filledTotal),
  fee: ZERO,
  feeCurrency: 'BTC',
  status: filled === '2' ? 'filled' : 'open',
  createdAt: at,
  updatedAt: at,
});

const fill = (amount: string, price: string, quote?: string): Fill => ({
  orderId: 'P-1',
  clientOrderId: 'g-1-o1',
  pair: 'BTC_USDT',
  side: 'buy',
  price: dec(price),
  amount: dec(amount),
  ...(quote === undefined ? {} : { quote: dec(quote) }),
  fee: ZERO,
  feeCurrency: 'BTC',
  maker: true,
  at,
});

describe(OrderJournal.name, () => {
  it("hands on the exchange's quote of a fill it reports alone, so that the automation does not work it out again", () => {
    const reported = fill('2', '100', '200');
    const [input] = new OrderJournal().apply(entry(), order('2', '200'), reported, at) as FillInput[];
    assert.equal(input?.quote, reported.quote);
    assert.equal(input?.price, reported.price);
  });

  it('gives no quote for fills it learns of together, whose price is their average', () => {
    const [input] = new OrderJournal().apply(entry(), order('2', '199'), fill('1', '99', '99'), at) as FillInput[];
    assert.equal(input?.quote, undefined);
    assert.equal(input?.price.toFixed(), '99.5');
    assert.equal(input?.amount.toFixed(), '2');
  });

  it('gives no quote when the exchange gave none (a real exchange)', () => {
    const [input] = new OrderJournal().apply(entry(), order('2', '200'), fill('2', '100'), at) as FillInput[];
    assert.equal(input?.quote, undefined);
  });
});
