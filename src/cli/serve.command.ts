import { buildApp, openCore } from '../app.ts';
import { ConfigError, type Config } from '../config/config.ts';
import { bootstrapAdmin } from './bootstrap-admin.ts';

/** Runs the server until SIGINT or SIGTERM; resolves with the exit code. */
export async function runServe(config: Config): Promise<number> {
  // Signal handlers go in first: a signal during the first start then waits for PGlite's initdb
  // to finish instead of killing the process halfway through it, and shutdown follows at once.
  const stopSignal = new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  const core = await openCore(config);
  try {
    await core.startTrading();
    await bootstrapAdmin(core);
    const app = await buildApp(core);
    try {
      await app.listen({ host: config.host, port: config.port }).catch((error: NodeJS.ErrnoException) => {
        if (!['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL'].includes(error.code ?? '')) throw error;
        throw new ConfigError(`Cannot listen on ${config.host}:${config.port}: ${error.message}`);
      });
      core.logger.info(
        { address: app.server.address(), store: core.db.kind, dataDir: config.dataDir },
        'Tradeloop is listening',
      );
      core.logger.info({ signal: await stopSignal }, 'shutting down');
    } finally {
      await app.close();
    }
  } finally {
    await core.close();
    core.logger.flush();
  }
  return 0;
}
