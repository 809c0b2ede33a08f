import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dec } from '../../shared/decimal.ts';
import { GridHarness, gridConfig } from './test-kit.ts';

const money = (value: { toFixed(): string }) => value.toFixed();

describe('grid bot: start', () => {
  it('leaves the line nearest the price waiting, buys below and sells above', () => {
    const h = new GridHarness(gridConfig(), 121).start();
    assert.deepEqual(h.lines(), ['100 buy*', '110 buy*', '120 -', '130 sell*', '140 sell*']);
    assert.deepEqual(h.openOrders(), ['buy 100', 'buy 110', 'sell 130', 'sell 140']);
    assert.equal(h.state.status, 'running');
    assert.deepEqual(h.events.slice(0, 3), [
      'Start command received',
      'Bot is turned on',
      'Creating LIMIT SELL order, Price: 130.0 USDT, Size: 130.0 USDT (1.0 BTC), Current price: 121.0 USDT.',
    ]);
    assert.equal(money(h.state.figures.investmentBase), '2');
    assert.equal(money(h.state.figures.investmentQuote), '210');
  });

  it('buys only the missing base first, grossed up by the fee, and places the lines after its fill', () => {
    const h = new GridHarness(gridConfig(), 121);
    h.act({ type: 'start', funds: { base: dec('0.5'), quote: dec(10000) }, feeRate: dec('0.001') });
    const [balancing, ...limits] = h.commands;
    assert.deepEqual(
      { type: balancing!.type, side: (balancing as { side: string }).side, amount: money((balancing as { amount: { toFixed(): string } }).amount) },
      { type: 'place_order', side: 'buy', amount: '1.50151' },
    );
    assert.equal((balancing as { orderType: string }).orderType, 'market');
    assert.equal(limits.length, 4, 'the limit orders follow the balancing fill');
    assert.deepEqual(h.events.slice(1, 4), [
      'Bot is turned on',
      // 1.5 BTC missing; 1.5 / 0.999 rounded up to the lot step arrives as at least 1.5 after the fee
      'Creating balancing order, Price: 121.0 USDT, Size: 181.68271 USDT (1.50151 BTC).',
      'Balancing order filled, Price: 121.0 USDT, Size: 181.68271 USDT (1.50151 BTC).',
    ]);
    assert.equal(h.state.status, 'running');
  });

  it('sells base for the missing quote when the buy lines cannot be paid', () => {
    const h = new GridHarness(gridConfig(), 121);
    h.act({ type: 'start', funds: { base: dec(10), quote: dec(10) }, feeRate: dec('0.001') });
    const balancing = h.commands[0] as { side: string; amount: { toFixed(): string } };
    // 200 USDT missing: 200 / (121 · 0.999) = 1.65454… BTC, rounded up to the lot step.
    assert.equal(balancing.side, 'sell');
    assert.equal(money(balancing.amount), '1.65455');
  });

  it('logs and stays off when there is no price yet', () => {
    const h = new GridHarness(gridConfig(), 121);
    const context = h.context();
    h.act({ type: 'start', funds: { base: dec(1), quote: dec(1000) }, feeRate: dec(0) });
    assert.equal(h.state.status, 'running');
    const blind = new GridHarness(gridConfig(), 121);
    blind.context = () => ({ ...context, price: () => undefined });
    blind.start();
    assert.equal(blind.state.status, 'disabled');
    assert.equal(blind.events.at(-1), 'No price for USDT_BTC yet, the bot cannot start');
    assert.equal(blind.commands.length, 0);
  });
});

