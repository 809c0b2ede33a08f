/**
 * Users, their API keys and accounts, composed the same way for the server's core and for the
 * command line's `users` and `keys` commands, which need nothing else.
 */
import type { SecretBox } from './auth/secret-box.ts';
import type { Config } from './config/config.ts';
import type { ExchangeConnector } from './exchanges/exchange-connector.ts';
import { AccountsService, type PaperAccounts } from './services/accounts.service.ts';
import { ApiKeysService } from './services/api-keys.service.ts';
import type { MarketsService } from './services/markets.service.ts';
import { UsersService } from './services/users.service.ts';
import { dec, ZERO } from './shared/decimal.ts';
import { SqlAccountsRepository } from './store/accounts.repository.ts';
import { SqlApiKeysRepository } from './store/api-keys.repository.ts';
import type { Database } from './store/database.ts';
import { SqlUsersRepository } from './store/users.repository.ts';

export function userServices(
  config: Config,
  db: Database,
  secretBox: SecretBox,
  paper: PaperAccounts,
  markets: MarketsService,
  connector: ExchangeConnector,
) {
  const paperBalances = config.paper.balances.map((b) => ({ currency: b.currency, free: dec(b.amount), locked: ZERO }));
  const accountsRepository = new SqlAccountsRepository(db);
  const accounts = new AccountsService(accountsRepository, markets, paper, connector, secretBox, paperBalances);
  const usersRepository = new SqlUsersRepository(db);
  const users = new UsersService(usersRepository, (user) => accounts.createPaperAccount(user.id));
  const apiKeys = new ApiKeysService(new SqlApiKeysRepository(db), usersRepository, secretBox);
  return { accountsRepository, accounts, users, apiKeys };
}
