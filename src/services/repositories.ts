/** Storage ports the services are given by constructor; src/store implements them. */
import type { Permission } from '../auth/permissions.ts';
import type { SigningScheme } from '../auth/verify-signature.ts';

export type UserMode = 'paper' | 'real';

export interface User {
  id: number;
  name: string;
  mode: UserMode;
  /** Kept as chosen (PUT /ver1/users/locale); texts are English whatever it is. */
  locale: string;
  createdAt: Date;
}

export interface UsersRepository {
  /** Undefined when the name is taken (also by a concurrent insert). */
  create(name: string): Promise<User | undefined>;
  findById(id: number): Promise<User | undefined>;
  findByName(name: string): Promise<User | undefined>;
  count(): Promise<number>;
  list(): Promise<User[]>;
  setMode(id: number, mode: UserMode): Promise<void>;
  setLocale(id: number, locale: string): Promise<void>;
}

export interface ApiKeyRecord {
  id: number;
  userId: number;
  userName: string;
  name: string;
  keyPrefix: string;
  scheme: 'hmac' | 'rsa';
  sealedSecret: string | null;
  rsaPublicKey: string | null;
  permissions: Permission[];
  strict: boolean;
  signing: SigningScheme;
  createdAt: Date;
  revokedAt: Date | null;
}

export type NewApiKey = Omit<ApiKeyRecord, 'id' | 'userName' | 'createdAt' | 'revokedAt'> & {
  keyHash: string;
};

export interface ApiKeysRepository {
  insert(key: NewApiKey): Promise<ApiKeyRecord>;
  findActiveByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  list(): Promise<ApiKeyRecord[]>;
  /** Marks the key revoked; false when no active key has that id. */
  revoke(id: number): Promise<boolean>;
}

export interface Account {
  id: number;
  userId: number;
  name: string;
  marketCode: string;
  /** Exchange credentials sealed with the master key; null for paper accounts. */
  sealedCredentials: string | null;
  includeInSummary: boolean;
  apiKeyInvalid: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewAccount {
  userId: number;
  name: string;
  marketCode: string;
  sealedCredentials: string | null;
  exchangeKeyHash: string | null;
}

export type AccountChanges = Partial<
  Pick<Account, 'name' | 'sealedCredentials' | 'includeInSummary' | 'apiKeyInvalid'> & { exchangeKeyHash: string | null }
>;

export interface BalancePoint {
  day: string;
  /** The day's last recorded value. */
  usd: string;
  btc: string;
  /** The day's first recorded value. */
  openingUsd: string;
  openingBtc: string;
}

export interface AccountsRepository {
  /** Undefined when the same exchange key is already connected. */
  create(account: NewAccount): Promise<Account | undefined>;
  findById(id: number): Promise<Account | undefined>;
  listByUser(userId: number): Promise<Account[]>;
  /** False when the change would connect an exchange key that is already connected. */
  update(id: number, changes: AccountChanges): Promise<boolean>;
  remove(id: number): Promise<void>;
  recordBalance(accountId: number, day: string, usd: string, btc: string): Promise<void>;
  balanceHistory(accountId: number, fromDay: string, toDay: string): Promise<BalancePoint[]>;
}

/** What the orders placed on an account traded. */
export interface TradedVolumes {
  /** Quote traded per pair, each order counted at the time of its last fill, from `from` until before `until`. */
  perPair(accountId: number, from: Date | null, until: Date | null): Promise<PairVolume[]>;
}

export interface PairVolume {
  pair: string;
  /** In the pair's quote currency. */
  total: string;
}