describe('grid bot: fills', () => {
  it('puts a sell one line above a filled buy and books the pair with both fees', () => {
    const h = new GridHarness(gridConfig(), 121).start();
    h.moveTo(109);
    assert.deepEqual(h.lines(), ['100 buy*', '110 -', '120 sell*', '130 sell*', '140 sell*']);
    h.moveTo(121);
    assert.deepEqual(h.lines(), ['100 buy*', '110 buy*', '120 -', '130 sell*', '140 sell*']);
    // the sell gets the 0.999 BTC the buy brought in: 0.999 · (120 − 110) − 0.11988 (sell fee) − 0.001 · 110 (buy fee)
    assert.equal(h.records.length, 1);
    const [record] = h.records;
    assert.deepEqual(
      { line: record!.lineId, price: money(record!.linePrice), side: record!.side, placed: record!.orderPlaced, profit: money(record!.profit), usd: money(record!.usdProfit!) },
      { line: 2, price: '110', side: 'buy', placed: true, profit: '9.76012', usd: '9.76012' },
    );
    assert.equal(h.events.at(-2), 'LIMIT SELL order filled, Price: 120.0 USDT, Size: 119.88 USDT (0.999 BTC), Profit: 9.76012 USDT.');
    assert.equal(money(h.state.figures.profit), '9.76012');
    assert.equal(h.state.figures.profitsCount, 1);
    assert.equal(money(h.state.figures.boughtVolume), '110');
    assert.equal(money(h.state.figures.soldVolume), '119.88');
  });

  it('books nothing for a sell of base the bot did not buy, then books the next pair', () => {
    const h = new GridHarness(gridConfig(), 121).start();
    h.moveTo(131).moveTo(119);
    assert.equal(h.records.length, 0, 'the first sell closes no buy of the bot');
    h.moveTo(131);
    assert.deepEqual(h.records.map((record) => money(record.profit)), ['9.74013']);
    // the profit is the pair's quote change (all fills less the unpaired first sell) plus its base change at the
    // buy price, which is zero here: 1 BTC bought, 0.001 BTC fee, 0.999 BTC sold
    const firstSell = dec(130).minus('0.13');
    assert.equal(money(h.quote.minus(firstSell)), '9.74013');
    assert.equal(money(h.base), '-1');
  });

  it('sizes quote-mode buys as floor(quantity_per_grid / price) and sells what was bought', () => {
    const h = new GridHarness(gridConfig({ orderCurrencyType: 'quote', quantityPerGrid: dec(15) }), 121).start();
    const amounts = h.state.lines.map((line) => money(line.amount));
    assert.deepEqual(amounts, ['0.15', '0.13636', '0.125', '0.11538', '0.10714']);
    h.moveTo(109);
    const sell = h.state.lines[2]!;
    assert.equal(sell.side, 'sell');
    // 0.13636 BTC bought, less the 0.00013636 BTC fee, down to the lot step
    assert.equal(money(sell.amount), '0.13622');
  });

  it('keeps only max_active lines per side on the exchange and slides the window', () => {
    const h = new GridHarness(gridConfig({ gridsQuantity: 9, upperPrice: dec(180), maxActiveBuyLines: 2, maxActiveSellLines: 2 }), 141).start();
    assert.deepEqual(h.openOrders(), ['buy 120', 'buy 130', 'sell 150', 'sell 160']);
    h.moveTo(119);
    // buys at 130 and 120 filled: two lower buys join, the two highest sells leave
    assert.deepEqual(h.openOrders(), ['buy 100', 'buy 110', 'sell 130', 'sell 140']);
    assert.deepEqual(h.lines(), ['100 buy*', '110 buy*', '120 -', '130 sell*', '140 sell*', '150 sell', '160 sell', '170 sell', '180 sell']);
    assert.ok(h.events.includes('Cancelling LIMIT SELL order, Price: 160.0 USDT, Size: 160.0 USDT (1.0 BTC).'));
  });

  it('marks a refused order and does not retry it', () => {
    const h = new GridHarness(gridConfig(), 121).start();
    const key = h.commands.find((c) => c.type === 'place_order' && c.side === 'buy' && c.price?.eq(100))!;
    h.resting.delete((key as { key: string }).key);
    h.act({ type: 'order_closed', key: (key as { key: string }).key, status: 'rejected', reason: 'insufficient_funds', message: 'Not enough USDT', at: new Date() });
    assert.deepEqual(h.lines()[0], '100 buy');
    assert.equal(h.events.at(-1), 'LIMIT BUY order at 100.0 USDT was not placed: Not enough USDT');
    const placed = h.commands.length;
    h.moveTo(109).moveTo(121);
    assert.equal(h.commands.filter((c) => c.type === 'place_order' && c.price?.eq(100)).length, 1);
    assert.ok(h.commands.length > placed);
  });

  it('carries the lot-step remainder of a fee paid in base into the next sell', () => {
    // 0.001 BTC a line: a buy nets 0.000999 BTC, so the first sell takes 0.00099 and carries 0.000009
    const config = gridConfig({ lowerPrice: dec(100_000), upperPrice: dec(140_000), quantityPerGrid: dec('0.001') });
    const h = new GridHarness(config, 121_000).start();
    const sold: string[] = [];
    for (let cycle = 0; cycle < 11; cycle += 1) {
      h.moveTo(109_000);
      sold.push(money(h.state.lines[2]!.amount));
      h.moveTo(121_000);
    }
    // Then the line's whole quantity nine times, as the carry shrinks by 0.000001 a cycle, and 0.00099 again.
    assert.deepEqual(sold, ['0.00099', ...Array<string>(9).fill('0.001'), '0.00099']);
    // A pair that sells the whole quantity books the reference's formula: 0.001 · 10000 − 0.11 − 0.12.
    assert.deepEqual(h.records.slice(0, 3).map((record) => money(record.profit)), ['9.6712', '9.77', '9.77']);
    // All that the cycles bought and did not sell is the carried remainder, under one lot step.
    assert.equal(money(h.state.carry.base), '0.000009');
    assert.equal(money(h.base), money(h.state.carry.base));
  });

  it('accounts for a fill that arrives after the bot stopped without placing anything', () => {
    const h = new GridHarness(gridConfig(), 121).start();
    const buy = h.commands.find((c) => c.type === 'place_order' && c.price?.eq(110)) as { key: string };
    h.act({ type: 'disable' });
    const commands = h.commands.length;
    h.act({ type: 'fill', key: buy.key, side: 'buy', price: dec(110), amount: dec(1), fee: dec('0.001'), feeCurrency: 'BTC', orderFilled: true, at: new Date() });
    assert.equal(h.commands.length, commands);
    assert.equal(money(h.state.figures.boughtVolume), '110');
    assert.match(h.events.at(-1)!, /^BUY order filled after the bot gave it up/);
  });
});

