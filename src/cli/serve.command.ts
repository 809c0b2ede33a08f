import fs from 'node:fs';
import path from 'node:path';
import { buildApp, openCore, serveCommands, type Core } from '../app.ts';
import type { Config } from '../config/config.ts';
import { listenFailure } from '../config/listen-address.ts';
import { createLogger } from '../logging.ts';
import { closeGracefully } from '../http/plugins/graceful-close.ts';
import { bootstrapAdmin } from './bootstrap-admin.ts';
import { SERVER_FILE } from './running-server.ts';

/** Runs the server until SIGINT or SIGTERM; resolves with the exit code. */
export async function runServe(config: Config): Promise<number> {
  const logger = createLogger(config.logLevel, 1, config.logFormat);
  let core: Core | undefined;
  const stopSignal = new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  // A signal during the start ends the process as soon as the event loop sees it (PGlite's initdb
  // holds the loop): the embedded database is moved into place only when whole, and every later
  // step is a transaction or is redone on the next start.
  void stopSignal.then((signal) => {
    if (core !== undefined) return;
    logger.info({ signal }, 'stopped while starting');
    logger.flush();
    process.exit(1);
  });
  core = await openCore(config, { logger });
  const serverFile = path.join(config.dataDir, SERVER_FILE);
  try {
    await core.startTrading();
    if (config.role === 'engine') {
      // An engine process serves no API: it runs the accounts it takes until it is stopped.
      // It listens on no port, but runs the actions passed to it through the same API in memory.
      const app = await buildApp(core);
      await serveCommands(core, app);
      logger.info({ store: core.db.kind, engineId: core.leasing?.identity.id }, 'Tradeloop engine running (role engine, no API)');
      logger.info({ signal: await stopSignal }, 'shutting down');
      await core.commands?.stopServing();
      await app.close();
      return 0;
    }
    await bootstrapAdmin(core);
    const app = await buildApp(core);
    try {
      await app.listen({ host: config.host, port: config.port }).catch((error: NodeJS.ErrnoException) => {
        throw listenFailure(config.host, config.port, error);
      });
      const address = app.server.address();
      if (address !== null && typeof address === 'object') {
        const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
        // The command line finds the running server here and acts through its API.
        fs.writeFileSync(serverFile, JSON.stringify({ pid: process.pid, url: `http://${host}:${address.port}` }), { mode: 0o600 });
      }
      await serveCommands(core, app);
      logger.info({ address, store: core.db.kind, dataDir: config.dataDir }, 'Tradeloop is listening');
      logger.info({ signal: await stopSignal }, 'shutting down');
    } finally {
      await core.commands?.stopServing();
      fs.rmSync(serverFile, { force: true });
      await closeGracefully(app);
    }
  } finally {
    await core.close();
    logger.flush();
  }
  return 0;
}
