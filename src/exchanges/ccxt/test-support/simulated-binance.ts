/**
 * A small in-memory Binance spot account speaking Binance's REST format, for tests that need an
 * exchange with state: limit orders rest and lock funds, cancels unlock them, `fill` makes the
 * market cross an order. It answers the way Binance does, error codes included: -2015 for a
 * wrong key, -2010 for a duplicate open client id or missing funds, -1013 for a lot-size
 * breach, -2011/-2013 for unknown orders. Any other request fails the test.
 */
import { dec, type Decimal, isMultipleOf, ZERO } from '../../../shared/decimal.ts';
import type { Transport, TransportResponse } from '../ccxt-transport.ts';
import { fixture, json, RecordedExchange, type SeenRequest } from './recorded-exchange.ts';

interface SimulatedOrder {
  orderId: number;
  clientOrderId: string;
  symbol: string;
  side: 'BUY' | 'SELL';
  type: 'LIMIT' | 'MARKET';
  price: Decimal;
  quantity: Decimal;
  executed: Decimal;
  quote: Decimal;
  status: 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED';
  time: number;
  updateTime: number;
  trades: { id: number; price: Decimal; qty: Decimal; commission: Decimal; asset: string; time: number }[];
}

const FEE_RATE = dec('0.001');
const SYMBOLS: Record<string, { base: string; quote: string; lotStep: Decimal }> = {
  BTCUSDT: { base: 'BTC', quote: 'USDT', lotStep: dec('0.00001') },
  ETHUSDT: { base: 'ETH', quote: 'USDT', lotStep: dec('0.0001') },
  ETHBTC: { base: 'ETH', quote: 'BTC', lotStep: dec('0.0001') },
};

export class SimulatedBinance {
  readonly recorded: RecordedExchange;
  private readonly free = new Map<string, Decimal>();
  private readonly locked = new Map<string, Decimal>();
  private readonly orders: SimulatedOrder[] = [];
  private clock = 1704067200000;
  private nextId = 1000;

  constructor(
    private readonly apiKey: string,
    balances: Record<string, string>,
    private readonly prices: Record<string, { bid: string; ask: string }>,
  ) {
    for (const [asset, amount] of Object.entries(balances)) this.free.set(asset, dec(amount));
    const signed = (handler: (request: SeenRequest) => TransportResponse) => (request: SeenRequest) =>
      request.headers['X-MBX-APIKEY'] === this.apiKey ? handler(request) : this.error(401, -2015, 'Invalid API-key, IP, or permissions for action.');
    this.recorded = new RecordedExchange({
      'GET /api/v3/exchangeInfo': { status: 200, body: fixture('binance/exchange-info.json') },
      'GET /api/v3/ticker/24hr': (request) => json(200, this.ticker(request.params['symbol']!)),
      'GET /api/v3/account': signed(() => json(200, this.account())),
      'POST /api/v3/order': signed((request) => this.place(request.params)),
      'DELETE /api/v3/order': signed((request) => this.cancel(request.params)),
      'GET /api/v3/order': signed((request) => {
        const order = this.find(request.params);
        return order ? json(200, this.orderJson(order)) : this.error(400, -2013, 'Order does not exist.');
      }),
      'GET /api/v3/openOrders': signed((request) =>
        json(200, this.orders.filter((order) => isOpen(order) && (!request.params['symbol'] || order.symbol === request.params['symbol'])).map((order) => this.orderJson(order))),
      ),
      'GET /api/v3/myTrades': signed((request) => json(200, this.trades(request.params))),
    });
  }

  get transport(): Transport {
    return this.recorded.transport;
  }

  /** The market trades through the order: it fills completely at its limit price. */
  fill(clientOrderId: string): void {
    const order = this.orders.find((candidate) => candidate.clientOrderId === clientOrderId && isOpen(candidate));
    if (!order) throw new Error(`no open order ${clientOrderId}`);
    this.execute(order, order.quantity.minus(order.executed), order.price);
  }

  private place(params: Record<string, string>): TransportResponse {
    const market = SYMBOLS[params['symbol']!];
    if (!market) return this.error(400, -1121, 'Invalid symbol.');
    const clientOrderId = params['newClientOrderId']!;
    if (this.orders.some((order) => order.clientOrderId === clientOrderId && isOpen(order))) return this.error(400, -2010, 'Duplicate order sent.');
    const quantity = dec(params['quantity']!);
    if (!isMultipleOf(quantity, market.lotStep)) return this.error(400, -1013, 'Filter failure: LOT_SIZE');
    const side = params['side'] as 'BUY' | 'SELL';
    const type = params['type'] as 'LIMIT' | 'MARKET';
    const touch = this.prices[params['symbol']!]!;
    const price = type === 'LIMIT' ? dec(params['price']!) : dec(side === 'BUY' ? touch.ask : touch.bid);
    const [asset, needed] = side === 'BUY' ? [market.quote, quantity.times(price)] : [market.base, quantity];
    if (this.balance(this.free, asset).lt(needed)) return this.error(400, -2010, 'Account has insufficient balance for requested action.');
    this.free.set(asset, this.balance(this.free, asset).minus(needed));
    this.locked.set(asset, this.balance(this.locked, asset).plus(needed));
    const time = this.tick();
    const order: SimulatedOrder = {
      orderId: this.nextId++, clientOrderId, symbol: params['symbol']!, side, type, price, quantity,
      executed: ZERO, quote: ZERO, status: 'NEW', time, updateTime: time, trades: [],
    };
    this.orders.push(order);
    if (type === 'MARKET') this.execute(order, quantity, price);
    return json(200, { ...this.orderJson(order), transactTime: time, fills: order.trades.map((trade) => tradeFill(trade)) });
  }

