import { hashApiKey, hmacSecretKey, parseRsaPublicKey, randomToken } from '../auth/key-material.ts';
import type { Permission } from '../auth/permissions.ts';
import type { SecretBox } from '../auth/secret-box.ts';
import type { SigningKey, SigningScheme } from '../auth/verify-signature.ts';
import { errors } from '../shared/errors.ts';
import type { ApiKeyRecord, ApiKeysRepository, UsersRepository } from './repositories.ts';

export interface CreateApiKeyInput {
  userName: string;
  name: string;
  permissions: Permission[];
  rsaPublicKeyPem?: string;
  strict?: boolean;
  /** '3commas' unless asked: TL1 keys refuse the 3Commas payloads (docs/signing.md). */
  signing?: SigningScheme;
}

/** Shown once, at creation; `secret` is absent for RSA keys (the user keeps the private key). */
export interface CreatedApiKey {
  id: number;
  api_key: string;
  secret?: string;
}

export interface AuthenticatedKey {
  id: number;
  userId: number;
  permissions: readonly Permission[];
  signingKey: SigningKey;
}

export type ApiKeySummary = Omit<ApiKeyRecord, 'sealedSecret' | 'rsaPublicKey'>;

const KEY_NAME_MAX = 100;
const MAX_CACHED_KEYS = 10_000;

interface CacheEntry {
  lookup: Promise<AuthenticatedKey | undefined>;
  expiresAt: number;
}

/**
 * Issues, lists, revokes and resolves API keys. Resolved keys (with their decrypted secret) are
 * cached for `cacheTtlMs` so that signature checks do not touch the database; a revocation in this
 * process takes effect at once, one made by another process (shared PostgreSQL) within the TTL.
 * At most MAX_CACHED_KEYS entries are kept.
 */
export class ApiKeysService {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly users: UsersRepository,
    private readonly secretBox: SecretBox,
    private readonly now: () => number = Date.now,
    private readonly cacheTtlMs = 10_000,
  ) {}

  async create(input: CreateApiKeyInput): Promise<CreatedApiKey> {
    const user = await this.users.findByName(input.userName);
    if (!user) throw errors.recordInvalid({ user: [`no user named ${input.userName}`] });
    const name = input.name.trim();
    if (name === '' || name.length > KEY_NAME_MAX) {
      throw errors.recordInvalid({ name: [`must be 1 to ${KEY_NAME_MAX} characters`] });
    }
    if (input.permissions.length === 0) {
      throw errors.recordInvalid({ permissions: ['is empty'] });
    }
    let rsaPublicKey: string | null = null;
    if (input.rsaPublicKeyPem !== undefined) {
      try {
        parseRsaPublicKey(input.rsaPublicKeyPem);
      } catch (error) {
        throw errors.recordInvalid({ rsa_public_key: [(error as Error).message] });
      }
      rsaPublicKey = input.rsaPublicKeyPem.trim();
    }
    const apiKey = randomToken();
    const secret = rsaPublicKey === null ? randomToken() : undefined;
    const record = await this.keys.insert({
      userId: user.id,
      name,
      keyHash: hashApiKey(apiKey),
      keyPrefix: apiKey.slice(0, 8),
      scheme: rsaPublicKey === null ? 'hmac' : 'rsa',
      sealedSecret: secret === undefined ? null : this.secretBox.seal(secret),
      rsaPublicKey,
      permissions: [...new Set(input.permissions)],
      strict: input.strict ?? false,
      signing: input.signing ?? '3commas',
    });
    return secret === undefined
      ? { id: record.id, api_key: apiKey }
      : { id: record.id, api_key: apiKey, secret };
  }

  async list(): Promise<ApiKeySummary[]> {
    return (await this.keys.list()).map(({ sealedSecret: _s, rsaPublicKey: _r, ...summary }) => summary);
  }

  async revoke(id: number): Promise<void> {
    if (!(await this.keys.revoke(id))) throw errors.notFound();
    // Revocations are rare: clearing the whole cache is simpler than finding the key's entry.
    this.cache.clear();
  }

  /**
   * Lookups are cached as promises, so concurrent requests for one key share a single lookup, and
   * unknown keys are cached too, so made-up keys cannot make every request hit the database.
   */
  authenticate(apiKey: string): Promise<AuthenticatedKey | undefined> {
    const now = this.now();
    const cached = this.cache.get(apiKey);
    if (cached && cached.expiresAt > now) return cached.lookup;
    const lookup = this.lookUp(apiKey);
    this.remember(apiKey, { lookup, expiresAt: now + this.cacheTtlMs });
    lookup.catch(() => {
      if (this.cache.get(apiKey)?.lookup === lookup) this.cache.delete(apiKey);
    });
    return lookup;
  }

  private async lookUp(apiKey: string): Promise<AuthenticatedKey | undefined> {
    const record = await this.keys.findActiveByHash(hashApiKey(apiKey));
    return record && this.toAuthenticated(record);
  }

  private remember(apiKey: string, entry: CacheEntry): void {
    this.cache.delete(apiKey);
    this.cache.set(apiKey, entry);
    // Maps iterate in insertion order, so the first entries are the least recently refreshed.
    for (const oldest of this.cache.keys()) {
      if (this.cache.size <= MAX_CACHED_KEYS) break;
      this.cache.delete(oldest);
    }
  }

  private toAuthenticated(record: ApiKeyRecord): AuthenticatedKey {
    return { id: record.id, userId: record.userId, permissions: record.permissions, signingKey: this.signingKey(record) };
  }

  /** A secret that does not open means the master key differs from the one it was sealed with. */
  private signingKey(record: ApiKeyRecord): SigningKey {
    if (record.scheme === 'rsa') {
      return { scheme: 'rsa', publicKey: parseRsaPublicKey(record.rsaPublicKey!), strict: record.strict, signing: record.signing };
    }
    let secret: string;
    try {
      secret = this.secretBox.open(record.sealedSecret!);
    } catch {
      throw errors.masterKeyMismatch();
    }
    return { scheme: 'hmac', secret: hmacSecretKey(secret), strict: record.strict, signing: record.signing };
  }
}
