/**
 * The whole route table, as openapi.json publishes it: no route takes text that cannot be stored,
 * and seeded generated requests (type confusion, boundaries, huge values, unicode, duplicate
 * keys, object member names) never get a 5xx or a reply that is not a JSON body.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ACCESS_TABLE } from '../../src/http/access-table.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { createFixtures, type Fixtures } from './route-fixtures.ts';
import { edgeInputs, plausibleInput, randomInput, requestFor } from './route-fuzz.ts';
import { fieldName, formText, loadOperations, nested, type Operation, seededRandom, send, type Sent, textLeaves } from './route-table.ts';

const SEED = 20_260_301;
const RANDOM_REQUESTS_PER_ROUTE = 8;
const NUL = 'is invalid: contains a NUL character';
const LONE_SURROGATE = 'is invalid: contains a lone surrogate, which is not Unicode text';
/**
 * 5xx answers the catalogue gives on purpose: the reference's own 500 for the required balances of
 * a stopped grid, and 503 when a real exchange cannot be reached (no test reaches the network).
 */
const DELIBERATE_5XX = new Set(['grid_lines_not_marked', 'exchange_unavailable']);

let t: TestApp;
let fixtures: Fixtures;
let operations: Operation[];
before(async () => {
  t = await startTestApp();
  fixtures = await createFixtures(t);
  operations = await loadOperations(t.app);
  assert.equal(operations.length, Object.keys(ACCESS_TABLE).length);
});
after(() => t.close());

const pathOf = (operation: Operation) =>
  operation.url.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(fixtures.pathValue(operation.url, name)));

function assertJsonReply(sent: Sent, label: string): any {
  assert.match(sent.contentType, /^application\/json/, `${label} -> ${sent.status}: content type ${sent.contentType}`);
  assert.notEqual(sent.text, '', `${label} -> ${sent.status}: empty body`);
  const body = JSON.parse(sent.text);
  assert.ok(sent.status < 500 || DELIBERATE_5XX.has(body.error), `${label} -> ${sent.status} ${sent.text.slice(0, 300)}`);
  return body;
}

describe('text that cannot be stored', () => {
  it('is refused with its field named on every text field of every route', async () => {
    let checked = 0;
    for (const operation of operations) {
      const query = operation.method === 'GET' || operation.method === 'DELETE';
      for (const path of textLeaves(operation.input)) {
        if (path.length === 0) continue;
        // A query or form cannot carry a lone surrogate (percent-encoding is UTF-8); JSON can.
        const [text, message] = query ? ['a\u0000b', NUL] : ['a\udfffb', LONE_SURROGATE];
        const value = nested(path, text);
        const request = query
          ? { method: operation.method, target: `${pathOf(operation)}?${formText(value)}` }
          : { method: operation.method, target: pathOf(operation), body: JSON.stringify(value), contentType: 'application/json' };
        const label = `${operation.method} ${operation.url} ${fieldName(path)}`;
        const body = assertJsonReply(await send(t.app, fixtures.credentials, request), label);
        assert.equal(body.error, 'record_invalid', `${label}: ${JSON.stringify(body)}`);
        assert.ok(body.error_attributes[fieldName(path)]?.includes(message), `${label}: ${JSON.stringify(body)}`);
        checked += 1;
      }
    }
    assert.ok(checked > 150, `only ${checked} text fields`);
  });

  it('is refused inside a list sent as JSON text, and as a path parameter', async () => {
    const listAsText = JSON.stringify({ strategy_list: JSON.stringify([{ strategy: 'manual', options: { note: '\udfff' } }]) });
    const update = await send(t.app, fixtures.credentials, {
      method: 'PATCH', target: `/ver1/bots/${fixtures.sample('bot_id')}/update`, body: listAsText, contentType: 'application/json',
    });
    assert.deepEqual(assertJsonReply(update, 'strategy_list').error_attributes, { 'strategy_list[0][options][note]': [LONE_SURROGATE] });
    const trade = await send(t.app, fixtures.credentials, { method: 'GET', target: '/ver1/trades/a%00b' });
    assert.deepEqual(assertJsonReply(trade, 'uuid').error_attributes, { uuid: [NUL] });
  });
});

describe('generated requests over the whole route table', () => {
  it(`never answer 5xx, and answer every request with a JSON body (seed ${SEED})`, async (context) => {
    const random = seededRandom(SEED);
    // Routes that end or remove what the others use go last.
    const destructive = (operation: Operation) =>
      operation.method === 'DELETE' || /remove|delete|cancel|panic_sell|close_by_market|change_mode|reduce_funds$/.test(operation.url);
    const ordered = [...operations.filter((o) => !destructive(o)), ...operations.filter(destructive)];
    let sent = 0;
    let deliberate = 0;
    const failures: string[] = [];
    const succeeded = new Set<string>();
    const check = async (operation: Operation, input: Record<string, unknown>, hostile = true) => {
      const request = requestFor(random, operation, pathOf(operation), input, hostile);
      const response = await send(t.app, fixtures.credentials, request);
      sent += 1;
      const label = `${request.method} ${request.target.slice(0, 200)} ${request.body?.slice(0, 200) ?? ''}`;
      try {
        const body = assertJsonReply(response, label);
        if (response.status >= 500) deliberate += 1;
        if (response.status >= 400) assert.equal(typeof body.error, 'string', label);
        else succeeded.add(`${operation.method} ${operation.url}`);
      } catch (error) {
        failures.push((error as Error).message);
      }
    };
    for (const operation of ordered) {
      await check(operation, plausibleInput(operation, fixtures.sample), false);
      for (const input of edgeInputs(operation, fixtures.sample)) await check(operation, input);
      for (let run = 0; run < RANDOM_REQUESTS_PER_ROUTE; run++) await check(operation, randomInput(random, operation, fixtures.sample));
    }
    const silent = operations.map((o) => `${o.method} ${o.url}`).filter((route) => !succeeded.has(route));
    context.diagnostic(
      `${sent} generated requests over ${operations.length} routes: ${failures.length} failed, ` +
        `${deliberate} deliberate 5xx (${[...DELIBERATE_5XX].join(', ')}), ${succeeded.size} routes answered 2xx ` +
        `(not: ${silent.join(', ')})`,
    );
    assert.deepEqual(failures, []);
    // Most routes must have been reached with input good enough to succeed, or the run proves little.
    assert.ok(succeeded.size >= 70, `only ${succeeded.size} routes answered 2xx`);
  });
});
