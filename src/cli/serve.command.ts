import { buildApp, openCore } from '../app.ts';
import type { Config } from '../config/config.ts';
import { bootstrapAdmin } from './bootstrap-admin.ts';

/** Runs the server until SIGINT or SIGTERM; resolves with the exit code. */
export async function runServe(config: Config): Promise<number> {
  const core = await openCore(config);
  await bootstrapAdmin(core);
  const app = await buildApp(core);
  await app.listen({ host: config.host, port: config.port });
  core.logger.info(
    { address: app.server.address(), store: core.db.kind, dataDir: config.dataDir },
    'Tradeloop is listening',
  );
  return new Promise((resolve) => {
    const stop = async (signal: string) => {
      core.logger.info({ signal }, 'shutting down');
      await app.close();
      await core.close();
      resolve(0);
    };
    process.once('SIGINT', () => void stop('SIGINT'));
    process.once('SIGTERM', () => void stop('SIGTERM'));
  });
}
