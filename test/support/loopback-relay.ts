/**
 * Relays in front of PostgreSQL (tests that cut connections, benchmarks that delay them): the
 * relay listens on a free port of 127.0.0.1 and clients reach the database through its URL.
 */
import type net from 'node:net';

/** Starts `server` on a free loopback port; answers `target` with its host and port pointed there. */
export async function listenInFrontOf(server: net.Server, target: URL): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const relayed = new URL(target);
  relayed.hostname = '127.0.0.1';
  relayed.port = String((server.address() as net.AddressInfo).port);
  return relayed.toString();
}
