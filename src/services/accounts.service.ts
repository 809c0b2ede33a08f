/**
 * Exchange accounts of a user: one paper account made at sign-up, real accounts connected with
 * exchange credentials (checked against the exchange where it can be reached, sealed at rest).
 * The user's mode decides which ones lists show; another user's account is never reachable.
 */
import { hashApiKey } from '../auth/key-material.ts';
import type { SecretBox } from '../auth/secret-box.ts';
import type { ExchangeConnector, ExchangeCredentials } from '../exchanges/exchange-connector.ts';
import { type Balance, type Exchange, ExchangeError, type ExchangeOrder } from '../exchanges/exchange.ts';
import { ApiError, errors, FieldErrorCollector } from '../shared/errors.ts';
import { exchangeApiError, type MarketsService, PAPER_MARKET_CODE } from './markets.service.ts';
import type { Account, AccountChanges, AccountsRepository, UserMode } from './repositories.ts';

/** What the accounts service needs of the running paper exchange. */
export interface PaperAccounts {
  openAccount(accountId: number, balances: readonly Balance[]): Promise<Exchange>;
  /** The account's exchange, loaded from storage when another process created it. */
  exchange(accountId: number): Promise<Exchange>;
}

export interface ConnectInput extends ExchangeCredentials {
  type: string;
  name: string;
}

export interface UpdateInput extends ExchangeCredentials {
  name?: string;
  include_in_summary?: boolean;
}

const CREDENTIAL_FIELDS = ['api_key', 'secret', 'passphrase', 'customer_id', 'address'] as const;

/** Balances as the exchange reported them, or why it could not; with the account as it now is. */
export type BalanceReading =
  | { ok: true; account: Account; balances: Balance[] }
  | { ok: false; account: Account; error: ApiError };

export class AccountsService {
  private readonly realExchanges = new Map<number, Exchange & { close(): Promise<void> }>();

  constructor(
    private readonly accounts: AccountsRepository,
    private readonly markets: MarketsService,
    private readonly paper: PaperAccounts,
    private readonly connector: ExchangeConnector,
    private readonly secretBox: SecretBox,
    private readonly paperBalances: readonly Balance[],
  ) {}

  async createPaperAccount(userId: number, name = 'Paper trading account'): Promise<Account> {
    const account = await this.accounts.create({
      userId,
      name,
      marketCode: PAPER_MARKET_CODE,
      sealedCredentials: null,
      exchangeKeyHash: null,
    });
    await this.paper.openAccount(account!.id, this.paperBalances);
    return account!;
  }

  async connect(userId: number, input: ConnectInput): Promise<Account> {
    if (input.type === PAPER_MARKET_CODE) return this.createPaperAccount(userId, input.name);
    if (!(await this.markets.find(input.type))) throw errors.recordInvalid({ type: ['does not have a valid value'] });
    const credentials = await this.credentialsFor(input.type, input);
    await this.verify(input.type, credentials);
    const account = await this.accounts.create({
      userId,
      name: input.name,
      marketCode: input.type,
      sealedCredentials: this.secretBox.seal(JSON.stringify(credentials)),
      exchangeKeyHash: hashApiKey(`${input.type}:${credentials.api_key ?? ''}`),
    });
    if (!account) throw alreadyConnected();
    return account;
  }

  async list(userId: number, mode: UserMode): Promise<Account[]> {
    const accounts = await this.accounts.listByUser(userId);
    return accounts.filter((account) => (account.marketCode === PAPER_MARKET_CODE) === (mode === 'paper'));
  }

  /** The ids of the user's accounts of a mode: every list shows only what lives on them. */
  async idsOf(userId: number, mode: UserMode): Promise<Set<number>> {
    return new Set((await this.list(userId, mode)).map((account) => account.id));
  }

  /** The account if it exists and belongs to the user: 404 or 403 otherwise. */
  async get(userId: number, accountId: number): Promise<Account> {
    const account = await this.accounts.findById(accountId);
    if (!account) throw errors.notFound();
    if (account.userId !== userId) throw errors.accountNotOwned();
    return account;
  }

  async update(userId: number, accountId: number, input: UpdateInput): Promise<Account> {
    const account = await this.get(userId, accountId);
    const changes: AccountChanges = {};
    if (input.name !== undefined) changes.name = input.name;
    if (input.include_in_summary !== undefined) changes.includeInSummary = input.include_in_summary;
    const credentialFields = CREDENTIAL_FIELDS.filter((field) => input[field] !== undefined);
    if (credentialFields.length > 0) {
      if (account.marketCode === PAPER_MARKET_CODE) {
        const invalid = new FieldErrorCollector();
        for (const field of credentialFields) invalid.add(field, 'is not used by paper trading accounts');
        invalid.throwIfAny();
      }
      const credentials = await this.credentialsFor(account.marketCode, input);
      await this.verify(account.marketCode, credentials);
      changes.sealedCredentials = this.secretBox.seal(JSON.stringify(credentials));
      changes.exchangeKeyHash = hashApiKey(`${account.marketCode}:${credentials.api_key ?? ''}`);
      changes.apiKeyInvalid = false;
      await this.closeExchange(accountId);
    }
    if (!(await this.accounts.update(accountId, changes))) throw alreadyConnected();
    return this.get(userId, accountId);
  }

