/** What routes reach: repositories and services built once per app. */
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import type { DialectName } from './db/migrations.ts';
import { SessionsRepository } from './auth/sessions.repository.ts';
import { LoginThrottle } from './auth/login-throttle.ts';
import { UsersRepository } from './modules/account/users.repository.ts';
import { GroupsRepository } from './modules/groups/groups.repository.ts';
import { AccountService } from './modules/account/account.service.ts';
import { LocalStorage, type FileStorage } from './storage/file-storage.ts';
import { SecretBox } from './security/secret-box.ts';
import path from 'node:path';

export interface AppContext {
  config: Config;
  db: Db;
  dialect: DialectName;
  users: UsersRepository;
  groups: GroupsRepository;
  sessions: SessionsRepository;
  throttle: LoginThrottle;
  account: AccountService;
  storage: FileStorage;
  /** Seals secrets at rest (SIM provider credentials). */
  secrets: SecretBox;
}

export function createContext(config: Config, db: Db, dialect: DialectName): AppContext {
  const users = new UsersRepository(db);
  const sessions = new SessionsRepository(db);
  const groups = new GroupsRepository(db);
  const throttle = new LoginThrottle(db);
  return {
    config,
    db,
    dialect,
    users,
    groups,
    sessions,
    throttle,
    account: new AccountService(db, users, sessions, throttle, groups),
    storage: new LocalStorage(path.join(config.DATA_DIR, 'uploads')),
    secrets: new SecretBox(config),
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
