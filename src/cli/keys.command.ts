import fs from 'node:fs';
import { parsePermissionList, PERMISSIONS } from '../auth/permissions.ts';
import type { Config } from '../config/config.ts';
import type { CliValues } from '../main.ts';
import { ApiError } from '../shared/errors.ts';
import { type AdminActions, openAdmin } from './admin-actions.ts';

const USAGE = `Usage:
  tradeloop keys create --user NAME --name LABEL --permissions P1,P2,... [--rsa-public-key FILE] [--strict] [--signing 3commas|tl1] [--json]
  tradeloop keys list [--json]
  tradeloop keys revoke ID
`;

/** An exit code for bad arguments, or the work to do once the store is open. */
type Prepared = number | ((admin: AdminActions) => Promise<number>);

export async function runKeysCommand(config: Config, args: string[], values: CliValues) {
  // Arguments are checked before the store is opened, so a typo neither waits for it nor touches it.
  const prepared = prepare(args, values);
  if (typeof prepared === 'number') return prepared;
  const admin = await openAdmin(config);
  try {
    return await prepared(admin);
  } finally {
    await admin.close();
  }
}

function prepare([action, ...rest]: string[], values: CliValues): Prepared {
  if (action === 'create' && rest.length === 0) return prepareCreate(values);
  if (action === 'list' && rest.length === 0) return (admin) => list(admin, values);
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
  return async (admin) => {
    const key = await admin.createKey({
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

async function list(admin: AdminActions, values: CliValues): Promise<number> {
  const keys = await admin.listKeys();
  if (values.json) {
    process.stdout.write(`${JSON.stringify(keys)}\n`);
    return 0;
  }
  for (const key of keys) {
    const state = key.revoked_at ? `revoked ${key.revoked_at}` : 'active';
    process.stdout.write(
      `${key.id}\t${key.user}\t${key.name}\t${key.key_prefix}…\t${key.signature_type}\t${key.permissions.join(',')}\t${state}\n`,
    );
  }
  return 0;
}

function prepareRevoke(id: string): Prepared {
  if (!/^\d{1,15}$/.test(id)) {
    process.stderr.write(`A numeric key id is required, got "${id}"\n${USAGE}`);
    return 2;
  }
  return async (admin) => {
    try {
      await admin.revokeKey(Number(id));
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) throw error;
      process.stderr.write(`No active API key with id ${id}\n`);
      return 1;
    }
    process.stdout.write(`Revoked key ${id}\n`);
    return 0;
  };
}
