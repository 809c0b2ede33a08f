import net from 'node:net';
import { ConfigError } from './config.ts';

/**
 * Listens on the address once and lets go, so that a HOST that is not this machine's or a PORT in
 * use is reported before the store is opened, not after the seconds that takes.
 */
export async function checkListenAddress(host: string, port: number): Promise<void> {
  const server = net.createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host, port, exclusive: true }, resolve);
    });
  } catch (error) {
    throw listenFailure(host, port, error as NodeJS.ErrnoException);
  }
  await new Promise((resolve) => server.close(resolve));
}

export function listenFailure(host: string, port: number, error: NodeJS.ErrnoException): Error {
  const fixes: Record<string, string> = {
    EADDRINUSE: `another process listens on port ${port}; stop it or set PORT (--port) to a free port`,
    EACCES: `this user may not use port ${port}; set PORT (--port) to 1024 or above`,
    EADDRNOTAVAIL: `"${host}" is no address of this machine; set HOST (--host) to 127.0.0.1, ::1 or 0.0.0.0`,
  };
  const fix = fixes[error.code ?? ''];
  return fix === undefined ? error : new ConfigError(`Cannot listen on ${host}:${port}: ${fix}`);
}
