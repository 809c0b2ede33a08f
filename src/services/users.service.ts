import { errors } from '../shared/errors.ts';
import type { User, UserMode, UsersRepository } from './repositories.ts';

const USER_NAME = /^[A-Za-z0-9_.@-]{1,64}$/;

export class UsersService {
  /** `onCreated` gives every new user what they start with (their paper account). */
  constructor(
    private readonly users: UsersRepository,
    private readonly onCreated: (user: User) => Promise<unknown> = async () => undefined,
  ) {}

  async create(name: string): Promise<User> {
    if (!USER_NAME.test(name)) {
      throw errors.recordInvalid({ name: ['is invalid: use 1 to 64 letters, digits, _ . @ or -'] });
    }
    const user = await this.users.create(name);
    if (!user) throw errors.recordInvalid({ name: ['has already been taken'] });
    await this.onCreated(user);
    return user;
  }

  async get(id: number): Promise<User> {
    const user = await this.users.findById(id);
    if (!user) throw errors.notFound();
    return user;
  }

  async findByName(name: string): Promise<User | undefined> {
    return this.users.findByName(name);
  }

  async list(): Promise<User[]> {
    return this.users.list();
  }

  async changeMode(id: number, mode: UserMode): Promise<User> {
    await this.users.setMode(id, mode);
    return this.get(id);
  }

  async changeLocale(id: number, locale: string): Promise<User> {
    await this.users.setLocale(id, locale);
    return this.get(id);
  }

  async isEmpty(): Promise<boolean> {
    return (await this.users.count()) === 0;
  }
}

