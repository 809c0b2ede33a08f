/**
 * A relay on 127.0.0.1 in front of PostgreSQL that holds every chunk for `delayMs` each way: the
 * benchmarks then see a database across a network (`BENCH_PG_DELAY_MS`), where each round trip
 * costs what it does between two machines rather than on one.
 */
import net from 'node:net';
import { listenInFrontOf } from '../../test/support/loopback-relay.ts';

export async function delayedRelay(target: URL, delayMs: number): Promise<{ url: string; close(): Promise<void> }> {
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    const closeBoth = () => {
      client.destroy();
      upstream.destroy();
    };
    for (const [from, to] of [[client, upstream], [upstream, client]] as const) {
      from.setNoDelay(true);
      // Timers of one duration fire in the order they were set, so the bytes keep their order.
      from.on('data', (chunk) => setTimeout(() => to.write(chunk), delayMs));
      from.on('error', closeBoth).on('close', closeBoth);
    }
  });
  return {
    url: await listenInFrontOf(server, target),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
