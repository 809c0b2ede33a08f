import fs from 'node:fs';
import type { Core } from '../app.ts';
import { parsePermissionList, PERMISSIONS } from '../auth/permissions.ts';
import type { Config } from '../config/config.ts';
import { presentApiKey } from '../http/presenters/admin.presenter.ts';
import type { CliValues } from '../main.ts';
import { ApiError } from '../shared/errors.ts';
import { openCliCore } from './open-cli-core.ts';

const USAGE = `Usage:
  tradeloop keys create --user NAME --name LABEL --permissions P1,P2,... [--rsa-public-key FILE] [--strict] [--signing 3commas|tl1] [--json]
  tradeloop keys list [--json]
  tradeloop keys revoke ID
`;

/** An exit code for bad arguments, or the work to do once the store is open. */
type Prepared = number | ((core: Core) => Promise<number>);

export async function runKeysCommand(config: Config, args: string[], values: CliValues) {
  // Arguments are checked before the store is opened, so a typo neither waits for it nor touches it.
  const prepared = prepare(args, values);
  if (typeof prepared === 'number') return prepared;
  const core = await openCliCore(config);
  try {
    return await prepared(core);
  } finally {
    await core.close();
  }
}

function prepare([action, ...rest]: string[], values: CliValues): Prepared {
  if (action === 'create' && rest.length === 0) return prepareCreate(values);
  if (action === 'list' && rest.length === 0) return (core) => list(core, values);
  if (action === 'revoke' && rest.length === 1) return prepareRevoke(rest[0]!);
  process.stderr.write(USAGE);
  return 2;
}

function prepareCreate(values: CliValues): Prepared {
  if (!values.user || !values.name || !values.permissions) {
    process.stderr.write(`--user, --name and --permissions are required\n${USAGE}`);
    return 2;
  }
  const { permissions, unknown } = parsePermissionList(values.permissions);
  if (unknown.length > 0) {
    process.stderr.write(
      `Unknown permission(s): ${unknown.join(', ')}. Known permissions: ${PERMISSIONS.join(', ')}\n`,
    );
    return 2;
  }
  const signing = values.signing ?? '3commas';
  if (signing !== '3commas' && signing !== 'tl1') {
    process.stderr.write(`--signing must be 3commas or tl1 (docs/signing.md), got "${signing}"\n`);
    return 2;
  }
  const rsaFile = values['rsa-public-key'];
  let rsaPublicKeyPem: string | undefined;
  if (rsaFile !== undefined) {
    try {
      rsaPublicKeyPem = fs.readFileSync(rsaFile, 'utf8');
    } catch (error) {
      process.stderr.write(`Cannot read --rsa-public-key ${rsaFile}: ${(error as Error).message}\n`);
      return 2;
    }
  }
  return async (core) => {
    const key = await core.apiKeys.create({
      userName: values.user!,
      name: values.name!,
      permissions,
      strict: values.strict ?? false,
      signing,
      ...(rsaPublicKeyPem === undefined ? {} : { rsaPublicKeyPem }),
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
  };
}

async function list(core: Core, values: CliValues): Promise<number> {
  const keys = await core.apiKeys.list();
  if (values.json) {
    process.stdout.write(`${JSON.stringify(keys.map(presentApiKey))}\n`);
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

function prepareRevoke(id: string): Prepared {
  if (!/^\d{1,15}$/.test(id)) {
    process.stderr.write(`A numeric key id is required, got "${id}"\n${USAGE}`);
    return 2;
  }
  return async (core) => {
    try {
      await core.apiKeys.revoke(Number(id));
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) throw error;
      process.stderr.write(`No active API key with id ${id}\n`);
      return 1;
    }
    process.stdout.write(`Revoked key ${id}\n`);
    return 0;
  };
}
