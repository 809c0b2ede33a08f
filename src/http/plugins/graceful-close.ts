import type { FastifyInstance } from 'fastify';

/** How long a stop waits for requests in flight before it cuts the remaining connections. */
export const REQUEST_GRACE_MS = 10_000;

/**
 * Replies sent once the server began closing end their connection. Without it a keep-alive
 * connection that was busy when the close began would stay open until its idle timeout (72 s),
 * and cutting every connection at once instead would drop the requests still in flight.
 */
export function registerGracefulClose(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
}

/** Closes the app: requests in flight are answered, connections left open after the grace period are cut. */
export async function closeGracefully(app: FastifyInstance, graceMs = REQUEST_GRACE_MS): Promise<void> {
  const closing = app.close();
  let grace: NodeJS.Timeout | undefined;
  const graceOver = new Promise<'cut'>((resolve) => (grace = setTimeout(() => resolve('cut'), graceMs)));
  if ((await Promise.race([closing, graceOver])) === 'cut') app.server.closeAllConnections();
  clearTimeout(grace);
  await closing;
}