describe('grid bot: past the bounds', () => {
  it('trails up: the lowest buy pays for a buy on the old top line, and the lower stop loss follows', () => {
    const config = gridConfig({
      orderCurrencyType: 'quote',
      quantityPerGrid: dec(100),
      trailingUpEnabled: true,
      lowerStopLoss: { enabled: true, price: dec(90), action: 'stop_bot' },
    });
    const h = new GridHarness(config, 131).start();
    h.moveTo(141);
    assert.deepEqual(h.lines(), ['100 buy*', '110 buy*', '120 buy*', '130 buy*', '140 -']);
    h.moveTo(150);
    assert.deepEqual(h.lines(), ['110 buy*', '120 buy*', '130 buy*', '140 buy*', '150 -']);
    assert.deepEqual(h.openOrders(), ['buy 110', 'buy 120', 'buy 130', 'buy 140']);
    assert.equal(money(h.state.config.lowerStopLoss.price!), '100');
    assert.ok(h.events.includes('Trailing up: the grid moved to 110.0 USDT - 150.0 USDT.'));
    h.moveTo(175);
    assert.deepEqual(h.lines(), ['130 buy*', '140 buy*', '150 buy*', '160 buy*', '170 -']);
  });

  it('trails down with a new buy below the lowest line until the stop price', () => {
    const config = gridConfig({ trailingDownEnabled: true, expansionDown: { enabled: true, stopPrice: dec(85) } });
    const h = new GridHarness(config, 119).start();
    h.moveTo(100.5);
    assert.deepEqual(h.lines(), ['100 buy*', '110 -', '120 sell*', '130 sell*', '140 sell*']);
    h.moveTo(99);
    // the buy at 100 filled and the price is below the lowest line: a buy goes one line lower
    assert.deepEqual(h.lines(), ['90 buy*', '100 -', '110 sell*', '120 sell*', '130 sell*', '140 sell*']);
    assert.ok(h.events.includes('Grid expanded down: new buy line at 90.0 USDT.'));
    h.moveTo(89);
    assert.equal(h.state.growDownEnded, true);
    assert.ok(h.events.includes('Trailing down stopped: the stop price is reached'));
    assert.equal(h.lines()[0], '90 -');
  });

  it('grows down only as far as the quote it had to spare at start', () => {
    // 400 USDT: 210 for the two buy lines, 190 to spare, so 90 and 80 fit and 70 does not
    const h = new GridHarness(gridConfig({ trailingDownEnabled: true }), 119).start({ quote: '400' });
    h.moveTo(99).moveTo(89).moveTo(79).moveTo(69);
    assert.deepEqual(h.lines().slice(0, 3), ['80 -', '90 sell*', '100 sell*']);
    assert.ok(h.events.includes('Trailing down stopped: not enough USDT'));
  });

  it('grows no line at or past an armed stop loss', () => {
    const config = gridConfig({ trailingDownEnabled: true, lowerStopLoss: { enabled: true, price: dec(85), action: 'stop_bot' } });
    const h = new GridHarness(config, 119).start();
    h.moveTo(99).moveTo(89);
    assert.deepEqual(h.lines().slice(0, 2), ['90 -', '100 sell*']);
    assert.ok(h.events.includes('Trailing down stopped: the stop loss price is reached'));
    assert.equal(h.state.status, 'running');
  });

  it('takes away a growth line whose order the exchange refused, and grows no more', () => {
    const h = new GridHarness(gridConfig({ trailingDownEnabled: true }), 119).start();
    h.moveTo(99);
    const grown = h.commands.find((c) => c.type === 'place_order' && c.price?.eq(90)) as { key: string };
    h.resting.delete(grown.key);
    h.act({ type: 'order_closed', key: grown.key, status: 'rejected', reason: 'insufficient_funds', message: 'Not enough USDT', at: new Date() });
    assert.deepEqual(h.lines(), ['100 -', '110 sell*', '120 sell*', '130 sell*', '140 sell*']);
    assert.deepEqual([money(h.state.config.lowerPrice), h.state.config.gridsQuantity, h.state.error], ['100', 5, null]);
    assert.equal(h.events.at(-1), 'Trailing down stopped: Not enough USDT');
    h.moveTo(89);
    assert.equal(h.lines()[0], '100 -');
  });

  it('expands up with sell lines on extra base up to the stop price', () => {
    const config = gridConfig({ expansionUp: { enabled: true, stopPrice: dec(155) } });
    const h = new GridHarness(config, 131).start();
    h.moveTo(141).moveTo(142);
    assert.deepEqual(h.lines().slice(-2), ['140 -', '150 sell*']);
    h.moveTo(151).moveTo(152);
    assert.equal(h.state.growUpEnded, true);
    assert.equal(h.lines().at(-1), '150 -');
  });
});

