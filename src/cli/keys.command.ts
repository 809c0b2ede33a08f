import fs from 'node:fs';
import { openCore, type Core } from '../app.ts';
import { parsePermissionList } from '../auth/permissions.ts';
import type { Config } from '../config/config.ts';
import { presentApiKey } from '../http/presenters/admin.presenter.ts';
import type { CliValues } from '../main.ts';

const USAGE = `Usage:
  tradeloop keys create --user NAME --name LABEL --permissions P1,P2,... [--rsa-public-key FILE] [--strict] [--json]
  tradeloop keys list [--json]
  tradeloop keys revoke ID
`;

export async function runKeysCommand(config: Config, args: string[], values: CliValues) {
  const [action, id] = args;
  const run = { create, list, revoke }[action as 'create' | 'list' | 'revoke'];
  if (run === undefined) {
    process.stderr.write(USAGE);
    return 2;
  }
  const core = await openCore(config);
  try {
    return await run(core, values, id);
  } finally {
    await core.close();
  }
}

async function create(core: Core, values: CliValues): Promise<number> {
  if (!values.user || !values.name || !values.permissions) {
    process.stderr.write(`--user, --name and --permissions are required\n${USAGE}`);
    return 2;
  }
  const { permissions, unknown } = parsePermissionList(values.permissions);
  if (unknown.length > 0) {
    process.stderr.write(`Unknown permission(s): ${unknown.join(', ')}\n`);
    return 2;
  }
  const rsaFile = values['rsa-public-key'];
  const key = await core.apiKeys.create({
    userName: values.user,
    name: values.name,
    permissions,
    strict: values.strict ?? false,
    ...(rsaFile === undefined ? {} : { rsaPublicKeyPem: fs.readFileSync(rsaFile, 'utf8') }),
  });
  if (values.json) {
    process.stdout.write(`${JSON.stringify(key)}\n`);
  } else {
    process.stdout.write(
      `Created key ${key.id}. It is shown only now:\n  api_key: ${key.api_key}\n` +
        (key.secret === undefined ? '  (RSA key: sign with your private key)\n' : `  secret:  ${key.secret}\n`),
    );
  }
  return 0;
}

async function list(core: Core, values: CliValues): Promise<number> {
  const keys = await core.apiKeys.list();
  if (values.json) {
    const rows = keys.map(presentApiKey);
    process.stdout.write(`${JSON.stringify(rows)}\n`);
    return 0;
  }
  for (const key of keys) {
    const state = key.revokedAt ? `revoked ${key.revokedAt.toISOString()}` : 'active';
    process.stdout.write(
      `${key.id}\t${key.userName}\t${key.name}\t${key.keyPrefix}…\t${key.scheme}\t${key.permissions.join(',')}\t${state}\n`,
    );
  }
  return 0;
}

async function revoke(core: Core, _values: CliValues, id?: string): Promise<number> {
  if (id === undefined || !/^\d+$/.test(id)) {
    process.stderr.write(`A numeric key id is required\n${USAGE}`);
    return 2;
  }
  await core.apiKeys.revoke(Number(id));
  process.stdout.write(`Revoked key ${id}\n`);
  return 0;
}
