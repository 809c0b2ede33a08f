import type { Permission } from '../auth/permissions.ts';
import type { SigningScheme } from '../auth/verify-signature.ts';
import type { ApiKeyRecord, ApiKeysRepository, NewApiKey } from '../services/repositories.ts';
import type { Sql } from './database.ts';

interface ApiKeyRow {
  id: number;
  user_id: number;
  user_name: string;
  name: string;
  key_prefix: string;
  scheme: 'hmac' | 'rsa';
  sealed_secret: string | null;
  rsa_public_key: string | null;
  permissions: Permission[];
  strict: boolean;
  signing: SigningScheme;
  created_at: Date;
  revoked_at: Date | null;
}

const SELECT = `SELECT k.id, k.user_id, u.name AS user_name, k.name, k.key_prefix, k.scheme,
  k.sealed_secret, k.rsa_public_key, k.permissions, k.strict, k.signing, k.created_at, k.revoked_at
  FROM api_keys k JOIN users u ON u.id = k.user_id`;

const toRecord = (row: ApiKeyRow): ApiKeyRecord => ({
  id: row.id,
  userId: row.user_id,
  userName: row.user_name,
  name: row.name,
  keyPrefix: row.key_prefix,
  scheme: row.scheme,
  sealedSecret: row.sealed_secret,
  rsaPublicKey: row.rsa_public_key,
  permissions: row.permissions,
  strict: row.strict,
  signing: row.signing,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
});

export class SqlApiKeysRepository implements ApiKeysRepository {
  constructor(private readonly sql: Sql) {}

  async insert(key: NewApiKey): Promise<ApiKeyRecord> {
    const [inserted] = await this.sql.query<{ id: number }>(
      `INSERT INTO api_keys
         (user_id, name, key_hash, key_prefix, scheme, sealed_secret, rsa_public_key, permissions, strict, signing)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
      [
        key.userId,
        key.name,
        key.keyHash,
        key.keyPrefix,
        key.scheme,
        key.sealedSecret,
        key.rsaPublicKey,
        key.permissions,
        key.strict,
        key.signing,
      ],
    );
    const [row] = await this.sql.query<ApiKeyRow>(`${SELECT} WHERE k.id = $1`, [inserted!.id]);
    return toRecord(row!);
  }

  async findActiveByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const rows = await this.sql.query<ApiKeyRow>(
      `${SELECT} WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
      [keyHash],
    );
    return rows[0] && toRecord(rows[0]);
  }

  async list(): Promise<ApiKeyRecord[]> {
    return (await this.sql.query<ApiKeyRow>(`${SELECT} ORDER BY k.id`)).map(toRecord);
  }

  async revoke(id: number): Promise<boolean> {
    const rows = await this.sql.query(
      'UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING id',
      [id],
    );
    return rows.length > 0;
  }
}
