import type { Config } from '../config/config.ts';
import type { CliValues } from '../main.ts';
import { openAdmin } from './admin-actions.ts';

export async function runUsersCommand(config: Config, args: string[], values: CliValues) {
  const [action, name, ...extra] = args;
  if (action !== 'create' || name === undefined || extra.length > 0) {
    process.stderr.write('Usage: tradeloop users create NAME\n');
    return 2;
  }
  const admin = await openAdmin(config);
  try {
    const user = await admin.createUser(name);
    process.stdout.write(
      values.json ? `${JSON.stringify({ id: user.id, name: user.name })}\n` : `Created user ${user.name} (id ${user.id})\n`,
    );
    return 0;
  } finally {
    await admin.close();
  }
}