  async remove(userId: number, accountId: number): Promise<void> {
    const account = await this.get(userId, accountId);
    if (account.marketCode === PAPER_MARKET_CODE && (await this.openOrders(account)).length > 0) {
      throw new ApiError(
        422,
        'account_not_deletable',
        'There are active trading deals on this exchange. Close all trading operations and try again',
      );
    }
    await this.closeExchange(accountId);
    await this.accounts.remove(accountId);
  }

  /** The exchange behind an account, whoever owns it (the engine trades for every user). */
  async exchangeForId(accountId: number): Promise<Exchange> {
    const account = await this.accounts.findById(accountId);
    if (!account) throw errors.notFound();
    return this.exchangeFor(account);
  }

  /** The exchange behind an account: the paper venue's, or a ccxt connection with its keys. */
  async exchangeFor(account: Account): Promise<Exchange> {
    if (account.marketCode === PAPER_MARKET_CODE) {
      return this.paper.exchange(account.id);
    }
    let exchange = this.realExchanges.get(account.id);
    if (!exchange) {
      const credentials = JSON.parse(this.secretBox.open(account.sealedCredentials!)) as ExchangeCredentials;
      exchange = await this.connector.connect(account.marketCode, credentials);
      this.realExchanges.set(account.id, exchange);
    }
    return exchange;
  }

  async openOrders(account: Account): Promise<ExchangeOrder[]> {
    try {
      return await (await this.exchangeFor(account)).openOrders();
    } catch (error) {
      throw exchangeApiError(error);
    }
  }

  /**
   * Reads the account's balances. Keys the exchange refuses mark the account api_key_invalid,
   * and the mark goes once the exchange accepts them again (an IP allow-list fixed, say).
   */
  async readBalances(account: Account): Promise<BalanceReading> {
    try {
      const balances = await (await this.exchangeFor(account)).balances();
      return { ok: true, account: await this.markKeys(account, false), balances };
    } catch (error) {
      if (!(error instanceof ExchangeError)) throw error;
      const invalid = error.kind === 'invalid_credentials';
      return { ok: false, account: invalid ? await this.markKeys(account, true) : account, error: exchangeApiError(error) };
    }
  }

  async recordBalance(accountId: number, day: string, usd: string, btc: string): Promise<void> {
    await this.accounts.recordBalance(accountId, day, usd, btc);
  }

  async balanceHistory(accountId: number, fromDay: string, toDay: string) {
    return this.accounts.balanceHistory(accountId, fromDay, toDay);
  }

  private async credentialsFor(marketCode: string, input: ExchangeCredentials): Promise<ExchangeCredentials> {
    const description = await this.markets.description(marketCode);
    const missing = new FieldErrorCollector();
    const credentials: ExchangeCredentials = {};
    for (const { field } of [...description.formFields.required, ...description.formFields.optional]) {
      const value = input[field as keyof ExchangeCredentials];
      if (value !== undefined && value !== '') credentials[field as keyof ExchangeCredentials] = value;
    }
    for (const { field } of description.formFields.required) {
      if (credentials[field as keyof ExchangeCredentials] === undefined) missing.add(field, 'is missing');
    }
    missing.throwIfAny();
    return credentials;
  }

  /** Refuses keys the exchange rejects; an unreachable exchange does not block connecting. */
  private async verify(marketCode: string, credentials: ExchangeCredentials): Promise<void> {
    const exchange = await this.connector.connect(marketCode, credentials);
    try {
      await exchange.balances();
    } catch (error) {
      if (error instanceof ExchangeError && error.kind === 'unavailable') return;
      throw exchangeApiError(error);
    } finally {
      await exchange.close();
    }
  }

  private async markKeys(account: Account, invalid: boolean): Promise<Account> {
    if (account.apiKeyInvalid === invalid) return account;
    await this.accounts.update(account.id, { apiKeyInvalid: invalid });
    return (await this.accounts.findById(account.id)) ?? { ...account, apiKeyInvalid: invalid };
  }

  private async closeExchange(accountId: number): Promise<void> {
    await this.realExchanges.get(accountId)?.close();
    this.realExchanges.delete(accountId);
  }
}

function alreadyConnected(): ApiError {
  return errors.recordInvalid({ api_key: ['This account is already connected!'] });
}
