/** Users and their roles. Every query that reads another user is scoped by group. */
import { sql } from 'kysely';
import { userConfigSchema, type UserConfig, type UserDto } from '@sluice/shared/account.schema';
import { ALL_OPERATES } from '@sluice/shared/permissions';
import { pictureUrl } from './avatar-url.ts';
import type { Db } from '../../db/database.ts';
import type { UserTable } from '../../db/tables.ts';
import type { CurrentUser } from '../../auth/current-user.ts';

export type NewUser = Omit<UserTable, 'id' | 'created_at' | 'updated_at' | 'config' | 'picture' | 'is_platform_admin'> &
  Partial<Pick<UserTable, 'is_platform_admin'>>;

export function parseConfig(raw: string): UserConfig {
  try {
    const parsed = userConfigSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : { Theme: 'light' };
  } catch {
    return { Theme: 'light' };
  }
}

export class UsersRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  private adminFlag() {
    return sql<number>`(case when exists (
      select 1 from user_roles ur join roles r on r.id = ur.role_id
      where ur.user_id = users.id and r.is_admin = 1) then 1 else 0 end)`;
  }

  async current(id: number): Promise<CurrentUser | undefined> {
    const row = await this.db
      .selectFrom('users')
      .select(['id', 'group_id', 'account', 'status', 'is_platform_admin', this.adminFlag().as('is_admin')])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      id: row.id,
      groupId: row.group_id,
      account: row.account,
      status: row.status,
      isAdmin: row.is_admin === 1 || row.is_platform_admin === 1,
      isPlatformAdmin: row.is_platform_admin === 1,
    };
  }

  /** Whether one of the user's roles holds the operate of that code. */
  async holdsOperate(userId: number, code: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('user_roles')
      .innerJoin('role_operates', 'role_operates.role_id', 'user_roles.role_id')
      .innerJoin('module_operates', 'module_operates.id', 'role_operates.operate_id')
      .select('module_operates.id')
      .where('user_roles.user_id', '=', userId)
      .where('module_operates.code', '=', code)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The codes of every operate the user's roles hold. */
  async operates(userId: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('user_roles')
      .innerJoin('role_operates', 'role_operates.role_id', 'user_roles.role_id')
      .innerJoin('module_operates', 'module_operates.id', 'role_operates.operate_id')
      .select('module_operates.code')
      .distinct()
      .where('user_roles.user_id', '=', userId)
      .execute();
    return rows.map((r) => r.code);
  }

  async findByAccount(account: string) {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where(sql`lower(account)`, '=', account.toLowerCase())
      .executeTakeFirst();
  }

  async accountTaken(account: string): Promise<boolean> {
    return (await this.findByAccount(account)) !== undefined;
  }

  async passwordHash(id: number): Promise<string | undefined> {
    const row = await this.db.selectFrom('users').select('password_hash').where('id', '=', id).executeTakeFirst();
    return row?.password_hash;
  }

  /**
   * Inserts in a transaction of its own (a savepoint inside a request's): a refused insert (an
   * account taken at the same moment) leaves the caller's transaction usable.
   */
  async insertAlone(user: NewUser, now = Date.now()): Promise<number> {
    return this.db.transaction().execute((trx) => new UsersRepository(trx).insert(user, now));
  }

  async insert(user: NewUser, now = Date.now()): Promise<number> {
    const row = await this.db
      .insertInto('users')
      .values({
        ...user,
        is_platform_admin: user.is_platform_admin ?? 0,
        picture: '',
        config: '{}',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async update(
    id: number,
    groupId: number,
    changes: Partial<Pick<UserTable, 'user_name' | 'email' | 'phone' | 'password_hash' | 'status' | 'config' | 'picture'>>,
    now = Date.now(),
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ ...changes, updated_at: now })
      .where('id', '=', id)
      .where('group_id', '=', groupId)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Sets a user's password hash and revokes all of the user's sessions, in one transaction; false when the group has no such user. */
  async setPasswordRevokingSessions(userId: number, groupId: number, hash: string, now = Date.now()): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('users')
        .set({ password_hash: hash, updated_at: now })
        .where('id', '=', userId)
        .where('group_id', '=', groupId)
        .executeTakeFirst();
      if (updated.numUpdatedRows === 0n) return false;
      await trx.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).execute();
      return true;
    });
  }

  async assignRole(userId: number, roleId: number, groupId: number): Promise<void> {
    await this.db.insertInto('user_roles').values({ user_id: userId, role_id: roleId, group_id: groupId }).execute();
  }

  /** The stored key of a user's avatar, when the group has the user and the user a picture. */
  async pictureKey(id: number, groupId: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('users')
      .select('picture')
      .where('id', '=', id)
      .where('group_id', '=', groupId)
      .executeTakeFirst();
    return row?.picture ? row.picture : undefined;
  }

  /** The full profile of one user of a group, with group name and roles. */
  async profile(id: number, groupId: number): Promise<UserDto | undefined> {
    const row = await this.db
      .selectFrom('users')
      .innerJoin('groups', 'groups.id', 'users.group_id')
      .select([
        'users.id',
        'users.account',
        'users.user_name',
        'users.email',
        'users.phone',
        'users.user_type',
        'users.remark',
        'users.status',
        'users.is_platform_admin',
        'users.group_id',
        'users.picture',
        'users.config',
        'groups.group_name',
      ])
      .where('users.id', '=', id)
      .where('users.group_id', '=', groupId)
      .executeTakeFirst();
    if (!row) return undefined;
    const roles = await this.db
      .selectFrom('user_roles')
      .innerJoin('roles', 'roles.id', 'user_roles.role_id')
      .select(['roles.id', 'roles.name', 'roles.is_admin'])
      .where('user_roles.user_id', '=', id)
      .where('roles.group_id', '=', groupId)
      .orderBy('roles.id')
      .execute();
    const status = row.status === 0 || row.status === 2 ? row.status : 1;
    const isAdmin = row.is_platform_admin === 1 || roles.some((r) => r.is_admin === 1);
    const held = await this.operates(id);
    return {
      Id: row.id,
      Account: row.account,
      UserName: row.user_name,
      Email: row.email,
      Phone: row.phone,
      UserType: row.user_type,
      Remark: row.remark,
      Status: status,
      IsAdmin: isAdmin,
      IsPlatformAdmin: row.is_platform_admin === 1,
      GroupId: row.group_id,
      GroupName: row.group_name,
      Picture: pictureUrl(row.id, row.picture),
      Roles: roles.map((r) => ({ Id: r.id, Name: r.name, IsAdmin: r.is_admin === 1 })),
      RoleName: roles.map((r) => r.name).join(','),
      // An administrator passes every operate check (access.ts), so holds every operate.
      Operates: [...new Set<string>(isAdmin ? [...ALL_OPERATES, ...held] : held)].sort(),
      Config: parseConfig(row.config),
    };
  }
}
