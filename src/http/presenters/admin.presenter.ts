import type { ApiKeySummary } from '../../services/api-keys.service.ts';
import type { User } from '../../services/repositories.ts';

export const presentUser = (user: User) => ({
  id: user.id,
  name: user.name,
  mode: user.mode,
  locale: user.locale,
  created_at: user.createdAt.toISOString(),
});

export const presentApiKey = (key: ApiKeySummary) => ({
  id: key.id,
  user: key.userName,
  name: key.name,
  key_prefix: key.keyPrefix,
  signature_type: key.scheme,
  permissions: key.permissions,
  strict: key.strict,
  signing: key.signing,
  created_at: key.createdAt.toISOString(),
  revoked_at: key.revokedAt?.toISOString() ?? null,
});