describe('grid bot: stop losses', () => {
  it('lower stop_bot_and_sell cancels everything and sells the base the sell lines hold', () => {
    const config = gridConfig({ lowerStopLoss: { enabled: true, price: dec(95), action: 'stop_bot_and_sell' } });
    const h = new GridHarness(config, 121).start();
    h.moveTo(94);
    const market = h.commands.at(-1) as { orderType: string; side: string; amount: { toFixed(): string } };
    assert.deepEqual({ type: market.orderType, side: market.side, amount: money(market.amount) }, { type: 'market', side: 'sell', amount: '3.998' });
    assert.deepEqual(h.openOrders(), []);
    assert.equal(h.state.status, 'disabled');
    assert.ok(h.state.lines.every((line) => line.side === null && !line.placed));
    assert.deepEqual(h.events.slice(-7), [
      'Lower stop loss triggered, Stop price: 95.0 USDT, Current price: 94.0 USDT.',
      'Cancelling 4 open orders',
      // The move filled both buys before the bot heard of it: they count before it sells.
      'LIMIT BUY order filled, Price: 110.0 USDT, Size: 110.0 USDT (1.0 BTC).',
      'LIMIT BUY order filled, Price: 100.0 USDT, Size: 100.0 USDT (1.0 BTC).',
      // 1 + 1 BTC of the starting sells and 0.999 + 0.999 BTC bought at 110 and 100
      'Creating MARKET SELL order, Size: 375.812 USDT (3.998 BTC), Current price: 94.0 USDT.',
      'MARKET SELL order filled, Price: 94.0 USDT, Size: 375.812 USDT (3.998 BTC).',
      'Bot is turned off',
    ]);
  });

  it('acts on what it knows when the exchange does not confirm its cancellations in time', () => {
    const config = gridConfig({ lowerStopLoss: { enabled: true, price: dec(95), action: 'stop_bot_and_sell' } });
    const h = new GridHarness(config, 121).start();
    h.resting.clear(); // the exchange will not answer the cancellations
    h.moveTo(94);
    assert.equal(h.state.status, 'stopping');
    assert.deepEqual(
      h.commands.filter((c) => c.type === 'schedule_timer').map((c) => c.key),
      ['stop_loss'],
    );
    h.act({ type: 'timer', key: 'stop_loss', at: new Date() });
    const market = h.commands.at(-1) as { side: string; amount: { toFixed(): string } };
    assert.deepEqual({ side: market.side, amount: money(market.amount) }, { side: 'sell', amount: '2' });
    assert.equal(h.state.status, 'disabled');
  });

  it('upper stop_bot_and_buy spends what the buy lines hold; stop_bot only stops', () => {
    const buyer = new GridHarness(gridConfig({ upperStopLoss: { enabled: true, price: dec(150), action: 'stop_bot_and_buy' } }), 121).start();
    buyer.moveTo(150);
    // every sell filled on the way up, so four buy lines hold 100 + 110 + 120 + 130 = 460 USDT
    const market = buyer.commands.at(-1) as { side: string; amount: { toFixed(): string } };
    assert.deepEqual({ side: market.side, amount: money(market.amount) }, { side: 'buy', amount: '3.06666' });
    const stopper = new GridHarness(gridConfig({ upperStopLoss: { enabled: true, price: dec(135), action: 'stop_bot' } }), 121).start();
    stopper.moveTo(136);
    assert.equal(stopper.state.status, 'disabled');
    assert.equal(stopper.commands.filter((c) => c.type === 'place_order' && c.orderType === 'market').length, 0);
  });
});