  private cancel(params: Record<string, string>): TransportResponse {
    const order = this.find(params);
    if (!order || !isOpen(order)) return this.error(400, -2011, 'Unknown order sent.');
    const market = SYMBOLS[order.symbol]!;
    const remaining = order.quantity.minus(order.executed);
    const [asset, amount] = order.side === 'BUY' ? [market.quote, remaining.times(order.price)] : [market.base, remaining];
    this.locked.set(asset, this.balance(this.locked, asset).minus(amount));
    this.free.set(asset, this.balance(this.free, asset).plus(amount));
    order.status = 'CANCELED';
    order.updateTime = this.tick();
    return json(200, { ...this.orderJson(order), origClientOrderId: order.clientOrderId, clientOrderId: `cancel${order.orderId}` });
  }

  private execute(order: SimulatedOrder, qty: Decimal, price: Decimal): void {
    const market = SYMBOLS[order.symbol]!;
    const total = qty.times(price);
    const time = this.tick();
    const [spent, spentAmount, received, receivedAmount] =
      order.side === 'BUY' ? [market.quote, qty.times(order.price), market.base, qty] : [market.base, qty, market.quote, total];
    const commission = receivedAmount.times(FEE_RATE);
    this.locked.set(spent, this.balance(this.locked, spent).minus(spentAmount));
    if (order.side === 'BUY') this.free.set(spent, this.balance(this.free, spent).plus(spentAmount.minus(total)));
    this.free.set(received, this.balance(this.free, received).plus(receivedAmount.minus(commission)));
    order.trades.push({ id: this.nextId++, price, qty, commission, asset: received, time });
    order.executed = order.executed.plus(qty);
    order.quote = order.quote.plus(total);
    order.status = order.executed.eq(order.quantity) ? 'FILLED' : 'PARTIALLY_FILLED';
    order.updateTime = time;
  }

  private find(params: Record<string, string>): SimulatedOrder | undefined {
    const clientOrderId = params['origClientOrderId'];
    return this.orders.find((order) =>
      order.symbol === params['symbol'] && (clientOrderId === undefined ? String(order.orderId) === params['orderId'] : order.clientOrderId === clientOrderId),
    );
  }

  private trades(params: Record<string, string>) {
    const order = this.orders.find((candidate) => String(candidate.orderId) === params['orderId']);
    return (order?.trades ?? []).map((trade) => ({
      symbol: order!.symbol, id: trade.id, orderId: order!.orderId, orderListId: -1, price: trade.price.toFixed(8), qty: trade.qty.toFixed(8),
      quoteQty: trade.qty.times(trade.price).toFixed(8), commission: trade.commission.toFixed(8), commissionAsset: trade.asset,
      time: trade.time, isBuyer: order!.side === 'BUY', isMaker: order!.type === 'LIMIT', isBestMatch: true,
    }));
  }

  private account() {
    const assets = [...new Set([...this.free.keys(), ...this.locked.keys()])].sort();
    return {
      makerCommission: 10, takerCommission: 10, canTrade: true, canWithdraw: true, canDeposit: true, updateTime: this.clock, accountType: 'SPOT',
      balances: assets.map((asset) => ({ asset, free: this.balance(this.free, asset).toFixed(8), locked: this.balance(this.locked, asset).toFixed(8) })),
      permissions: ['SPOT'],
    };
  }

  private ticker(symbol: string) {
    const price = this.prices[symbol]!;
    return { symbol, lastPrice: price.bid, bidPrice: price.bid, askPrice: price.ask, openPrice: price.bid, highPrice: price.ask, lowPrice: price.bid, volume: '0', quoteVolume: '0', openTime: this.clock - 86_400_000, closeTime: this.clock };
  }

  private orderJson(order: SimulatedOrder) {
    return {
      symbol: order.symbol, orderId: order.orderId, orderListId: -1, clientOrderId: order.clientOrderId, price: order.type === 'LIMIT' ? order.price.toFixed(8) : '0.00000000',
      origQty: order.quantity.toFixed(8), executedQty: order.executed.toFixed(8), cummulativeQuoteQty: order.quote.toFixed(8), status: order.status,
      timeInForce: 'GTC', type: order.type, side: order.side, time: order.time, updateTime: order.updateTime, workingTime: order.time,
      isWorking: true, origQuoteOrderQty: '0.00000000', selfTradePreventionMode: 'EXPIRE_MAKER',
    };
  }

  private balance(book: Map<string, Decimal>, asset: string): Decimal {
    return book.get(asset) ?? ZERO;
  }

  private error(status: number, code: number, msg: string): TransportResponse {
    return json(status, { code, msg });
  }

  private tick(): number {
    this.clock += 1000;
    return this.clock;
  }
}

const isOpen = (order: SimulatedOrder) => order.status === 'NEW' || order.status === 'PARTIALLY_FILLED';

function tradeFill(trade: SimulatedOrder['trades'][number]) {
  return { price: trade.price.toFixed(8), qty: trade.qty.toFixed(8), commission: trade.commission.toFixed(8), commissionAsset: trade.asset, tradeId: trade.id };
}
