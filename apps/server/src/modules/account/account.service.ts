/** Sign-in, sessions and own-account rules. */
import { AppError } from '../../http/errors.ts';
import { decoyHash, hashPassword, verifyPassword } from '../../auth/password.ts';
import type { SessionsRepository } from '../../auth/sessions.repository.ts';
import type { LoginThrottle } from '../../auth/login-throttle.ts';
import type { GroupsRepository } from '../groups/groups.repository.ts';
import type { UsersRepository } from './users.repository.ts';

export interface Registration {
  Code: string;
  Account: string;
  UserName: string;
  Email?: string | undefined;
  Phone?: string | undefined;
  Password: string;
}

export class AccountService {
  private readonly users: UsersRepository;
  private readonly sessions: SessionsRepository;
  private readonly throttle: LoginThrottle;
  private readonly groups: GroupsRepository;
  constructor(users: UsersRepository, sessions: SessionsRepository, throttle: LoginThrottle, groups: GroupsRepository) {
    this.users = users;
    this.sessions = sessions;
    this.throttle = throttle;
    this.groups = groups;
  }

  /**
   * Unknown account and wrong password get the same answer, after the same work. The attempt is
   * counted before the password is checked (LoginThrottle), per account and address.
   */
  async login(account: string, password: string, address: string) {
    const wait = await this.throttle.signInAttempt(account, address);
    if (wait > 0) throw new AppError(429, 'auth.locked', { seconds: Math.ceil(wait / 1000) });

    const user = await this.users.findByAccount(account);
    const valid = await verifyPassword(password, user?.password_hash ?? (await decoyHash()));
    if (!user || !valid) throw new AppError(401, 'auth.badCredentials');
    if (user.status === 2) throw new AppError(403, 'auth.disabled');
    if (user.status === 0) throw new AppError(403, 'auth.inactive');
    await this.throttle.signInSucceeded(account, address);
    const session = await this.sessions.create(user.id);
    const current = await this.users.current(user.id);
    return {
      UserId: user.id,
      Token: session.token,
      ExpiresAt: session.expiresAt,
      Account: user.account,
      UserName: user.user_name,
      GroupId: user.group_id,
      IsAdmin: current?.isAdmin ?? false,
    };
  }

  /**
   * Self-registration into a group by its code, as an inactive account an administrator activates.
   * Throttled per address like sign-in, and silent about what exists: an unknown group code or a
   * taken account gets the same answer as a registration, after the same password hashing.
   */
  /** Answers the account registered, or undefined when nothing was (said the same way to the caller). */
  async register(input: Registration, address: string): Promise<{ id: number; groupId: number } | undefined> {
    const wait = await this.throttle.registrationAttempt(address);
    if (wait > 0) throw new AppError(429, 'auth.locked', { seconds: Math.ceil(wait / 1000) });
    const passwordHash = await hashPassword(input.Password);
    const group = await this.groups.findByCode(input.Code);
    const taken = await this.users.accountTaken(input.Account);
    if (!group || taken) return undefined;
    try {
      const id = await this.users.insertAlone({
        group_id: group.Id,
        account: input.Account,
        user_name: input.UserName,
        email: input.Email ?? '',
        phone: input.Phone ?? '',
        user_type: 0,
        remark: '',
        password_hash: passwordHash,
        status: 0,
      });
      return { id, groupId: group.Id };
    } catch (error) {
      // The same account registered at the same moment: as silent as a taken one.
      if (await this.users.accountTaken(input.Account)) return undefined;
      throw error;
    }
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
    if (!(await this.users.setPasswordRevokingSessions(userId, groupId, hash))) throw new AppError(404, 'error.notFound');
    this.sessions.ended({ userId });
  }
}
