/**
 * PostgreSQL only: the server's database connections are terminated (as a restart, a failover or
 * an operator's pg_terminate_backend would) while ticks flow through a trading grid bot. The
 * process survives, the API answers 503 at worst, trading goes on, and no order or fill is doubled.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { newUser, postTicks } from '../support/api.ts';
import { type GridUser, openOrders, startGrid, FIVE_LINES } from '../support/grid-bots.ts';
import type { Credentials } from '../support/signing.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const url = process.env.DATABASE_URL;
const TERMINATIONS = 20;

describe('PostgreSQL connections terminated while a grid bot trades', () => {
  let t: TestApp;
  let admin: Credentials;
  let killer: pg.Client;

  before(async () => {
    if (!url) return;
    t = await startTestApp({ PAPER_SLIPPAGE_BPS: '0' });
    admin = await t.createKey({ user: 'operator', permissions: ['ADMIN'] });
    killer = new pg.Client({ connectionString: url });
    await killer.connect();
  });
  after(async () => {
    await killer?.end();
    await t?.close();
  });

  /** Ends every connection this server holds (named after its test schema); answers how many. */
  async function terminateServerConnections(): Promise<number> {
    const [server] = await t.core.db.query<{ name: string }>("SELECT current_setting('application_name') AS name");
    const result = await killer.query<{ n: number }>(
      'SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = $1',
      [server!.name],
    );
    return result.rows[0]!.n;
  }

  it('survives every termination, keeps trading and doubles nothing', { skip: url ? false : 'needs PostgreSQL: set DATABASE_URL' }, async (context) => {
    const user: GridUser = await newUser(t);
    assert.equal((await postTicks(t, admin, [{ pair: 'USDT_BTC', price: '60000' }])).status, 200);
    const { id } = await startGrid(t, user, FIVE_LINES);
    const statuses: number[] = [];
    let terminated = 0;
    let recovered = 0;
    for (let round = 0; round < TERMINATIONS; round += 1) {
      // Several ticks per request, crossing lines both ways, so the request is mid-flight.
      const path = round % 2 === 0 ? ['59500', '58900', '59400'] : ['60500', '61100', '60600'];
      const ticking = postTicks(t, admin, path.map((price) => ({ pair: 'USDT_BTC', price })));
      terminated += Number((await terminateServerConnections()) > 0);
      const response = await ticking;
      statuses.push(response.status);
      assert.ok(response.status === 200 || response.status === 503, response.text);
      if (response.status === 503) assert.equal(response.body.error, 'service_unavailable');
      const bot = await t.request({ path: `/ver1/grid_bots/${id}`, credentials: user.credentials });
      if (bot.status === 200) recovered += 1;
    }
    context.diagnostic(
      `terminated the server's connections ${TERMINATIONS} times (${terminated} while it held some); ` +
        `recovered ${recovered} of ${TERMINATIONS}; tick answers ${statuses.filter((s) => s === 200).length}×200, ` +
        `${statuses.filter((s) => s === 503).length}×503`,
    );
    assert.equal(recovered, TERMINATIONS);

    // Trading goes on: another crossing fills and is answered by new orders.
    const last = await postTicks(t, admin, [{ pair: 'USDT_BTC', price: '58900' }, { pair: 'USDT_BTC', price: '61100' }]);
    assert.equal(last.status, 200, last.text);
    assert.ok(last.body.fills > 0);

    const db = t.core.db;
    const twice = await db.query(
      `SELECT client_order_id FROM engine_orders GROUP BY client_order_id HAVING count(*) > 1
       UNION ALL SELECT client_order_id FROM paper_orders GROUP BY account_id, client_order_id HAVING count(*) > 1`,
    );
    assert.deepEqual(twice, []);
    const overfilled = await db.query(
      // The paper exchange's orders: its own rows, and the journal rows that are the only record of
      // the orders the engine placed while it stored the paper exchange's changes.
      `SELECT o.client_order_id FROM (
         SELECT id, account_id, client_order_id, amount FROM paper_orders
         UNION ALL
         SELECT e.exchange_order_id, e.account_id, e.client_order_id, e.amount FROM engine_orders e
         WHERE e.exchange_order_id IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM paper_orders p WHERE p.account_id = e.account_id AND p.client_order_id = e.client_order_id)
       ) o JOIN paper_trades f ON f.order_id = o.id AND f.account_id = o.account_id
       GROUP BY o.id, o.client_order_id, o.amount HAVING sum(f.amount) > o.amount`,
    );
    assert.deepEqual(overfilled, []);
    const journaled = await db.query<{ client_order_id: string }>(
      "SELECT client_order_id FROM engine_orders WHERE automation_id = $1 AND status = 'open' ORDER BY 1",
      [id],
    );
    const onExchange = await (await t.core.paper.exchange(user.accountId)).openOrders();
    assert.deepEqual(onExchange.map((o) => o.clientOrderId).sort(), journaled.map((row) => row.client_order_id));
    // Four of the five lines hold an order; the one nearest the last price (61100) waits empty.
    assert.deepEqual(await openOrders(t, user.accountId), ['buy 58000 0.00172', 'buy 59000 0.00169', 'buy 60000 0.00166', 'sell 62000 0.00161']);
  });
});
