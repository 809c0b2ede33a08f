import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import { DatabaseUnavailableError, openPostgres } from './postgres-database.ts';

/** A loopback port with nothing listening: bound, noted, then released. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe(openPostgres.name, () => {
  it('reports an unreachable server clearly, without the password', async () => {
    const port = await closedPort();
    const url = `postgres://tradeloop:hunter2@127.0.0.1:${port}/tradeloop`;
    await assert.rejects(openPostgres(url), (error: unknown) => {
      assert.ok(error instanceof DatabaseUnavailableError);
      assert.ok(error.message.startsWith(`Cannot connect to PostgreSQL at 127.0.0.1:${port}/tradeloop: `));
      assert.ok(!error.message.includes('hunter2'));
      return true;
    });
  });
});
