/**
 * The process log tells what the bots do, in words, at `info` (`warn` for what went wrong), each
 * line naming the bot: read from the JSON lines the server writes when its output is no terminal.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { newUser, postJson, setPrices } from '../support/api.ts';
import { createGrid, FIVE_LINES, startGrid } from '../support/grid-bots.ts';
import type { Credentials } from '../support/signing.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

interface LogLine {
  level: number;
  msg: string;
  kind?: string;
  botId?: number;
}

const INFO = 30;
const WARN = 40;
const lines: LogLine[] = [];
let t: TestApp;
let admin: Credentials;

before(async () => {
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  t = await startTestApp({ PAPER_SLIPPAGE_BPS: '0' }, { logger });
  admin = await t.createKey({ user: 'operator', permissions: ['ADMIN'] });
});
after(() => t.close());

const btc = (price: string) => setPrices(t, admin, { USDT_BTC: price });
const linesOf = (botId: number) => lines.filter((line) => line.botId === botId);

describe('the trading story in the process log', () => {
  it('follows a grid bot from start to stop: orders placed, a fill with its profit, turned off', async () => {
    const user = await newUser(t);
    await btc('60000');
    const { id } = await startGrid(t, user, FIVE_LINES);
    await btc('58900');
    await btc('60100');
    const stopped = await postJson(t, `/ver1/grid_bots/${id}/disable`, {}, user.credentials);
    assert.equal(stopped.status, 201, stopped.text);
    const story = linesOf(id);
    assert.ok(story.every((line) => line.level === INFO && line.kind === 'grid_bot' && line.msg.startsWith(`Grid bot ${id}: `)), JSON.stringify(story));
    const said = story.map((line) => line.msg.slice(`Grid bot ${id}: `.length));
    assert.ok(said.includes('Bot is turned on'), said.join('\n'));
    assert.ok(said.includes('Creating LIMIT BUY order, Price: 59000.0 USDT, Size: 99.71 USDT (0.00169 BTC), Current price: 60000.0 USDT.'), said.join('\n'));
    assert.ok(said.includes('LIMIT BUY order filled, Price: 59000.0 USDT, Size: 99.71 USDT (0.00169 BTC).'), said.join('\n'));
    assert.ok(said.some((text) => /^LIMIT SELL order filled, Price: 60000\.0 USDT, .*Profit: [\d.]+ USDT\.$/.test(text)), said.join('\n'));
    assert.equal(said.at(-1), 'Bot is turned off');
  });

  it('logs what a bot could not do as a warning naming the bot', async () => {
    const user = await newUser(t);
    await btc('60000');
    const response = await createGrid(t, user, { upper_price: '6000', lower_price: '5000', grids_quantity: 3, quantity_per_grid: '0.01' });
    assert.equal(response.status, 201, response.text);
    const warnings = linesOf(response.body.id).filter((line) => line.level === WARN).map((line) => line.msg);
    assert.ok(warnings.includes(`Grid bot ${response.body.id}: The exchange refused every order of the bot: it cannot trade and is turned off`), warnings.join('\n'));
    assert.ok(warnings.some((text) => text.includes('LIMIT BUY order at 5000.0 USDT was not placed: price is too far')), warnings.join('\n'));
  });
});
