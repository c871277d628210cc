/** Sign-in, sessions and own-account rules. */
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/errors.ts';
import { decoyHash, hashPassword, verifyPassword } from '../../auth/password.ts';
import type { SessionsRepository } from '../../auth/sessions.repository.ts';
import type { LoginThrottle } from '../../auth/login-throttle.ts';
import type { UsersRepository } from './users.repository.ts';

export class AccountService {
  private readonly db: Db;
  private readonly users: UsersRepository;
  private readonly sessions: SessionsRepository;
  private readonly throttle: LoginThrottle;
  constructor(db: Db, users: UsersRepository, sessions: SessionsRepository, throttle: LoginThrottle) {
    this.db = db;
    this.users = users;
    this.sessions = sessions;
    this.throttle = throttle;
  }

  /** Unknown account and wrong password get the same answer, after the same work. */
  async login(account: string, password: string, address: string) {
    const keys = [`account:${account.toLowerCase()}`, `ip:${address}`];
    const wait = await this.throttle.lockedFor(keys);
    if (wait > 0) throw new AppError(429, 'auth.locked', { seconds: Math.ceil(wait / 1000) });

    const user = await this.users.findByAccount(account);
    const valid = await verifyPassword(password, user?.password_hash ?? (await decoyHash()));
    if (!user || !valid) {
      await this.throttle.recordFailure(keys);
      throw new AppError(401, 'auth.badCredentials');
    }
    if (user.status === 2) throw new AppError(403, 'auth.disabled');
    if (user.status === 0) throw new AppError(403, 'auth.inactive');
    await this.throttle.clear([keys[0] ?? '']);
    const session = await this.sessions.create(user.id);
    const current = await this.users.current(user.id);
    return {
      Token: session.token,
      ExpiresAt: session.expiresAt,
      Account: user.account,
      UserName: user.user_name,
      GroupId: user.group_id,
      IsAdmin: current?.isAdmin ?? false,
    };
  }

  /** Issues a fresh token for a live session and revokes the old one. */
  async renew(userId: number, oldToken: string) {
    const session = await this.sessions.create(userId);
    await this.sessions.revoke(oldToken);
    return session;
  }

  async changeOwnPassword(userId: number, groupId: number, oldPassword: string, newPassword: string) {
    const stored = await this.users.passwordHash(userId);
    if (!stored || !(await verifyPassword(oldPassword, stored))) {
      throw new AppError(400, 'auth.wrongOldPassword', {}, 'OldPassword');
    }
    await this.setPassword(userId, groupId, newPassword);
  }

  /** Sets a password and signs the user out everywhere. */
  async setPassword(userId: number, groupId: number, newPassword: string) {
    const hash = await hashPassword(newPassword);
    await this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('users')
        .set({ password_hash: hash, updated_at: Date.now() })
        .where('id', '=', userId)
        .where('group_id', '=', groupId)
        .executeTakeFirst();
      if (updated.numUpdatedRows === 0n) throw new AppError(404, 'error.notFound');
      await trx.updateTable('sessions').set({ revoked_at: Date.now() }).where('user_id', '=', userId).execute();
    });
  }
}