describe('grid bot: user actions', () => {
  it('disable cancels the orders and unmarks the lines; enable starts again from the price', () => {
    const h = new GridHarness(gridConfig(), 121).start();
    h.moveTo(109).moveTo(121);
    h.act({ type: 'disable' });
    assert.deepEqual(h.openOrders(), []);
    assert.deepEqual(h.lines(), ['100 -', '110 -', '120 -', '130 -', '140 -']);
    assert.equal(money(h.state.figures.investmentBase), '0');
    assert.deepEqual(h.events.slice(-3), ['Stop command received', 'Cancelling 4 open orders', 'Bot is turned off']);
    h.price = dec(128);
    h.act({ type: 'enable', funds: { base: dec(10), quote: dec(1000) }, feeRate: dec('0.001') });
    assert.deepEqual(h.lines(), ['100 buy*', '110 buy*', '120 buy*', '130 -', '140 sell*']);
    assert.deepEqual(h.state.lines.map((line) => line.id), [6, 7, 8, 9, 10]);
    assert.equal(money(h.state.figures.profit), '9.76012');
  });

  it('edit places the new grid from the current price and keeps the profit history', () => {
    const h = new GridHarness(gridConfig(), 121).start();
    h.moveTo(109).moveTo(121);
    h.act({ type: 'edit', config: gridConfig({ gridsQuantity: 3 }), funds: { base: dec(10), quote: dec(1000) }, feeRate: dec('0.001') });
    assert.deepEqual(h.lines(), ['100 buy*', '120 -', '140 sell*']);
    assert.deepEqual(h.openOrders(), ['buy 100', 'sell 140']);
    assert.equal(h.state.figures.profitsCount, 1);
  });

  it('edit of a stopped bot only shows where the lines would go', () => {
    const h = new GridHarness(gridConfig(), 121).start().act({ type: 'disable' });
    const commands = h.commands.length;
    h.act({ type: 'edit', config: gridConfig({ lowerPrice: dec(90) }), funds: { base: dec(0), quote: dec(0) }, feeRate: dec(0) });
    assert.equal(h.commands.length, commands);
    assert.deepEqual(h.lines(), ['90 buy', '102.5 buy', '115 -', '127.5 sell', '140 sell']);
    assert.equal(h.state.status, 'disabled');
  });

  it('note changes only the note; delete cancels and ends the bot', () => {
    const h = new GridHarness(gridConfig(), 121).start();
    h.act({ type: 'note', note: 'hello' });
    assert.equal(h.state.config.note, 'hello');
    h.act({ type: 'delete' });
    assert.equal(h.state.status, 'deleted');
    assert.deepEqual(h.openOrders(), []);
  });
});
