import { openCore } from '../app.ts';
import type { Config } from '../config/config.ts';
import type { CliValues } from '../main.ts';

export async function runUsersCommand(config: Config, args: string[], values: CliValues) {
  const [action, name] = args;
  if (action !== 'create' || name === undefined) {
    process.stderr.write('Usage: tradeloop users create NAME\n');
    return 2;
  }
  const core = await openCore(config);
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
