import type { Config } from '../config/config.ts';
import type { CliValues } from '../main.ts';
import { openCliCore } from './open-cli-core.ts';

export async function runUsersCommand(config: Config, args: string[], values: CliValues) {
  const [action, name, ...extra] = args;
  if (action !== 'create' || name === undefined || extra.length > 0) {
    process.stderr.write('Usage: tradeloop users create NAME\n');
    return 2;
  }
  const core = await openCliCore(config);
  try {
    const user = await core.users.create(name);
    process.stdout.write(
      values.json ? `${JSON.stringify({ id: user.id, name: user.name })}\n` : `Created user ${user.name} (id ${user.id})\n`,
    );
    return 0;
  } finally {
    await core.close();
  }
}
